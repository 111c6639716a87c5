import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { errors } from '../../http/schemas.js'
import { REQUEST_ID_MESSAGES, RequestIdParams } from '../../help/requests/requests.schemas.js'
import { HistoryEntry } from './history.schemas.js'
import type { HistoryService } from './history.service.js'

/** docs/api/on-behalf.md › A request's history: what was done on a request, by whom, in what capacity. */
export const historyRoutes: FastifyPluginAsyncTypebox<{ history: HistoryService }> = async (app, { history }) => {
  app.get('/requests/:id/history', {
    schema: {
      tags: ['requests'],
      summary: 'A request\'s history, oldest first',
      description: 'Each change of the request: when, what, who (or the service) in what capacity, and for whom. For its parties ' +
        '(requester, assigned volunteer, moderators and admins, coordinators on a client\'s request) and carers of the requester; ' +
        'others 404. The assigned volunteer sees only their own offer\'s entries. Names are read now: an erased account reads "Former user".',
      params: RequestIdParams,
      response: { 200: Type.Array(HistoryEntry), ...errors(400, 401, 404) },
    },
    config: { auth: 'user', extension: true, messages: REQUEST_ID_MESSAGES },
  }, (request) => history.list(request.user, request.params.id))
}
