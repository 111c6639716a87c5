import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { errors } from '../../http/schemas.js'
import { REQUEST_ID_MESSAGES, RequestDetail, RequestIdParams } from '../../help/requests/requests.schemas.js'
import type { ScheduleService } from './schedule.service.js'

const tags = ['requests']

/** docs/api/schedule.md › Confirmation, reminders, expiry: the volunteer's confirmation the day before, and the requester's "still needed". */
export const scheduleRoutes: FastifyPluginAsyncTypebox<{ schedule: ScheduleService }> = async (app, { schedule }) => {
  app.post('/requests/:id/confirm', {
    schema: {
      tags,
      summary: 'Confirm that you will come',
      description: 'The assigned volunteer of an in_progress request with a window; the requester gets `volunteer_confirmed`. ' +
        'Also after the confirmation deadline while still assigned; again: 200, unchanged. No body.',
      params: RequestIdParams,
      response: { 200: RequestDetail, ...errors(400, 401, 404) },
    },
    config: { auth: 'user', extension: true, messages: REQUEST_ID_MESSAGES },
  }, (request) => schedule.confirm(request.user, request.params.id))

  app.post('/requests/:id/still-needed', {
    schema: {
      tags,
      summary: 'Say that an approved request is still needed',
      description: 'The requester keeps an approved request: an open "still needed?" question is answered (the request is not cancelled ' +
        'as expired 3 days after it), and the next question waits STALE_AFTER_DAYS. No body.',
      params: RequestIdParams,
      response: { 200: RequestDetail, ...errors(400, 401, 404) },
    },
    config: { auth: 'user', extension: true, messages: REQUEST_ID_MESSAGES },
  }, (request) => schedule.stillNeeded(request.user, request.params.id))
}
