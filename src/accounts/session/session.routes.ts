import cookie from '@fastify/cookie'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { API_PREFIX } from '../../http/openapi.js'
import { errors, Message } from '../../http/schemas.js'
import { AppError, forbidden } from '../../lib/errors.js'
import { AuthResponse, ChangePassword, CODE_MESSAGES, CodeSignIn, LoginRequest, PasswordResetConfirm, RegisterRequest } from '../auth/auth.schemas.js'
import type { AuthService } from '../auth/auth.service.js'
import type { RecoveryService } from '../auth/recovery.service.js'
import { NAME_MESSAGES } from '../users/users.schemas.js'

/**
 * The web app's sessions (beyond interface 1.0.1): the same accounts and tokens as /auth, but the
 * refresh token travels only in an httpOnly cookie scoped to these routes, so page script never sees
 * it. Cross-site requests are refused twice over: the cookie is SameSite=Strict, and every route
 * needs the CSRF_HEADER, which a form cannot send and a cross-origin script cannot send without a
 * CORS preflight that this service does not grant to other origins.
 */
export const SESSION_PATH = `${API_PREFIX}/session`
export const REFRESH_COOKIE = 'vcs_refresh'
export const CSRF_HEADER = 'x-vcs-csrf'

const tags = ['auth']

/** The answer without the refresh token, which goes into the cookie instead. */
const SessionResponse = Type.Omit(AuthResponse, ['refresh_token'])

/** The refresh answer when there is no session cookie at all. */
const SignedOut = Type.Null({ description: 'No session cookie: signed out (no body)' })

const CsrfHeaders = Type.Object({ [CSRF_HEADER]: Type.Literal('1') })

const emailMessages = { email: 'invalid email', 'email:required': 'email is required' }

/**
 * Secure ('auto') when request.protocol is https, which behind a TLS-terminating proxy it is only with
 * TRUST_PROXY set, as it should be: a Secure cookie on plain HTTP would never come back.
 */
function setRefreshCookie (reply: FastifyReply, token: string, maxAgeSeconds: number): void {
  // Max-Age only, no Expires, also when clearing: clearCookie would add an Expires in 1970.
  reply.setCookie(REFRESH_COOKIE, token, { path: SESSION_PATH, httpOnly: true, sameSite: 'strict', maxAge: maxAgeSeconds, secure: 'auto' })
  // Answers that carry tokens must not be kept by any cache.
  reply.header('cache-control', 'no-store')
}

/**
 * The CSRF header, then a same-origin check: a browser always sends Origin on a POST; when present it must name this host.
 * The custom header alone already forces a preflight, so this is defence in depth (e.g. CORS_ORIGINS set).
 */
async function csrfChecks (request: FastifyRequest): Promise<void> {
  if (request.headers[CSRF_HEADER] !== '1') throw forbidden(`header ${CSRF_HEADER}: 1 is required`)
  const body = request.body as { email?: unknown } | null | undefined
  // E-mail is stored trimmed (docs/api/accounts.md › Tokens), as /auth trims it before the format check.
  if (typeof body?.email === 'string') body.email = body.email.trim()
  const origin = request.headers.origin
  if (origin === undefined) return
  let host: string
  try {
    host = new URL(origin).host
  } catch {
    throw forbidden('cross-site request refused')
  }
  if (host !== request.host) throw forbidden('cross-site request refused')
}

interface SessionOptions { auth: AuthService, recovery: RecoveryService, refreshTokenTtlDays: number }

export const sessionRoutes: FastifyPluginAsyncTypebox<SessionOptions> = async (app, { auth, recovery, refreshTokenTtlDays }) => {
  const maxAge = refreshTokenTtlDays * 86400
  const csrfMessages = { [CSRF_HEADER]: `header ${CSRF_HEADER}: 1 is required` }
  const common = { headers: CsrfHeaders, response: { 200: SessionResponse, ...errors(400, 401, 403) } }
  // Registered here, so cookies are read and written for these routes only: no other route uses one.
  await app.register(cookie)

  const start = (request: FastifyRequest, reply: FastifyReply, result: AuthResponse) => {
    const { refresh_token: refresh, ...session } = result
    setRefreshCookie(reply, refresh, maxAge)
    return session
  }

  app.post('/session', {
    schema: { tags, summary: 'Sign in (web app): like /auth/login, the refresh token set as an httpOnly cookie', body: LoginRequest, ...common },
    config: { auth: 'none', extension: true, messages: { ...csrfMessages, ...emailMessages, 'password:required': 'password is required', 'password:minLength': 'password is required' } },
    preValidation: csrfChecks,
  }, async (request, reply) => start(request, reply, await auth.login(request.body)))

  app.post('/session/register', {
    schema: {
      tags,
      summary: 'Create an account and sign in (web app): like /auth/register, the refresh token set as an httpOnly cookie',
      body: RegisterRequest,
      headers: CsrfHeaders,
      response: { 201: SessionResponse, ...errors(400, 403) },
    },
    config: {
      auth: 'none',
      extension: true,
      messages: { ...csrfMessages, ...emailMessages, ...NAME_MESSAGES, phone: 'invalid phone', latitude: 'invalid latitude', longitude: 'invalid longitude', locale: 'invalid locale' },
    },
    preValidation: csrfChecks,
  }, async (request, reply) => {
    const session = start(request, reply, await auth.register(request.body))
    return reply.code(201).send(session)
  })

  app.post('/session/refresh', {
    schema: {
      tags,
      summary: 'New access token from the session cookie (web app); the cookie is rotated',
      description: 'Single use, like /auth/refresh: a cookie presented twice revokes every refresh token of its user. ' +
        'Without the cookie the answer is 204, no body: signed out is an answer, not an error, so that every signed-out ' +
        'page load does not log a failed request. A spent or revoked cookie is 401 and is cleared.',
      headers: CsrfHeaders,
      response: { 200: SessionResponse, 204: SignedOut, ...errors(400, 401, 403) },
    },
    config: { auth: 'none', extension: true, messages: csrfMessages },
    preValidation: csrfChecks,
  }, async (request, reply) => {
    const token = request.cookies[REFRESH_COOKIE]
    if (token === undefined || token === '') {
      reply.header('cache-control', 'no-store')
      return reply.code(204).send(null)
    }
    try {
      return start(request, reply, await auth.refresh(token))
    } catch (error) {
      // A dead cookie is forgotten with the refusal, so the next page load asks without one (204, nothing logged).
      if (error instanceof AppError && error.status === 401) setRefreshCookie(reply, '', 0)
      throw error
    }
  })

  // docs/api/accounts.md › Web app sessions: signing out ends this device's session; the other devices stay
  // signed in unless the person chooses to sign out everywhere (a shared computer, a lost phone).
  const signOuts = [
    {
      path: '/session/logout',
      summary: 'Sign out this device (web app): revokes the refresh token in the cookie and clears the cookie',
      description: 'Other devices stay signed in. The access token the app holds is forgotten by the app; it ends by itself at its expiry.',
      end: (request: FastifyRequest & { user: { id: number } }) => auth.logoutDevice(request.user.id, request.cookies[REFRESH_COOKIE]),
    },
    {
      path: '/session/logout-everywhere',
      summary: 'Sign out everywhere (web app): revokes every refresh token of the caller and clears the cookie',
      description: 'As POST /auth/logout: no device can renew its session; access tokens already issued end at their expiry.',
      end: (request: FastifyRequest & { user: { id: number } }) => auth.logout(request.user.id),
    },
  ]
  for (const { path, summary, description, end } of signOuts) {
    app.post(path, {
      schema: { tags, summary, description, headers: CsrfHeaders, response: { 200: Message, ...errors(401, 403, 500) } },
      config: { auth: 'user', extension: true, failure: 'failed to logout', messages: csrfMessages },
      preValidation: csrfChecks,
    }, async (request, reply) => {
      await end(request)
      setRefreshCookie(reply, '', 0)
      return { message: 'logged out' }
    })
  }

  // docs/api/accounts.md › Getting back in for the web app: the steps that sign in answer as /session does, the refresh token in the cookie.
  app.post('/session/password-reset/confirm', {
    schema: { tags, summary: 'Set a new password with the code and sign in (web app): like /auth/password-reset/confirm, with the session cookie', body: PasswordResetConfirm, ...common },
    config: { auth: 'none', extension: true, messages: { ...csrfMessages, ...emailMessages, ...CODE_MESSAGES } },
    preValidation: csrfChecks,
  }, async (request, reply) => start(request, reply, await recovery.resetPassword(request.body)))

  app.post('/session/code/confirm', {
    schema: { tags, summary: 'Sign in with the code (web app): like /auth/code/confirm, with the session cookie', body: CodeSignIn, ...common },
    config: { auth: 'none', extension: true, messages: { ...csrfMessages, ...emailMessages, ...CODE_MESSAGES } },
    preValidation: csrfChecks,
  }, async (request, reply) => start(request, reply, await recovery.signInWithCode(request.body)))

  app.post('/session/password', {
    schema: {
      tags,
      summary: 'Change own password (web app): like /users/me/password; the session goes on with a new cookie',
      body: ChangePassword,
      ...common,
    },
    config: { auth: 'user', extension: true, messages: { ...csrfMessages, ...CODE_MESSAGES } },
    preValidation: csrfChecks,
  }, async (request, reply) => start(request, reply, await recovery.changePassword(request.user, request.body)))
}
