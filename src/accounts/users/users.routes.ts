import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { errors, idParams, Message } from '../../http/schemas.js'
import type { UsersService } from './users.service.js'
import { CODE_MESSAGES, VerifyEmailCode } from '../auth/auth.schemas.js'
import type { RecoveryService } from '../auth/recovery.service.js'
import { HomeLocation, LocationInput, NAME_MESSAGES, UpdateProfileInput, UserProfile } from './users.schemas.js'

const tags = ['users']

interface UsersRoutesOptions {
  users: UsersService
  /** Confirming the address by a code (docs/api/accounts.md › Getting back in, EMAIL_VERIFICATION=code). */
  recovery: RecoveryService
  emailVerification: 'self' | 'code'
}

export const usersRoutes: FastifyPluginAsyncTypebox<UsersRoutesOptions> = async (app, { users, recovery, emailVerification }) => {
  app.get('/users/me', {
    schema: { tags, summary: 'Own profile', response: { 200: UserProfile, ...errors(401, 404) } },
    config: { auth: 'user' },
  }, (request) => users.me(request.user))

  app.patch('/users/me', {
    schema: {
      tags,
      summary: 'Change own profile',
      description: 'Only the listed fields are written; any other field in the body is ignored. ' +
        '`phone`, `bio`, `address` and `city` may be null to clear them.',
      body: UpdateProfileInput,
      response: { 200: Message, ...errors(400, 401, 500) },
    },
    config: {
      auth: 'user',
      failure: 'failed to update profile',
      messages: { ...NAME_MESSAGES, phone: 'invalid phone', locale: 'invalid locale' },
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

  // EMAIL_VERIFICATION=self keeps interface 1.0.1 exactly: no body, any address marked verified.
  if (emailVerification === 'self') {
    app.post('/users/me/verify-email', {
      schema: { tags, summary: 'Mark own e-mail verified', response: { 200: Message, ...errors(401, 500) } },
      config: { auth: 'user', failure: 'failed to verify email' },
    }, async (request) => {
      await users.verifyEmail(request.user)
      return { message: 'email verified' }
    })
  } else {
    app.post('/users/me/verify-email', {
      schema: {
        tags,
        summary: 'Confirm own e-mail with the code sent to it',
        description: 'EMAIL_VERIFICATION=code: the code from registration or the latest resend (6 digits, 30 minutes, five tries). ' +
          'An address already confirmed answers 200 whatever the code.',
        body: VerifyEmailCode,
        response: { 200: Message, ...errors(400, 401, 500) },
      },
      config: { auth: 'user', failure: 'failed to verify email', messages: CODE_MESSAGES },
    }, async (request) => {
      await recovery.verifyEmail(request.user, request.body.code)
      return { message: 'email verified' }
    })
  }

  app.post('/users/me/verify-email/resend', {
    schema: {
      tags,
      summary: 'Send a new code to confirm own e-mail',
      description: 'EMAIL_VERIFICATION=code only (404 otherwise). The earlier code is void. Nothing is sent when the address is ' +
        'already confirmed (message `email already verified`). Counts against login\'s rate limits.',
      response: { 202: Message, ...errors(401, 404) },
    },
    config: { auth: 'user', extension: true },
  }, async (request, reply) => {
    const sent = await recovery.resendVerification(request.user)
    return reply.code(202).send({ message: sent ? 'code sent' : 'email already verified' })
  })

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
