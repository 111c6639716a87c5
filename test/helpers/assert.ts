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

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
