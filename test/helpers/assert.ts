import assert from 'node:assert/strict'
import type { Response } from './app.js'

/** The status and the exact `{"error": text}` body, nothing more. */
export function assertError (res: Response, status: number, error: string): void {
  assert.equal(res.status, status, `expected ${status} ${error}, got ${res.status} ${res.text}`)
  assert.deepEqual(res.body, { error })
}

/** A 2xx of exactly this status, with the body shown when it is not. */
export function assertStatus (res: Response, status: number): void {
  assert.equal(res.status, status, `expected ${status}, got ${res.status} ${res.text}`)
}

/** An ISO 8601 UTC time as the API writes one: `2027-03-15T09:00:00.000Z`, the fraction optional. */
export const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Polls `get` until it gives something other than false or undefined, and returns that; fails after `ms`.
 * For what another task (a ticker, a second instance) does in its own time.
 */
export async function eventually<T> (get: () => Promise<T | false | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await get()
    if (value !== false && value !== undefined) return value
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
