import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { errors, idParams, Message } from '../../http/schemas.js'
import type { UsersService } from './users.service.js'
import { HomeLocation, LocationInput, MATCHING_PROFILE_MESSAGES, NAME_MESSAGES, UpdateProfileInput, UserProfile } from './users.schemas.js'

const tags = ['users']

export const usersRoutes: FastifyPluginAsyncTypebox<{ users: UsersService }> = async (app, { users }) => {
  app.get('/users/me', {
    schema: { tags, summary: 'Own profile', response: { 200: UserProfile, ...errors(401, 404) } },
    config: { auth: 'user' },
  }, (request) => users.me(request.user))

  app.patch('/users/me', {
    schema: {
      tags,
      summary: 'Change own profile',
      description: 'Only the listed fields are written; any other field in the body is ignored. ' +
        '`phone`, `bio`, `address` and `city` may be null to clear them. `capabilities`, `languages` and `gender` ' +
        '(docs/api/visits.md › Needs and matching) replace what was set: 400 `invalid capabilities`, `invalid languages`, `invalid gender`.',
      body: UpdateProfileInput,
      response: { 200: Message, ...errors(400, 401, 500) },
    },
    config: {
      auth: 'user',
      failure: 'failed to update profile',
      messages: { ...NAME_MESSAGES, ...MATCHING_PROFILE_MESSAGES, phone: 'invalid phone', locale: 'invalid locale' },
    },
  }, async (request) => {
    await users.update(request.user, request.body)
    return { message: 'profile updated' }
  })

  app.post('/users/me/location', {
    schema: { tags, summary: 'Set own home location', body: LocationInput, response: { 200: Message, ...errors(400, 401) } },
    config: {
      auth: 'user',
      messages: {
        latitude: 'invalid latitude',
        longitude: 'invalid longitude',
        'latitude:required': 'latitude and longitude are required',
        'longitude:required': 'latitude and longitude are required',
      },
    },
  }, async (request) => {
    await users.setLocation(request.user, request.body)
    return { message: 'location updated' }
  })

  // Extension beyond 1.0.1: the web app's "use my home location" needs the point back.
  app.get('/users/me/location', {
    schema: { tags, summary: 'Own home location', description: 'Both null until a location is set.', response: { 200: HomeLocation, ...errors(401, 404) } },
    config: { auth: 'user', extension: true },
  }, (request) => users.location(request.user))

  app.get('/users/:id', {
    schema: {
      tags,
      summary: 'A user\'s profile',
      description: '`phone` and `address` are null unless the caller is the user, a moderator or admin, ' +
        'or the other side of a request the two share in status in_progress.',
      params: idParams('id'),
      response: { 200: UserProfile, ...errors(400, 401, 404) },
    },
    config: { auth: 'user', messages: { id: 'invalid user id' } },
  }, (request) => users.profile(request.user, request.params.id))
}
