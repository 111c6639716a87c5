import { createHash, randomBytes } from 'node:crypto'
import { createSigner, createVerifier } from 'fast-jwt'
import { systemClock, type Clock } from './clock.js'

export interface AccessClaims {
  /** The user id. */
  userId: number
  /** When the token stops being valid, in epoch milliseconds (a live event stream ends then). */
  expiresAt: number
}

export interface AccessTokens {
  sign(userId: number): string
  /** The claims of a valid token, or undefined for any invalid, expired or foreign token. */
  verify(token: string): AccessClaims | undefined
  readonly ttlSeconds: number
}

const ISSUER = 'volunteer-coordination-service'

/**
 * HS256 JWTs. Only HS256 is accepted, so `alg: none` and algorithm-confusion tokens are refused.
 * Issued and expired by `clock`: fast-jwt's own clock (clockTimestamp) is fixed when the verifier is made,
 * so the expiry is checked here, as fast-jwt does it (valid up to and including the second of `exp`).
 */
export function accessTokens (secret: string, ttlSeconds: number, clock: Clock = systemClock): AccessTokens {
  const signer = createSigner({ key: secret, algorithm: 'HS256', expiresIn: ttlSeconds * 1000, iss: ISSUER })
  // allowedIss alone lets a token with no `iss` through, and a token with no `exp` would never expire.
  const verifier = createVerifier({ key: secret, algorithms: ['HS256'], allowedIss: ISSUER, requiredClaims: ['iss', 'sub', 'exp'], ignoreExpiration: true, cache: 1000 })
  return {
    ttlSeconds,
    sign: (userId) => signer({ sub: String(userId), iat: Math.floor(clock.now().getTime() / 1000) }),
    verify (token) {
      let payload: { sub?: unknown, exp?: unknown }
      try {
        payload = verifier(token)
      } catch {
        return undefined
      }
      if (typeof payload.exp !== 'number' || clock.now().getTime() > payload.exp * 1000) return undefined
      const sub = typeof payload.sub === 'string' && /^[1-9]\d{0,15}$/.test(payload.sub) ? Number(payload.sub) : NaN
      return Number.isSafeInteger(sub) ? { userId: sub, expiresAt: payload.exp * 1000 } : undefined
    },
  }
}

/** An opaque refresh token: 256 random bits. */
export function newRefreshToken (): string {
  return randomBytes(32).toString('base64url')
}

/** Refresh tokens are stored only as this hash; the token itself has 256 bits, so no salt or KDF is needed. */
export function hashRefreshToken (token: string): string {
  return createHash('sha256').update(token).digest('base64url')
}

export function newSecret (): string {
  return randomBytes(48).toString('base64url')
}
