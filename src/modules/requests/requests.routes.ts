import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { errors } from '../../http/schemas.js'
import type { RequestsService } from './requests.service.js'
import { CreateRequestInput, Request, REQUEST_ID_MESSAGES, RequestDetail, RequestIdParams } from './requests.schemas.js'

const tags = ['requests']

export const requestsRoutes: FastifyPluginAsyncTypebox<{ requests: RequestsService }> = async (app, { requests }) => {
  app.post('/requests', {
    schema: {
      tags,
      summary: 'Ask for help',
      description: 'The caller is the requester; a requester id in the body is ignored. The new request awaits moderation.',
      body: CreateRequestInput,
      response: { 201: Request, ...errors(400, 401, 403) },
    },
    config: { auth: 'user', messages: { latitude: 'invalid latitude', longitude: 'invalid longitude', request_type_id: 'invalid request type' } },
  }, async (request, reply) => reply.code(201).send(await requests.create(request.user, request.body)))

  app.get('/requests/:id', {
    schema: {
      tags,
      summary: 'One request with its requester, type and assigned volunteer',
      description: 'Contact details are null unless the caller is the requester, the assigned volunteer, a moderator or an admin. ' +
        'Rejected and cancelled requests are visible only to those same people; others get 404.',
      params: RequestIdParams,
      response: { 200: RequestDetail, ...errors(400, 401, 404) },
    },
    config: { auth: 'user', messages: REQUEST_ID_MESSAGES },
  }, (request) => requests.get(request.user, request.params.id))
}
