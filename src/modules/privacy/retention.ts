import type { Database } from '../../db/database.js'
import { gridPoint } from '../../lib/grid.js'
import * as requests from '../requests/requests.repo.js'

/**
 * Background work of privacy.md and map.md that runs on every instance but must happen once:
 * recomputing stored grid points when MAP_GRID_METERS changed, and minimising finished requests
 * after RETENTION_DAYS. Both work in short transactions of one batch each, so a process killed
 * mid-run loses at most its open batch (rolled back) and the next run carries on.
 */

/** Advisory lock keys; any constants work as long as every instance uses the same ones. */
const GRID_LOCK_KEY = 7_301_940_227
const RETENTION_LOCK_KEY = 7_301_940_228

const GRID_BATCH = 1000
export const RETENTION_BATCH = 200
const HOUR_MS = 3_600_000

export interface JobLog {
  info (fields: Record<string, unknown>, message: string): void
  error (fields: Record<string, unknown>, message: string): void
}

const toGrid = (rows: ReadonlyArray<{ id: number, latitude: number, longitude: number }>, gridMeters: number): requests.GridUpdate[] =>
  rows.map((row) => ({ id: row.id, ...gridPoint(row.latitude, row.longitude, gridMeters) }))

/**
 * Stores the grid point of every request whose stored one was computed for another grid size, or never
 * (rows written before migration 0010, or by SQL outside the service). Runs at start-up, before the
 * instance serves, so grid searches and `location` never use points of an old grid. Instances starting
 * together take turns (advisory lock per batch); the second finds nothing left. Returns how many rows.
 */
export async function refreshGridPoints (db: Database, gridMeters: number): Promise<number> {
  let total = 0
  for (;;) {
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [GRID_LOCK_KEY])
      const stale = await requests.findStaleGridPoints(tx, gridMeters, GRID_BATCH)
      if (stale.length > 0) await requests.storeGridPoints(tx, toGrid(stale, gridMeters), gridMeters)
      return stale.length
    })
    total += done
    if (done < GRID_BATCH) return total
  }
}

export interface RetentionSettings {
  retentionDays: number
  mapGridMeters: number
  batchSize?: number
}

/**
 * privacy.md §2: requests finished more than RETENTION_DAYS ago lose their contact data, address,
 * description and exact point. One batch per transaction; each batch first takes a transaction-level
 * advisory lock without waiting: if another instance holds it, that instance is running the job, so this
 * one stops and leaves the rest to it. Rows are also taken FOR UPDATE SKIP LOCKED and minimised only
 * if not minimised yet, so even without the lock no row is minimised twice.
 */
export class RetentionJob {
  #timer: NodeJS.Timeout | undefined
  #running: Promise<number> | undefined

  constructor (private readonly db: Database, private readonly settings: RetentionSettings, private readonly log: JobLog) {}

  /** One run: minimises everything due, unless another instance is at it. Returns how many this run minimised. */
  async runOnce (): Promise<number> {
    const batchSize = this.settings.batchSize ?? RETENTION_BATCH
    let total = 0
    let yielded = false
    for (;;) {
      const done = await this.db.transaction(async (tx) => {
        const [lock] = await tx.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [RETENTION_LOCK_KEY])
        if (lock?.locked !== true) return undefined
        const due = await requests.lockExpiredRequests(tx, this.settings.retentionDays, batchSize)
        return { taken: due.length, minimised: await requests.minimiseRequests(tx, toGrid(due, this.settings.mapGridMeters), this.settings.mapGridMeters) }
      })
      if (done === undefined) {
        yielded = true
        break
      }
      total += done.minimised
      if (done.taken < batchSize) break
    }
    this.log.info({ minimised: total, retentionDays: this.settings.retentionDays, ...(yielded ? { yieldedToAnotherInstance: true } : {}) },
      `retention: minimised ${total} finished requests`)
    return total
  }

  /** Runs now, then every hour; a run still going when the next is due is not doubled. */
  start (): void {
    if (this.#timer !== undefined) return
    this.#tick()
    this.#timer = setInterval(() => this.#tick(), HOUR_MS)
    this.#timer.unref()
  }

  /** Stops the timer and waits for a run under way, so the database is not closed beneath it. */
  async stop (): Promise<void> {
    clearInterval(this.#timer)
    this.#timer = undefined
    await this.#running?.catch(() => {})
  }

  #tick (): void {
    if (this.#running !== undefined) return
    this.#running = this.runOnce()
      .catch((error: unknown) => {
        this.log.error({ err: error }, 'retention: run failed; the next run continues where it stopped')
        return 0
      })
      .finally(() => { this.#running = undefined })
  }
}
