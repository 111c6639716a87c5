import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { errors } from '../../http/schemas.js'
import { REQUEST_ID_MESSAGES, RequestIdParams } from '../requests/requests.schemas.js'
import type { PreferredService } from './preferred.service.js'

export const preferredRoutes: FastifyPluginAsyncTypebox<{ preferred: PreferredService }> = async (app, { preferred }) => {
  app.post('/requests/:id/decline', {
    schema: {
      tags: ['series'],
      summary: 'Decline an invitation to help again (schedule.md § 2)',
      description: 'The series\' preferred volunteer, invited to a new occurrence alone, cannot help this time: its alert ' +
        'rounds start now instead of after the hold. They stay the preferred volunteer. The answer is an empty object.',
      params: RequestIdParams,
      response: { 200: Type.Object({}, { additionalProperties: false }), ...errors(400, 401, 404) },
    },
    config: { auth: 'user', extension: true, messages: REQUEST_ID_MESSAGES },
  }, (request) => preferred.decline(request.user, request.params.id))
}
