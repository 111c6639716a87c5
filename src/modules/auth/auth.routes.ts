import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { errors, Message } from '../../http/schemas.js'
import type { AuthService } from './auth.service.js'
import { AuthResponse, LoginRequest, Me, RefreshRequest, RegisterRequest } from './auth.schemas.js'

const tags = ['auth']

const registerMessages = {
  'first_name:pattern': 'first_name must not be blank',
  'last_name:pattern': 'last_name must not be blank',
  phone: 'invalid phone',
  latitude: 'invalid latitude',
  longitude: 'invalid longitude',
  email: 'invalid email',
  'password:minLength': 'password must be at least 8 characters long',
  'password:maxLength': 'password must be at most 128 characters long',
}

export const authRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService }> = async (app, { auth }) => {
  app.post('/auth/register', {
    schema: { tags, summary: 'Create an account', body: RegisterRequest, response: { 201: AuthResponse, ...errors(400) } },
    config: { auth: 'none', messages: registerMessages },
  }, async (request, reply) => {
    const result = await auth.register(request.body)
    return reply.code(201).send(result)
  })

  app.post('/auth/login', {
    schema: { tags, summary: 'Log in with e-mail and password', body: LoginRequest, response: { 200: AuthResponse, ...errors(400, 401) } },
    config: { auth: 'none', messages: { email: 'invalid email', password: 'password is required' } },
  }, (request) => auth.login(request.body))

  app.post('/auth/refresh', {
    schema: {
      tags,
      summary: 'Exchange a refresh token for a new pair',
      description: 'Refresh tokens are single use. Presenting one that was already exchanged revokes every refresh token of its user.',
      body: RefreshRequest,
      response: { 200: AuthResponse, ...errors(400, 401) },
    },
    config: { auth: 'none', messages: { refresh_token: 'refresh_token is required' } },
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
