import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { parsePage } from '../../http/pagination.js'
import { ErrorBody, errors } from '../../http/schemas.js'
import {
  Concern, CONCERN_ID_MESSAGES, ConcernIdParams, OwnConcern, QueueQuery, queueStatus, RAISE_MESSAGES, RaiseConcernInput, RESOLVE_MESSAGES,
  ResolveConcernInput,
} from './concerns.schemas.js'
import type { ConcernsService } from './concerns.service.js'

const TooManyConcerns = {
  ...ErrorBody,
  description: 'More than 10 concerns by the caller in the last 24 hours: `too many requests`',
  headers: { 'retry-after': Type.Integer({ minimum: 1, description: 'seconds until the oldest of them is 24 hours old' }) },
}

const VISIBILITY = 'A concern about a moderator or admin (its subject, or the requester or assigned volunteer of its request) ' +
  'is shown to admins only, and nobody is shown a concern about themselves.'

export const concernsRoutes: FastifyPluginAsyncTypebox<{ concerns: ConcernsService }> = async (app, { concerns }) => {
  app.post('/concerns', {
    schema: {
      tags: ['concerns'],
      summary: 'Tell the moderators you are worried about a person or a request (docs/api/help.md)',
      description: 'At least one of `subject_user_id` and `request_id`. A request the caller may not see is not found. ' +
        'The moderators and admins who may see it are notified (`concern_raised`), never with its text; the person it is about is never told. ' +
        'At most 10 per caller in any 24 hours. The answer is the concern as its reporter sees it (no `outcome_note`).',
      body: RaiseConcernInput,
      response: { 201: OwnConcern, ...errors(400, 401, 404), 429: TooManyConcerns },
    },
    config: { auth: 'user', extension: true, messages: RAISE_MESSAGES },
  }, async (request, reply) => reply.code(201).send(await concerns.raise(request.user, request.body)))

  app.get('/concerns/mine', {
    schema: {
      tags: ['concerns'],
      summary: 'The caller\'s own concerns, newest first, with their status and outcome',
      description: 'Without the moderators\' `outcome_note`. Concerns about the caller are never shown to them.',
      response: { 200: Type.Array(OwnConcern), ...errors(401, 500) },
    },
    config: { auth: 'user', extension: true, failure: 'failed to get concerns' },
  }, (request) => concerns.mine(request.user))

  app.get('/moderation/concerns', {
    schema: {
      tags: ['moderation'],
      summary: 'Concerns to look at: urgent first, then oldest first',
      description: `\`status\` open (default) or resolved; \`limit\` and \`offset\` as for the other moderation lists. Bad values fall back to their defaults, never a 400. ${VISIBILITY}`,
      querystring: QueueQuery,
      response: { 200: Type.Array(Concern), ...errors(401, 403, 500) },
    },
    config: { auth: 'mod', extension: true, failure: 'failed to get concerns' },
  }, (request) => concerns.queue(request.user, queueStatus(request.query.status), parsePage(request.query)))

  app.post('/moderation/concerns/:id/resolve', {
    schema: {
      tags: ['moderation'],
      summary: 'Resolve an open concern with an outcome and a note',
      description: '`blocked` blocks the concern\'s subject in the same transaction, as POST /admin/users/{id}/block does: ' +
        `their tokens stop within 5 s and their event streams end. The reporter is notified (\`concern_resolved\`) without the note. ${VISIBILITY} ` +
        'A concern the caller may not see is not found.',
      params: ConcernIdParams,
      body: ResolveConcernInput,
      response: { 200: Concern, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'mod', extension: true, messages: { ...CONCERN_ID_MESSAGES, ...RESOLVE_MESSAGES } },
  }, (request) => concerns.resolve(request.user, request.params.id, request.body.outcome, request.body.note))
}
