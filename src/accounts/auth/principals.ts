import type { Queryable } from '../../db/database.js'
import { systemClock, type Clock } from '../../lib/clock.js'
import type { Principal, PrincipalSource } from '../../lib/principal.js'
import { findPrincipal } from '../roles/roles.repo.js'

interface Entry { expires: number, value: Promise<Principal | undefined> }

const MAX_ENTRIES = 10_000

/**
 * Caches each user's roles and blocked flag for at most `ttlMs` (≤ 5 s), so that an access token costs
 * no database round trip on most requests, yet a block or a role change reaches every instance within
 * the TTL (docs/api/conventions.md: a blocked user's tokens stop working within 5 seconds on every instance).
 * Changes made through this instance are seen at once through `forget`.
 */
export class PrincipalCache implements PrincipalSource {
  readonly #entries = new Map<number, Entry>()

  constructor (private readonly db: Queryable, private readonly ttlMs: number, private readonly clock: Clock = systemClock) {}

  /** The user when they exist and are not blocked. */
  get (userId: number): Promise<Principal | undefined> {
    const hit = this.#entries.get(userId)
    if (hit !== undefined && hit.expires > this.clock.now().getTime()) return hit.value
    const value = this.#load(userId)
    if (this.ttlMs > 0) {
      if (this.#entries.size >= MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value as number)
      this.#entries.set(userId, { expires: this.clock.now().getTime() + this.ttlMs, value })
      // A failed load must not be remembered.
      value.catch(() => this.#entries.delete(userId))
    }
    return value
  }

  forget (userId: number): void {
    this.#entries.delete(userId)
  }

  async #load (userId: number): Promise<Principal | undefined> {
    const row = await findPrincipal(this.db, userId)
    if (row === undefined || row.is_blocked) return undefined
    return Object.freeze({ id: userId, roles: row.roles, permissions: row.permissions })
  }
}
