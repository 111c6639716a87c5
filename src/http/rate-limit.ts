import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { RateLimitStore } from '../lib/rate-limit.js'
import { API_PREFIX } from './openapi.js'

export interface RateLimits {
  windowSeconds: number
  /** Calls of the limited operations, together, per client address per window. */
  perAddress: number
  /** Calls per account (the e-mail in the body) per window. */
  perAccount: number
}

const accountOf = (request: FastifyRequest): string | undefined => {
  const email = (request.body as { email?: unknown } | undefined)?.email
  // Hashed so that the keys in Redis hold no e-mail addresses.
  return typeof email === 'string' ? createHash('sha256').update(email.trim().toLowerCase()).digest('base64url') : undefined
}

/**
 * The operations open to password guessing and account farming, and what a call counts against:
 * always the client address; for login and register, also the account.
 */
const LIMITED: Record<string, { name: string, account?: (request: FastifyRequest) => string | undefined }> = {
  [`${API_PREFIX}/auth/login`]: { name: 'login', account: accountOf },
  [`${API_PREFIX}/auth/register`]: { name: 'register', account: accountOf },
  [`${API_PREFIX}/auth/refresh`]: { name: 'refresh' },
  // The web app's sessions (src/modules/session) count against the same limits.
  [`${API_PREFIX}/session`]: { name: 'login', account: accountOf },
  [`${API_PREFIX}/session/register`]: { name: 'register', account: accountOf },
  [`${API_PREFIX}/session/refresh`]: { name: 'refresh' },
}

function refuse (reply: FastifyReply, resetMs: number): FastifyReply {
  return reply.code(429)
    .header('retry-after', String(Math.max(1, Math.ceil(resetMs / 1000))))
    .send({ error: 'too many requests, try again later' })
}

/** Counted after the body is validated, so the account is known; refused calls count too. */
export function registerRateLimits (app: FastifyInstance, store: RateLimitStore, limits: RateLimits): void {
  const windowMs = limits.windowSeconds * 1000
  app.addHook('preHandler', async (request, reply) => {
    const rule = LIMITED[request.routeOptions.url ?? '']
    if (rule === undefined) return
    const byAddress = await store.hit(`auth:ip:${request.ip}`, windowMs)
    if (byAddress.count > limits.perAddress) return refuse(reply, byAddress.resetMs)
    const account = rule.account?.(request)
    if (account !== undefined) {
      const byAccount = await store.hit(`${rule.name}:account:${account}`, windowMs)
      if (byAccount.count > limits.perAccount) return refuse(reply, byAccount.resetMs)
    }
  })
}
