import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { PageQuery, parsePage } from '../../http/pagination.js'
import { errors } from '../../http/schemas.js'
import { REQUEST_ID_MESSAGES, RequestIdParams } from '../requests/requests.schemas.js'
import {
  AcceptResult, CompleteInput, CompleteResult, CreateResponseInput, MyResponse, RATING_MESSAGES, RESPONSE_PARAM_MESSAGES, ResponseParams,
  VolunteerResponse,
} from './responses.schemas.js'
import type { ResponsesService } from './responses.service.js'

const tags = ['responses']

export const responsesRoutes: FastifyPluginAsyncTypebox<{ responses: ResponsesService }> = async (app, { responses }) => {
  app.get('/requests/:id/responses', {
    schema: {
      tags,
      summary: 'Responses on a request, oldest first',
      description: 'The requester, moderators and admins see every response; anyone else sees only their own.',
      params: RequestIdParams,
      response: { 200: Type.Array(VolunteerResponse), ...errors(400, 401, 404, 500) },
    },
    config: { auth: 'user', failure: 'failed to get responses', messages: REQUEST_ID_MESSAGES },
  }, (request) => responses.list(request.user, request.params.id))

  app.post('/requests/:id/responses', {
    schema: {
      tags,
      summary: 'Offer help on an approved request',
      description: 'Needs permission respond_request. The body is optional; the response starts pending.',
      params: RequestIdParams,
      body: CreateResponseInput,
      response: { 201: VolunteerResponse, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'user', messages: REQUEST_ID_MESSAGES, optionalBody: true },
    // Every field is optional, so no body at all is an offer without a message.
    preValidation: async (request) => { if (request.body === undefined) request.body = {} },
  }, async (request, reply) => reply.code(201).send(await responses.respond(request.user, request.params.id, request.body)))

  app.post('/requests/:id/responses/:response_id/accept', {
    schema: {
      tags,
      summary: 'Accept a pending response and assign its volunteer',
      description: 'Requester only. The other pending responses are rejected; the request becomes in_progress.',
      params: ResponseParams,
      response: { 200: AcceptResult, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'user', messages: RESPONSE_PARAM_MESSAGES },
  }, (request) => responses.accept(request.user, request.params.id, request.params.response_id))

  app.post('/requests/:id/complete', {
    schema: {
      tags: ['requests'],
      summary: 'Complete an in_progress request and rate the volunteer',
      description: 'Requester only. Stores the rating and updates the volunteer\'s volunteer_rating and completed_requests_count.',
      params: RequestIdParams,
      body: CompleteInput,
      response: { 200: CompleteResult, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'user', messages: { ...REQUEST_ID_MESSAGES, ...RATING_MESSAGES } },
  }, (request) => responses.complete(request.user, request.params.id, request.body))

  // Extensions beyond interface 1.0.1 (docs/api/help.md › Volunteer responses, completion and ratings).
  app.post('/requests/:id/responses/:response_id/cancel', {
    schema: {
      tags,
      summary: 'Withdraw own response',
      description: 'A pending response is cancelled. An accepted one is cancelled too, and its in_progress request ' +
        'returns to approved with no assigned volunteer.',
      params: ResponseParams,
      response: { 200: VolunteerResponse, ...errors(400, 401, 404) },
    },
    config: { auth: 'user', extension: true, messages: RESPONSE_PARAM_MESSAGES },
  }, (request) => responses.withdraw(request.user, request.params.id, request.params.response_id))

  app.get('/responses/my', {
    schema: {
      tags,
      summary: 'The caller\'s own responses, newest first',
      description: 'Each with its request\'s title and current status.',
      querystring: PageQuery,
      response: { 200: Type.Array(MyResponse), ...errors(401, 500) },
    },
    config: { auth: 'user', extension: true, failure: 'failed to get responses' },
  }, (request) => responses.mine(request.user, parsePage(request.query)))

  app.post('/requests/:id/responses/:response_id/reject', {
    schema: {
      tags,
      summary: 'Reject a pending response',
      description: 'Requester only.',
      params: ResponseParams,
      response: { 200: VolunteerResponse, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'user', extension: true, messages: RESPONSE_PARAM_MESSAGES },
  }, (request) => responses.reject(request.user, request.params.id, request.params.response_id))
}
