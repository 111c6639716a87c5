import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { PageQuery, parsePage } from '../../http/pagination.js'
import { errors } from '../../http/schemas.js'
import { InboxText, TEXT_ID_MESSAGES, TextIdParams } from './sms-inbox.schemas.js'
import type { SmsInboxService } from './sms-inbox.service.js'

const tags = ['texts']
const WHO = 'Moderators and admins see every text; coordinators the texts of clients (every client: coordinators share them). ' +
  'Anyone else: 403 `coordinator role required`.'

/** docs/api/messaging.md › Texts › The inbox: the texts people sent that the service did not understand. */
export const smsInboxRoutes: FastifyPluginAsyncTypebox<{ inbox: SmsInboxService }> = async (app, { inbox }) => {
  app.get('/sms/inbox', {
    schema: {
      tags,
      summary: 'Texts the service did not understand, newest first (docs/api/messaging.md › Texts › The inbox)',
      description: `A text with no keyword, or with a wrong or old code, from a number a person confirmed or a client's. \`limit\` and \`offset\` as for the other lists: bad values fall back to their defaults, never a 400. ${WHO}`,
      querystring: PageQuery,
      response: { 200: Type.Array(InboxText), ...errors(401, 403, 500) },
    },
    config: { auth: 'user', extension: true, failure: 'failed to get texts' },
  }, (request) => inbox.list(request.user, parsePage(request.query)))

  app.post('/sms/inbox/:id/handled', {
    schema: {
      tags,
      summary: 'Mark a text dealt with',
      description: '`handled_by` becomes the caller; a text already marked keeps its first handler, and the answer is the item as it is. ' +
        `A text the caller may not see, or none with this id: 404 \`text not found\`. ${WHO}`,
      params: TextIdParams,
      response: { 200: InboxText, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'user', extension: true, messages: TEXT_ID_MESSAGES },
  }, (request) => inbox.handled(request.user, request.params.id))
}
