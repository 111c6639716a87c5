import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { Queryable } from '../../db/database.js'
import { errors, NullableString } from '../../http/schemas.js'
import { listRequestTypes } from './request-types.repo.js'

export const RequestType = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: NullableString(),
  icon: NullableString(),
  is_active: Type.Boolean(),
})

export const requestTypesRoutes: FastifyPluginAsyncTypebox<{ db: Queryable }> = async (app, { db }) => {
  app.get('/request-types', {
    schema: { tags: ['requests'], summary: 'The kinds of help one can ask for', response: { 200: Type.Array(RequestType), ...errors(500) } },
    config: { auth: 'none', failure: 'failed to get request types' },
  }, () => listRequestTypes(db))
}
