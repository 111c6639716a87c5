import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { errors } from '../../http/schemas.js'
import { REQUEST_ID_MESSAGES, RequestIdParams } from '../requests/requests.schemas.js'
import { CHECK_OUT_MESSAGES, CheckOutInput, Expenses, EXPENSES_MESSAGES, ExpensesInput, Visit } from './visits.schemas.js'
import type { VisitsService } from './visits.service.js'

const tags = ['requests']

const GATED = 'With VISIT_CHECKS=off (the default): 404 `visit checks are off`. A request the caller may not see: 404 `request not found`; ' +
  'one not in_progress: 400 `request is not in progress`.'

/** docs/api/visit-checks.md: a visit checked in and out, and the hours and mileage recorded after it. */
export const visitsRoutes: FastifyPluginAsyncTypebox<{ visits: VisitsService }> = async (app, { visits }) => {
  app.get('/requests/:id/visit', {
    schema: {
      tags,
      summary: 'The visit as it stands: checked in, checked out',
      description: 'The assigned volunteer\'s visit, for that volunteer and the requester\'s side (the requester, a coordinator of a client\'s ' +
        'request, a carer allowed to `follow`); all null while nobody is assigned or checked in. Others: 403 `only the assigned volunteer or the ' +
        'requester can see this`. With VISIT_CHECKS=off (the default): 404 `visit checks are off`. A request the caller may not see: 404 `request not found`.',
      params: RequestIdParams,
      response: { 200: Visit, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'user', extension: true, messages: REQUEST_ID_MESSAGES },
  }, (request) => visits.current(request.user, request.params.id))

  app.post('/requests/:id/visit/check-in', {
    schema: {
      tags,
      summary: 'The assigned volunteer has arrived',
      description: `Others: 403 \`only the assigned volunteer can do this\`. Again: 200, unchanged. No body. ${GATED}`,
      params: RequestIdParams,
      response: { 200: Visit, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'user', extension: true, messages: REQUEST_ID_MESSAGES },
  }, (request) => visits.checkIn(request.user, request.params.id))

  app.post('/requests/:id/visit/check-out', {
    schema: {
      tags,
      summary: 'The assigned volunteer has left',
      description: 'Before a check-in: 400 `not checked in`; again: 200, unchanged. `{"worried": true}` also raises an urgent concern ' +
        '(kind `report`, the volunteer its reporter) for the moderators in the same step, once per visit; nothing on the requester\'s side shows it. ' +
        `The body is optional. Others: 403 \`only the assigned volunteer can do this\`. ${GATED}`,
      params: RequestIdParams,
      body: CheckOutInput,
      response: { 200: Visit, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'user', extension: true, messages: { ...REQUEST_ID_MESSAGES, ...CHECK_OUT_MESSAGES }, optionalBody: true },
    preValidation: async (request) => { if (request.body === undefined) request.body = {} },
  }, (request) => visits.checkOut(request.user, request.params.id, request.body.worried === true))

  app.post('/requests/:id/visit/helper-left', {
    schema: {
      tags,
      summary: 'The requester says the helper has left',
      description: 'The requester, a coordinator of a client\'s request, or a carer allowed to `complete`: the visit is checked out when it was in ' +
        `(otherwise answered unchanged). Others: 403 \`only the requester can do this\`. No body. ${GATED}`,
      params: RequestIdParams,
      response: { 200: Visit, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'user', extension: true, messages: REQUEST_ID_MESSAGES },
  }, (request) => visits.helperLeft(request.user, request.params.id))

  app.post('/requests/:id/visit/expenses', {
    schema: {
      tags,
      summary: 'Record the time a completed visit took and the kilometres driven',
      description: 'The assigned volunteer of a completed request (others: 403 `only the assigned volunteer can do this`; not completed: ' +
        '400 `request is not completed`). Again replaces the record (a field left out is not recorded), until 30 days after completion ' +
        '(then 400 `too late to change`). Not gated by VISIT_CHECKS.',
      params: RequestIdParams,
      body: ExpensesInput,
      response: { 200: Expenses, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'user', extension: true, messages: { ...REQUEST_ID_MESSAGES, ...EXPENSES_MESSAGES } },
  }, (request) => visits.recordExpenses(request.user, request.params.id, request.body))
}
