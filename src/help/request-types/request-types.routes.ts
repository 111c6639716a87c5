import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { errors, idParams } from '../../http/schemas.js'
import { REQUEST_TYPE_MESSAGES, RequestType, UpdateRequestTypeInput } from './request-types.schemas.js'
import type { RequestTypesService } from './request-types.service.js'

export const requestTypesRoutes: FastifyPluginAsyncTypebox<{ requestTypes: RequestTypesService }> = async (app, { requestTypes }) => {
  app.get('/request-types', {
    schema: { tags: ['requests'], summary: 'The kinds of help one can ask for', response: { 200: Type.Array(RequestType), ...errors(500) } },
    config: { auth: 'none', failure: 'failed to get request types' },
  }, () => requestTypes.list())

  app.patch('/request-types/:id', {
    schema: {
      tags: ['requests'],
      summary: 'Set the needs a type\'s requests get by default (admins)',
      description: 'docs/api/visits.md › Needs and matching: `default_needs` replaces the type\'s defaults; a request that leaves `needs` out gets them. ' +
        'Unknown or repeated codes → 400 `invalid default_needs`; no such type → 404 `request type not found`; not an admin → 403 `admin role required`.',
      params: idParams('id'),
      body: UpdateRequestTypeInput,
      response: { 200: RequestType, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'admin', extension: true, messages: REQUEST_TYPE_MESSAGES },
  }, (request) => requestTypes.setDefaultNeeds(request.params.id, request.body.default_needs))
}
