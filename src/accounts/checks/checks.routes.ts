import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { errors, idParams } from '../../http/schemas.js'
import { Check, CHECK_PARAM_MESSAGES, CheckParams, NEW_CHECK_MESSAGES, NewCheckInput } from './checks.schemas.js'
import type { ChecksService } from './checks.service.js'

const tags = ['admin']

/** docs/api/accounts.md › Checks that vet volunteers: moderators and admins record, list and revoke the checks that vet a person. */
export const checksRoutes: FastifyPluginAsyncTypebox<{ checks: ChecksService }> = async (app, { checks }) => {
  app.post('/admin/users/:id/checks', {
    schema: {
      tags,
      summary: 'Record a check of a user (identity, background, training, reference)',
      description: 'Moderators and admins. `valid_until` is the last day (in TIME_ZONE) the check is valid; absent or null: it does not expire.',
      params: idParams('id'),
      body: NewCheckInput,
      response: { 201: Check, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'mod', extension: true, messages: NEW_CHECK_MESSAGES },
  }, async (request, reply) => reply.code(201).send(await checks.record(request.user, request.params.id, request.body)))

  app.get('/admin/users/:id/checks', {
    schema: {
      tags,
      summary: 'A user\'s checks, newest first, revoked and expired ones included',
      params: idParams('id'),
      response: { 200: Type.Array(Check), ...errors(400, 401, 403, 404, 500) },
    },
    config: { auth: 'mod', extension: true, failure: 'failed to get checks', messages: { id: 'invalid user id' } },
  }, (request) => checks.list(request.params.id))

  app.post('/admin/users/:id/checks/:check_id/revoke', {
    schema: {
      tags,
      summary: 'Revoke a check',
      description: 'Idempotent: a revoked check is answered as it is. Checks are never deleted.',
      params: CheckParams,
      response: { 200: Check, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'mod', extension: true, messages: CHECK_PARAM_MESSAGES },
  }, (request) => checks.revoke(request.params.id, request.params.check_id))
}
