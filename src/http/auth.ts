import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ADMIN_ROLE_REQUIRED, forbidden, MODERATOR_ROLE_REQUIRED, unauthorized } from '../lib/errors.js'
import type { AccessTokens } from '../lib/tokens.js'
import { hasPermission, isModerator, type Principal, type PrincipalSource } from '../lib/principal.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller; set on every route whose `auth` is not 'none'. */
    user: Principal
    /** When the caller's access token expires (epoch ms); set with `user`. */
    accessExpiresAt: number
  }
}

function bearerToken (request: FastifyRequest): string | undefined {
  const header = request.headers.authorization
  if (header === undefined) return undefined
  const match = /^Bearer ([A-Za-z0-9_.~+/=-]+)$/i.exec(header.trim())
  return match?.[1]
}

/**
 * Authenticates before the body is read: a bearer JWT whose user exists and is not blocked.
 * Then the route's level: 'mod' needs role moderator or admin, 'admin' needs permission manage_users.
 */
export function registerAuth (app: FastifyInstance, tokens: AccessTokens, principals: PrincipalSource): void {
  app.decorateRequest('user', null as unknown as Principal)
  app.decorateRequest('accessExpiresAt', 0)
  app.addHook('onRequest', async (request) => {
    const level = request.routeOptions.config.auth ?? 'none'
    if (level === 'none') return
    const token = bearerToken(request)
    const claims = token === undefined ? undefined : tokens.verify(token)
    const user = claims === undefined ? undefined : await principals.get(claims.userId)
    if (level === 'optional') {
      // A public answer that a signed-in caller gets in their own way (GET /needs in their locale): no token is no error.
      if (user !== undefined) request.user = user
      return
    }
    if (user === undefined || claims === undefined) throw unauthorized()
    if (level === 'mod' && !isModerator(user)) throw forbidden(MODERATOR_ROLE_REQUIRED)
    if (level === 'admin' && !hasPermission(user, 'manage_users')) throw forbidden(ADMIN_ROLE_REQUIRED)
    request.user = user
    request.accessExpiresAt = claims.expiresAt
  })
}
