import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { errors, Message } from '../../http/schemas.js'
import type { UsersService } from '../users/users.service.js'
import { CODE_MESSAGES, VerifyEmailCode } from './auth.schemas.js'
import type { RecoveryService } from './recovery.service.js'

const tags = ['users']

interface VerifyEmailOptions {
  users: UsersService
  /** Confirming the address by a code (docs/api/accounts.md › Getting back in, EMAIL_VERIFICATION=code). */
  recovery: RecoveryService
  emailVerification: 'self' | 'code'
}

/** Confirming one's own e-mail address: marked at once (EMAIL_VERIFICATION=self), or by a code sent to it. */
export const verifyEmailRoutes: FastifyPluginAsyncTypebox<VerifyEmailOptions> = async (app, { users, recovery, emailVerification }) => {
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
}
