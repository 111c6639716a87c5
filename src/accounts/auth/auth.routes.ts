import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { errors, Message } from '../../http/schemas.js'
import type { AuthService } from './auth.service.js'
import { NAME_MESSAGES } from '../users/users.schemas.js'
import {
  AuthResponse, ChangePassword, CODE_MESSAGES, CodeRequest, CodeSignIn, LoginRequest, Me, PasswordResetConfirm, RefreshRequest, RegisterRequest,
} from './auth.schemas.js'
import { CODE_SENT, type RecoveryService } from './recovery.service.js'

const tags = ['auth']

const emailMessages = { email: 'invalid email', 'email:required': 'email is required' }

const registerMessages = {
  ...emailMessages,
  ...NAME_MESSAGES,
  phone: 'invalid phone',
  latitude: 'invalid latitude',
  longitude: 'invalid longitude',
  locale: 'invalid locale',
}

/**
 * E-mail is stored trimmed and in lower case (docs/api/accounts.md › Tokens); trimming before the
 * format check means an address pasted with a stray space is accepted rather than refused.
 */
async function trimEmail (request: FastifyRequest): Promise<void> {
  const body = request.body as { email?: unknown } | null | undefined
  if (typeof body?.email === 'string') body.email = body.email.trim()
}

export const authRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService, recovery: RecoveryService }> = async (app, { auth, recovery }) => {
  app.post('/auth/register', {
    schema: { tags, summary: 'Create an account', body: RegisterRequest, response: { 201: AuthResponse, ...errors(400) } },
    config: { auth: 'none', messages: registerMessages },
    preValidation: trimEmail,
  }, async (request, reply) => {
    const result = await auth.register(request.body)
    return reply.code(201).send(result)
  })

  app.post('/auth/login', {
    schema: { tags, summary: 'Log in with e-mail and password', body: LoginRequest, response: { 200: AuthResponse, ...errors(400, 401) } },
    config: { auth: 'none', messages: { ...emailMessages, 'password:required': 'password is required', 'password:minLength': 'password is required' } },
    preValidation: trimEmail,
  }, (request) => auth.login(request.body))

  app.post('/auth/refresh', {
    schema: {
      tags,
      summary: 'Exchange a refresh token for a new pair',
      description: 'Refresh tokens are single use. Presenting one that was already exchanged revokes every refresh token of its user.',
      body: RefreshRequest,
      response: { 200: AuthResponse, ...errors(400, 401) },
    },
    config: { auth: 'none', messages: { 'refresh_token:required': 'refresh_token is required', 'refresh_token:minLength': 'refresh_token is required' } },
  }, (request) => auth.refresh(request.body.refresh_token))

  app.get('/auth/me', {
    schema: { tags, summary: 'Who the caller is', response: { 200: Me, ...errors(401) } },
    config: { auth: 'user' },
  }, (request) => auth.me(request.user.id))

  app.post('/auth/logout', {
    schema: {
      tags,
      summary: 'Revoke every refresh token of the caller',
      description: 'Access tokens already issued stay valid until they expire (at most `expires_in` seconds).',
      response: { 200: Message, ...errors(401, 500) },
    },
    config: { auth: 'user', failure: 'failed to logout' },
  }, async (request) => {
    await auth.logout(request.user.id)
    return { message: 'logged out' }
  })

  // docs/api/accounts.md › Getting back in: getting back in. Asking and confirming count against login's rate limits (src/http/rate-limit.ts).
  const codeSent = { 202: Message }

  app.post('/auth/password-reset', {
    schema: {
      tags,
      summary: 'Ask for a code to set a new password',
      description: 'The same answer whether or not the address has an account. The code (6 digits, 30 minutes, single use) ' +
        'goes to the address by e-mail; asking again voids the earlier code.',
      body: CodeRequest,
      response: { ...codeSent, ...errors(400) },
    },
    config: { auth: 'none', extension: true, messages: emailMessages },
    preValidation: trimEmail,
  }, async (request, reply) => {
    await recovery.sendCode(request.body.email, 'password_reset')
    return reply.code(202).send({ message: CODE_SENT })
  })

  app.post('/auth/password-reset/confirm', {
    schema: {
      tags,
      summary: 'Set a new password with the code, and sign in',
      description: 'Every refresh token of the account is revoked first. A bad password is refused before the code is looked at, ' +
        'so the code stays usable. Five wrong codes void it. Confirms the address too.',
      body: PasswordResetConfirm,
      response: { 200: AuthResponse, ...errors(400, 401) },
    },
    config: { auth: 'none', extension: true, messages: { ...emailMessages, ...CODE_MESSAGES } },
    preValidation: trimEmail,
  }, (request) => recovery.resetPassword(request.body))

  app.post('/auth/code', {
    schema: {
      tags,
      summary: 'Ask for a code to sign in without a password',
      description: 'The same answer whether or not the address has an account; asking again voids the earlier code.',
      body: CodeRequest,
      response: { ...codeSent, ...errors(400) },
    },
    config: { auth: 'none', extension: true, messages: emailMessages },
    preValidation: trimEmail,
  }, async (request, reply) => {
    await recovery.sendCode(request.body.email, 'sign_in')
    return reply.code(202).send({ message: CODE_SENT })
  })

  app.post('/auth/code/confirm', {
    schema: {
      tags,
      summary: 'Sign in with the code',
      description: 'Five wrong codes void it. A blocked account is 401 `account is blocked`, as at login. Confirms the address too.',
      body: CodeSignIn,
      response: { 200: AuthResponse, ...errors(400, 401) },
    },
    config: { auth: 'none', extension: true, messages: { ...emailMessages, ...CODE_MESSAGES } },
    preValidation: trimEmail,
  }, (request) => recovery.signInWithCode(request.body))

  app.post('/users/me/password', {
    schema: {
      tags,
      summary: 'Change own password',
      description: 'Answers a new token pair: the caller stays signed in, and every earlier refresh token of the account is revoked. ' +
        'A wrong current password is 401 `invalid credentials`.',
      body: ChangePassword,
      response: { 200: AuthResponse, ...errors(400, 401) },
    },
    config: { auth: 'user', extension: true, messages: CODE_MESSAGES },
  }, (request) => recovery.changePassword(request.user, request.body))
}
