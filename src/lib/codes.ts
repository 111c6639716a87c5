import { createHmac, hkdfSync, randomInt, timingSafeEqual } from 'node:crypto'

/** What a code of docs/api/accounts.md › Getting back in is for; one live code per person and purpose (auth_codes' key). */
export type CodePurpose = 'password_reset' | 'sign_in' | 'verify_email' | 'verify_phone'

/** docs/api/accounts.md › Getting back in: valid 30 minutes, void after five wrong tries. */
export const CODE_TTL_MS = 30 * 60 * 1000
export const CODE_MAX_WRONG_TRIES = 5

const CODE_PATTERN = /^\d{6}$/

/** Six digits, uniformly drawn (crypto.randomInt has no modulo bias), leading zeros kept. */
export function newCode (): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0')
}

/**
 * A code as a person may type or paste it: spaces and dashes between the digits are dropped
 * ("123 456"); anything that is not then six digits is simply a wrong code.
 */
export function normaliseCode (typed: string): string {
  return typed.replace(/[\s-]/g, '')
}

export interface CodeHasher {
  hash (userId: number, purpose: CodePurpose, code: string): string
  /** Whether `code` is the one `stored` was made from, compared in constant time. */
  matches (stored: string, userId: number, purpose: CodePurpose, code: string): boolean
}

/**
 * Codes are stored only as HMAC-SHA-256 under a key derived from the signing secret: a million codes
 * are quickly tried against a plain hash, but not without the key, which is never in the database.
 * The user and purpose are in the MAC, so a hash copied to another row matches nothing there.
 */
export function codeHasherFor (signingSecret: string): CodeHasher {
  const key = Buffer.from(hkdfSync('sha256', signingSecret, 'vcs', 'auth codes v1', 32))
  const mac = (userId: number, purpose: CodePurpose, code: string) =>
    createHmac('sha256', key).update(`${userId}:${purpose}:${code}`).digest()
  return {
    hash: (userId, purpose, code) => mac(userId, purpose, code).toString('base64url'),
    matches (stored, userId, purpose, code) {
      // The MAC is computed whatever the input looks like, so a malformed code takes as long as a wrong one.
      const actual = mac(userId, purpose, code)
      const expected = Buffer.from(stored, 'base64url')
      return expected.length === actual.length && timingSafeEqual(actual, expected) && CODE_PATTERN.test(code)
    },
  }
}
