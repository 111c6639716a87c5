import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { errors, Message } from '../../http/schemas.js'
import type { AuthService } from './auth.service.js'
import { NAME_MESSAGES } from '../users/users.schemas.js'
import { AuthResponse, LoginRequest, Me, RefreshRequest, RegisterRequest } from './auth.schemas.js'

const tags = ['auth']

const emailMessages = { email: 'invalid email', 'email:required': 'email is required' }

const registerMessages = {
  ...emailMessages,
  ...NAME_MESSAGES,
  phone: 'invalid phone',
  latitude: 'invalid latitude',
  longitude: 'invalid longitude',
}

/**
 * E-mail is stored trimmed and in lower case (rules.md › Accounts and tokens); trimming before the
 * format check means an address pasted with a stray space is accepted rather than refused.
 */
async function trimEmail (request: FastifyRequest): Promise<void> {
  const body = request.body as { email?: unknown } | null | undefined
  if (typeof body?.email === 'string') body.email = body.email.trim()
}

export const authRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService }> = async (app, { auth }) => {
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
}
