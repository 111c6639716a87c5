import { randomBytes, timingSafeEqual } from 'node:crypto'
import { AppError } from './errors.js'
import { HashPool, HashQueueFull } from './hash-pool.js'

/** The cost parameters of scrypt (config.ts SCRYPT_* settings); declared here so lib/ imports nothing outside lib/. */
export interface ScryptParams { N: number, r: number, p: number }

/**
 * How long a password check may wait for a hashing thread before it is refused with 429 and `Retry-After`
 * (docs/api/accounts.md › A burst of sign-ups): a burst then says "try again shortly" instead of timing out.
 * Unset: it waits as long as it takes (scripts, the first admin).
 */
export interface HashAdmission { maxWaitMs?: number }

const KEY_LENGTH = 32

const pool = new HashPool()

// Derived in low-priority worker threads, never on the event loop's thread (docs/api/accounts.md › Tokens),
// and never at the expense of serving other requests (see HashPool).
async function derive (password: string, salt: Buffer, { N, r, p }: ScryptParams, { maxWaitMs }: HashAdmission): Promise<Buffer> {
  try {
    return await pool.derive({ password: password.normalize('NFKC'), salt, keyLength: KEY_LENGTH, N, r, p, maxmem: 256 * N * r + 1024 * 1024 }, maxWaitMs)
  } catch (error) {
    if (error instanceof HashQueueFull) throw new AppError(429, 'too many requests, try again later', { 'retry-after': String(Math.max(1, Math.ceil(error.waitMs / 1000))) })
    throw error
  }
}

/** `scrypt$N$r$p$salt$key`: the parameters travel with the hash, so they can be raised later. */
export async function hashPassword (password: string, params: ScryptParams, admission: HashAdmission = {}): Promise<string> {
  const salt = randomBytes(16)
  const key = await derive(password, salt, params, admission)
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

export async function verifyPassword (password: string, stored: string, admission: HashAdmission = {}): Promise<boolean> {
  const [scheme, N, r, p, salt, key] = stored.split('$')
  if (scheme !== 'scrypt' || salt === undefined || key === undefined) return false
  const expected = Buffer.from(key, 'base64url')
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(N), r: Number(r), p: Number(p) }, admission)
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

/**
 * A hash of a random password. Login verifies against it when the e-mail is unknown, so that an
 * unknown e-mail costs as much time as a wrong password and timing does not reveal who has an account.
 */
export function decoyHash (params: ScryptParams): Promise<string> {
  return hashPassword(randomBytes(16).toString('hex'), params)
}
