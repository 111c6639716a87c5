import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { PageQuery, parsePage } from '../../http/pagination.js'
import { errors } from '../../http/schemas.js'
import { REQUEST_ID_MESSAGES, RequestIdParams } from '../requests/requests.schemas.js'
import { ProfileAccessRecord, RequestAccessRecord } from './access.schemas.js'
import type { AccessService } from './access.service.js'

/** docs/privacy.md › Access records: who has seen my contact details. */
export const accessRoutes: FastifyPluginAsyncTypebox<{ access: AccessService }> = async (app, { access }) => {
  app.get('/requests/:id/access-log', {
    schema: {
      tags: ['requests'],
      summary: 'Who has been shown this request\'s contact details, newest first',
      description: 'For the requester, moderators and admins; anyone else gets 404. A record names the viewer, the role that let them see, ' +
        'the fields (`contact_phone`, `contact_notes`, and under ADDRESS_PRIVACY=parties `address`) and when; the same viewer seeing the same ' +
        'fields again within 10 minutes moves the time of one record instead of adding another.',
      params: RequestIdParams,
      querystring: PageQuery,
      response: { 200: Type.Array(RequestAccessRecord), ...errors(400, 401, 404, 500) },
    },
    config: { auth: 'user', extension: true, messages: REQUEST_ID_MESSAGES, failure: 'failed to get access log' },
  }, (request) => access.requestLog(request.user, request.params.id, parsePage(request.query)))

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
