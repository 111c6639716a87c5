import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { errors } from '../../http/schemas.js'
import type { AvailabilityService } from './availability.service.js'
import { Availability, AVAILABILITY_MESSAGES, AvailabilityInput } from './availability.schemas.js'

const tags = ['availability']

export const availabilityRoutes: FastifyPluginAsyncTypebox<{ availability: AvailabilityService }> = async (app, { availability }) => {
  app.get('/users/me/availability', {
    schema: {
      tags,
      summary: 'Own availability for nearby alerts',
      description: 'Defaults when never set. Needs the respond_request permission.',
      response: { 200: Availability, ...errors(401, 403) },
    },
    config: { auth: 'user', extension: true },
  }, (request) => availability.get(request.user))

  app.put('/users/me/availability', {
    schema: {
      tags,
      summary: 'Change own availability for nearby alerts',
      description: 'Every field is optional; an absent field keeps its value. `latitude` and `longitude` go together: ' +
        'both null means "use the home location". Going on duty needs an availability point or a home location. ' +
        'Going on duty, or, on duty, moving, widening the radius or changing the kinds, alerts the volunteer within seconds ' +
        'to up to ALERT_CATCH_UP open requests whose alert rounds are under way (docs/api/help.md › Catch-up alerts).',
      body: AvailabilityInput,
      response: { 200: Availability, ...errors(400, 401, 403) },
    },
    config: { auth: 'user', extension: true, messages: AVAILABILITY_MESSAGES },
  }, (request) => availability.put(request.user, request.body))
}
