import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { parsePage } from '../../http/pagination.js'
import { errors, Message } from '../../http/schemas.js'
import { Client, CLIENT_ERASED, CLIENT_MESSAGES, ClientIdParams, ClientQuery, CreateClientInput, UpdateClientInput } from './clients.schemas.js'
import type { ClientsService } from './clients.service.js'

const tags = ['clients']
const WHO = 'Read by coordinators, moderators and admins; created, changed and erased by holders of `coordinate_requests` ' +
  '(coordinators, admins). Anyone else: 403 `coordinator role required`.'

/** docs/api/on-behalf.md › Coordinators and clients: the people without an account whom coordinators ask for. */
export const clientsRoutes: FastifyPluginAsyncTypebox<{ clients: ClientsService }> = async (app, { clients }) => {
  app.post('/clients', {
    schema: {
      tags,
      summary: 'Record a client: a person without an account whom coordinators ask for (docs/api/on-behalf.md › Coordinators and clients)',
      description: `\`consent.how\` is required (400 \`consent is required\`); the service records who (the caller) and when. ${WHO}`,
      body: CreateClientInput,
      response: { 201: Client, ...errors(400, 401, 403) },
    },
    config: { auth: 'user', extension: true, messages: CLIENT_MESSAGES },
  }, async (request, reply) => reply.code(201).send(await clients.create(request.user, request.body)))

  app.get('/clients', {
    schema: {
      tags,
      summary: 'Clients whose name or phone matches `q`, most recently updated first',
      description: 'Phone numbers match in any spelling: digits compared without blanks and without the leading `+` or `00` ' +
        `(and a national leading 0). Without \`q\`, every client. ${WHO}`,
      querystring: ClientQuery,
      response: { 200: Type.Array(Client), ...errors(400, 401, 403, 500) },
    },
    config: { auth: 'user', extension: true, failure: 'failed to get clients' },
  }, (request) => clients.list(request.user, request.query.q, parsePage(request.query)))

  app.get('/clients/:id', {
    schema: {
      tags,
      summary: 'One client\'s whole record',
      description: WHO,
      params: ClientIdParams,
      response: { 200: Client, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'user', extension: true, messages: CLIENT_MESSAGES, failure: 'client not found', failureStatus: 404 },
  }, (request) => clients.get(request.user, request.params.id))

  app.patch('/clients/:id', {
    schema: {
      tags,
      summary: 'Change a client\'s record',
      description: 'Only the fields given change; null clears one. latitude and longitude go together. A `consent` given is recorded again, ' +
        'by the caller, now. `texts` `{"how"}` records the client\'s consent to texts (by the caller, now), `null` withdraws it, and texts ' +
        'not yet sent are dropped; `locale` is their language (docs/api/on-behalf.md › Texts to a client). ' +
        `Requests already made keep the phone and point they were made with. ${WHO}`,
      params: ClientIdParams,
      body: UpdateClientInput,
      response: { 200: Client, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'user', extension: true, messages: CLIENT_MESSAGES },
  }, (request) => clients.update(request.user, request.params.id, request.body))

  app.delete('/clients/:id', {
    schema: {
      tags,
      summary: 'Erase a client, as an account is erased (docs/privacy.md)',
      description: 'Refused while a request of theirs is in_progress (400 `finish or cancel your open requests first`). Otherwise, in one ' +
        'transaction: their pending and approved requests cancelled (by the caller), finished ones minimised, the record deleted. ' +
        `Their requests keep \`client_id\` and show \`client: null\`. ${WHO}`,
      params: ClientIdParams,
      response: { 200: Message, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'user', extension: true, messages: CLIENT_MESSAGES },
  }, async (request) => {
    await clients.erase(request.user, request.params.id)
    return { message: CLIENT_ERASED }
  })
}
