import type { Queryable } from '../../db/database.js'
import type { Clock } from '../../lib/clock.js'
import { renewLeases } from './deliveries.repo.js'

/** How often, in real time, the loop looks whether its leases are due for renewal (a third of the lease by the clock). */
const RENEW_CHECK_MS = 250

/** What a row's lease says now: still this run's with time to spare, this run's but too short to start a send, or lost. */
export type LeaseState = 'held' | 'short' | 'lost'

/**
 * The leases of the rows one run of the sending loop holds, from its claim until its outcome is written.
 * While any is held they are renewed every third of the lease (by the clock), so a live sender keeps its
 * rows however slow its server, and a dead one's rows are free for another instance when the lease ends.
 * A renewal changes only a row still under the lease this run gave it (pending, same try, same `due_at`):
 * a row taken over, recorded or erased is left alone and is `lost` here.
 */
export class HeldLeases {
  readonly #held = new Map<number, { attempt: number, until: Date }>()
  #renewedAt: number
  #renewing: Promise<void> | undefined
  readonly #timer: NodeJS.Timeout

  constructor (
    private readonly db: Queryable,
    private readonly clock: Clock,
    private readonly leaseMs: number,
    private readonly log: { warn (fields: Record<string, unknown>, message: string): void }
  ) {
    this.#renewedAt = clock.now().getTime()
    this.#timer = setInterval(() => { this.#renewIfDue() }, RENEW_CHECK_MS)
    this.#timer.unref()
  }

  /** Rows just claimed with their lease, `until`. */
  hold (rows: ReadonlyArray<{ id: number, attempts: number }>, until: Date): void {
    for (const row of rows) this.#held.set(row.id, { attempt: row.attempts, until })
  }

  /** A send is started only with at least half the lease left, so it cannot outlast an unrenewed lease by much. */
  state (id: number): LeaseState {
    const lease = this.#held.get(id)
    if (lease === undefined) return 'lost'
    return lease.until.getTime() - this.clock.now().getTime() >= this.leaseMs / 2 ? 'held' : 'short'
  }

  /** The row's outcome is written (or it was lost): no more renewals for it. */
  release (id: number): void {
    this.#held.delete(id)
  }

  /** Stops renewing, once the run's last outcome is written. */
  async stop (): Promise<void> {
    clearInterval(this.#timer)
    await this.#renewing
  }

  #renewIfDue (): void {
    const now = this.clock.now().getTime()
    if (this.#renewing !== undefined || this.#held.size === 0 || now - this.#renewedAt < this.leaseMs / 3) return
    this.#renewing = this.#renew(now).finally(() => { this.#renewing = undefined })
  }

  async #renew (now: number): Promise<void> {
    const until = new Date(now + this.leaseMs)
    const leases = [...this.#held].map(([id, lease]) => ({ id, ...lease }))
    try {
      const renewed = new Set(await renewLeases(this.db, leases, until))
      this.#renewedAt = now
      for (const lease of leases) {
        if (this.#held.get(lease.id)?.until !== lease.until) continue
        if (renewed.has(lease.id)) this.#held.set(lease.id, { attempt: lease.attempt, until })
        else this.#held.delete(lease.id)
      }
    } catch (error) {
      // The leases run on: rows not started in time go back unsent (state 'short'), and the next check tries again.
      this.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'delivery leases not renewed')
    }
  }
}
