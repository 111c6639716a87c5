import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { errors } from '../../http/schemas.js'
import { RequestType } from './request-types.schemas.js'
import type { RequestTypesService } from './request-types.service.js'

export const requestTypesRoutes: FastifyPluginAsyncTypebox<{ requestTypes: RequestTypesService }> = async (app, { requestTypes }) => {
  app.get('/request-types', {
    schema: { tags: ['requests'], summary: 'The kinds of help one can ask for', response: { 200: Type.Array(RequestType), ...errors(500) } },
    config: { auth: 'none', failure: 'failed to get request types' },
  }, () => requestTypes.list())
}
