import { randomBytes, timingSafeEqual } from 'node:crypto'
import { HashPool } from './hash-pool.js'

/** The cost parameters of scrypt (config.ts SCRYPT_* settings); declared here so lib/ imports nothing outside lib/. */
export interface ScryptParams { N: number, r: number, p: number }

const KEY_LENGTH = 32

const pool = new HashPool()

// Derived in low-priority worker threads, never on the event loop's thread (docs/api/accounts.md › Tokens),
// and never at the expense of serving other requests (see HashPool).
function derive (password: string, salt: Buffer, { N, r, p }: ScryptParams): Promise<Buffer> {
  return pool.derive({ password: password.normalize('NFKC'), salt, keyLength: KEY_LENGTH, N, r, p, maxmem: 256 * N * r + 1024 * 1024 })
}

/** `scrypt$N$r$p$salt$key`: the parameters travel with the hash, so they can be raised later. */
export async function hashPassword (password: string, params: ScryptParams): Promise<string> {
  const salt = randomBytes(16)
  const key = await derive(password, salt, params)
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

export async function verifyPassword (password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, key] = stored.split('$')
  if (scheme !== 'scrypt' || salt === undefined || key === undefined) return false
  const expected = Buffer.from(key, 'base64url')
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(N), r: Number(r), p: Number(p) })
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

/**
 * A hash of a random password. Login verifies against it when the e-mail is unknown, so that an
 * unknown e-mail costs as much time as a wrong password and timing does not reveal who has an account.
 */
export function decoyHash (params: ScryptParams): Promise<string> {
  return hashPassword(randomBytes(16).toString('hex'), params)
}
