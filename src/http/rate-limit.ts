import { createHash } from 'node:crypto'
import rateLimit, { normalizeIP, type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import LocalStore from '@fastify/rate-limit/store/LocalStore.js'
import RedisStore from '@fastify/rate-limit/store/RedisStore.js'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Redis } from 'ioredis'
import { normaliseEmail } from '../lib/email.js'
import { AppError } from '../lib/errors.js'
import { API_PREFIX } from './prefix.js'

export interface RateLimits {
  windowSeconds: number
  /** Calls of the limited operations, together, per client address per window. */
  perAddress: number
  /** Calls per account (the e-mail in the body) per window. */
  perAccount: number
}

const TOO_MANY = 'too many requests, try again later'
/** Counters kept in process memory (also the fallback when Redis is down); old windows are dropped first. */
const MEMORY_KEYS = 100_000

/**
 * Each IPv6 address counts alone, as before the plugin (its default groups a /64); normalizeIP still
 * writes one address one way and counts an IPv4-mapped address as its IPv4 one.
 */
const IPV6_PREFIX = 128

type Callback = Parameters<FastifyRateLimitStore['incr']>[1]

/**
 * The plugin's Redis store (an atomic INCR and PEXPIRE script), with its memory store standing in when
 * Redis cannot be reached, so the limits still hold per instance rather than failing the request or
 * letting everything through. One store for every route, unlike the plugin's own per-route children:
 * the address budget is shared by login, register and refresh, so the keys name their rule instead.
 */
function sharedStore (redis: Redis | undefined, onRedisError: (error: unknown) => void): FastifyRateLimitStoreCtor {
  const memory = new LocalStore(false, false, MEMORY_KEYS)
  const shared = redis === undefined ? undefined : new RedisStore(false, false, redis, 'vcs:rl:')
  return class SharedStore implements FastifyRateLimitStore {
    incr (key: string, callback: Callback, timeWindow: number, max: number): void {
      if (shared === undefined) return memory.incr(key, callback, timeWindow, max)
      shared.incr(key, (error, result) => {
        if (error === null) return callback(null, result)
        onRedisError(error)
        memory.incr(key, callback, timeWindow, max)
      }, timeWindow, max)
    }

    child (): FastifyRateLimitStore { return this }
  }
}

/** Who a limited call is about, as a counter key; undefined: not counted per account. */
type AccountOf = (request: FastifyRequest) => string | undefined

/** The e-mail in the body (login, register), hashed so that Redis holds no addresses. */
const emailInBody: AccountOf = (request) => {
  const email = (request.body as { email?: unknown } | undefined)?.email
  return typeof email === 'string' ? createHash('sha256').update(normaliseEmail(email)).digest('base64url') : undefined
}

/**
 * The signed-in caller (erasure, whose password check is as open to guessing as a login), never the body:
 * an `email` field the route ignores would otherwise pick a fresh counter per call.
 */
const signedInCaller: AccountOf = (request) => request.user === null ? undefined : `user:${request.user.id}`

/**
 * The operations open to password guessing, code guessing, mailbox flooding and account farming, by method
 * and path; all but refresh also count per account.
 */
const LIMITED: Record<string, { name: string, account?: AccountOf }> = {
  [`POST ${API_PREFIX}/auth/login`]: { name: 'login', account: emailInBody },
  [`POST ${API_PREFIX}/auth/register`]: { name: 'register', account: emailInBody },
  [`POST ${API_PREFIX}/auth/refresh`]: { name: 'refresh' },
  // The web app's sessions (src/modules/session) count against the same limits.
  [`POST ${API_PREFIX}/session`]: { name: 'login', account: emailInBody },
  [`POST ${API_PREFIX}/session/register`]: { name: 'register', account: emailInBody },
  [`POST ${API_PREFIX}/session/refresh`]: { name: 'refresh' },
  // docs/privacy.md › Erasure: a stolen access token must not buy unlimited guesses at the password.
  [`DELETE ${API_PREFIX}/users/me`]: { name: 'erase', account: signedInCaller },
  // docs/api/accounts.md › Getting back in: asking for a code counts as a login, so it cannot flood a mailbox or probe for accounts;
  // trying one does too (five wrong tries void a code, and each new code costs a call).
  [`POST ${API_PREFIX}/auth/password-reset`]: { name: 'login', account: emailInBody },
  [`POST ${API_PREFIX}/auth/password-reset/confirm`]: { name: 'login', account: emailInBody },
  [`POST ${API_PREFIX}/auth/code`]: { name: 'login', account: emailInBody },
  [`POST ${API_PREFIX}/auth/code/confirm`]: { name: 'login', account: emailInBody },
  [`POST ${API_PREFIX}/session/password-reset/confirm`]: { name: 'login', account: emailInBody },
  [`POST ${API_PREFIX}/session/code/confirm`]: { name: 'login', account: emailInBody },
  // Confirming the address by code (EMAIL_VERIFICATION=code) shares resending's budget: each resend
  // gives a fresh code five tries, so without this a caller could guess far faster than at login.
  [`POST ${API_PREFIX}/users/me/verify-email`]: { name: 'login', account: signedInCaller },
  [`POST ${API_PREFIX}/users/me/verify-email/resend`]: { name: 'login', account: signedInCaller },
  // docs/api/messaging.md › Texts: confirming the phone by a texted code, as the e-mail's (each ask also costs a text).
  [`POST ${API_PREFIX}/users/me/phone/verify`]: { name: 'login', account: signedInCaller },
  [`POST ${API_PREFIX}/users/me/phone/verify/confirm`]: { name: 'login', account: signedInCaller },
  // As erasure: a stolen access token must not buy unlimited guesses at the current password.
  [`POST ${API_PREFIX}/users/me/password`]: { name: 'password', account: signedInCaller },
  [`POST ${API_PREFIX}/session/password`]: { name: 'password', account: signedInCaller },
}

const limitOf = (method: string | string[], url: string | undefined) => typeof method === 'string' ? LIMITED[`${method} ${url}`] : undefined

/** Whether registerRateLimits limits this operation (so the OpenAPI document declares its 429). */
export const isRateLimited = (method: string | string[], url: string | undefined): boolean => limitOf(method, url) !== undefined

/**
 * Limits through @fastify/rate-limit, counted in preHandler (after validation, so the account is known);
 * refused calls count too. A refusal is an AppError, so the one error handler writes its body; the plugin
 * adds only `Retry-After`. Call before the routes are added.
 *
 * A limited route has two limits, per address then per account, and the plugin applies one per request:
 * a route's `config.rateLimit` is a single limit, and the plugin's handlers skip a request that one of them
 * has already counted, so a second `fastify.rateLimit()` handler on the route would never count. So the
 * per-account limit is the route's `config.rateLimit` (the plugin adds it as the route's last preHandler),
 * and the per-address one is counted by the plugin's `createRateLimit` in an application preHandler hook,
 * which Fastify runs before any route-level one: the address is counted first, so a call refused by its
 * address spends nothing of its account's budget (as when both were route hooks).
 */
export async function registerRateLimits (app: FastifyInstance, limits: RateLimits, redisUrl: string | undefined): Promise<void> {
  const redis = redisUrl === undefined
    ? undefined
    : new Redis(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000 })
  // Reported once per failed count (below), not once per reconnect attempt.
  redis?.on('error', () => {})
  app.addHook('onClose', async () => { redis?.disconnect() })
  const Store = sharedStore(redis, (error) => app.log.warn({ err: error }, 'rate limit store unavailable: counting in memory'))

  // Per account: the route's config (from the table above) before the plugin, whose own onRoute hook reads it.
  // The operations of one name count together; a call about no account is not counted. The name is in the
  // key rather than the plugin's groupId, which would also be appended to the address key below and split
  // the one address budget by operation.
  app.addHook('onRoute', (route) => {
    const { name, account } = limitOf(route.method, route.url) ?? {}
    if (account === undefined) return
    route.config = {
      ...route.config,
      rateLimit: { keyGenerator: (request) => `${name}:account:${account(request)}`, allowList: (request) => account(request) === undefined },
    }
  })
  await app.register(rateLimit, {
    global: false,
    hook: 'preHandler',
    max: limits.perAccount,
    timeWindow: limits.windowSeconds * 1000,
    store: Store,
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    addHeaders: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false, 'retry-after': true },
    errorResponseBuilder: () => new AppError(429, TOO_MANY),
  })

  // Per address: one budget for every limited operation together.
  const byAddress = app.createRateLimit({ max: limits.perAddress, keyGenerator: (request) => `auth:ip:${normalizeIP(request.ip, IPV6_PREFIX)}` })
  app.addHook('preHandler', async (request, reply) => {
    if (limitOf(request.method, request.routeOptions.url) === undefined) return
    const result = await byAddress(request)
    if (result.isAllowed || !result.isExceeded) return
    reply.header('retry-after', String(Math.max(1, result.ttlInSeconds)))
    throw new AppError(429, TOO_MANY)
  })
}
