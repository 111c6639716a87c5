import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { PageQuery, parsePage } from '../../http/pagination.js'
import { errors } from '../../http/schemas.js'
import { ProfileAccessRecord } from './access.schemas.js'
import type { AccessService } from './access.service.js'

/** Who has seen my contact details (docs/privacy.md › Access records). */
export const accessRoutes: FastifyPluginAsyncTypebox<{ access: AccessService }> = async (app, { access }) => {
  app.get('/users/me/access-log', {
    schema: {
      tags: ['users'],
      summary: 'Who has been shown the caller\'s profile phone or address, newest first',
      description: 'Each record with the shared in_progress request that allowed the view (null for moderators and admins) and the viewer\'s side of it.',
      querystring: PageQuery,
      response: { 200: Type.Array(ProfileAccessRecord), ...errors(401, 500) },
    },
    config: { auth: 'user', extension: true, failure: 'failed to get access log' },
  }, (request) => access.profileLog(request.user, parsePage(request.query)))
}
