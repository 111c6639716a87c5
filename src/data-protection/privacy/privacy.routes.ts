import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { errors, Message } from '../../http/schemas.js'
import { DataExport, EraseInput, ERASED } from './privacy.schemas.js'
import type { PrivacyService } from './privacy.service.js'

const tags = ['users']

export const privacyRoutes: FastifyPluginAsyncTypebox<{ privacy: PrivacyService }> = async (app, { privacy }) => {
  app.get('/users/me/export', {
    schema: {
      tags,
      summary: 'Everything the service holds about the caller (docs/privacy.md)',
      description: 'Profile with phone, address and home location, roles, own requests with contact data and exact points, ' +
        'own responses, ratings given and received. Other people appear by id only: no one else\'s contact data or e-mail. ' +
        'Sent as a download: `Content-Disposition: attachment; filename="my-data.json"`.',
      response: { 200: DataExport, ...errors(401, 404, 500) },
    },
    config: { auth: 'user', extension: true, failure: 'failed to export data' },
  }, async (request, reply) => {
    const data = await privacy.export(request.user)
    reply.header('content-disposition', 'attachment; filename="my-data.json"')
    return data
  })

  app.delete('/users/me', {
    schema: {
      tags,
      summary: 'Erase the caller\'s account (docs/privacy.md)',
      description: 'Needs the current password (401 `invalid credentials` when wrong or missing). Refused while the caller has a ' +
        'request in_progress or is the assigned volunteer of one, and for the last admin. Otherwise, in one transaction: pending and ' +
        'approved requests cancelled, pending responses withdrawn, personal fields deleted, e-mail replaced, names set to ' +
        '"Former user", every token revoked, finished requests minimised. Ratings stay. The e-mail can register again.',
      body: EraseInput,
      response: { 200: Message, ...errors(400, 401, 500) },
    },
    config: { auth: 'user', extension: true, failure: 'failed to erase account', optionalBody: true },
    // docs/privacy.md: a missing password is 401 like a wrong one, so a DELETE without a body is read as `{}`.
    preValidation: async (request) => { request.body ??= {} },
  }, async (request) => {
    await privacy.erase(request.user, request.body.password)
    return { message: ERASED }
  })
}
