import type { Database, Queryable } from '../../db/database.js'
import { whenUnclaimed } from '../../jobs/claim.js'
import type { Job } from '../../jobs/job.js'
import { systemClock, type Clock } from '../../lib/clock.js'
import { sql } from '../../db/sql.js'
import { gridPoint } from '../../lib/grid.js'
import { deleteClient, lockIdleClients } from '../../on-behalf/clients/clients.repo.js'
import { deleteOldNotifications } from '../../messaging/notifications/notifications.repo.js'
import { deleteOldTexts } from '../../messaging/sms/sms-inbox.repo.js'
import * as requests from '../../help/requests/retention.repo.js'
import { lockFinishedSeries, minimiseSeries } from '../../regular-help/series/series.repo.js'

/**
 * Background work of docs/privacy.md that runs on every instance but must happen once:
 * recomputing stored grid points when MAP_GRID_METERS changed, minimising finished requests (and series) after
 * RETENTION_DAYS, deleting notifications and the texts inbox after NOTIFICATION_RETENTION_DAYS, and erasing client records idle
 * for CLIENT_RETENTION_DAYS. All work in short transactions of one batch each, so a process killed
 * mid-run loses at most its open batch (rolled back) and the next run carries on. Retention runs at
 * start-up and hourly in every process (src/jobs/ runs it: retentionJob below).
 */

/** Advisory lock keys; any constants work as long as every instance uses the same ones. */
const GRID_LOCK_KEY = 7_301_940_227
const RETENTION_LOCK_KEY = 7_301_940_228

const GRID_BATCH = 1000
export const RETENTION_BATCH = 200

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
      await tx.query(sql`SELECT pg_advisory_xact_lock(${GRID_LOCK_KEY})`)
      const stale = await requests.findStaleGridPoints(tx, gridMeters, GRID_BATCH)
      if (stale.length > 0) await requests.storeGridPoints(tx, toGrid(stale, gridMeters), gridMeters)
      return stale.length
    })
    total += done
    if (done < GRID_BATCH) return total
  }
}

export interface RetentionSettings {
  /** 0: requests are kept as they are. */
  retentionDays: number
  /** 0: notifications are kept; otherwise those older are deleted (docs/api/messaging.md › Notifications: after at least 90 days). */
  notificationRetentionDays?: number
  /** 0: coordinators' client records are kept; otherwise a client idle for longer is erased as DELETE /clients/{id} does. */
  clientRetentionDays?: number
  mapGridMeters: number
  batchSize?: number
}

/** Notifications are small rows: deleted a thousand at a time. */
const NOTIFICATION_BATCH = 1000

/**
 * docs/privacy.md › `RETENTION_DAYS`: requests finished more than RETENTION_DAYS ago lose their contact data, address,
 * description and exact point; and notifications and inbox texts older than NOTIFICATION_RETENTION_DAYS are deleted.
 * One batch per transaction; each batch is claimed once across instances (whenUnclaimed): if another
 * instance is running the job, this one stops and leaves the rest to it. Rows are also taken FOR UPDATE
 * SKIP LOCKED and minimised only if not minimised yet, so even without the lock no row is minimised twice.
 * The cut-offs are `clock`'s time less the retention days.
 */
export class RetentionJob {
  constructor (private readonly db: Database, private readonly settings: RetentionSettings, private readonly log: JobLog, private readonly clock: Clock = systemClock) {}

  /** Whether there is anything for the job to do with these settings. */
  get enabled (): boolean {
    return this.settings.retentionDays > 0 || (this.settings.notificationRetentionDays ?? 0) > 0 || (this.settings.clientRetentionDays ?? 0) > 0
  }

  /** One run: does everything due, unless another instance is at it. Returns how many requests this run minimised. */
  async runOnce (): Promise<number> {
    const { retentionDays, notificationRetentionDays = 0, clientRetentionDays = 0, mapGridMeters } = this.settings
    const now = this.clock.now()
    const batchSize = this.settings.batchSize ?? RETENTION_BATCH
    const minimised = retentionDays === 0
      ? { total: 0, yielded: false }
      : await this.#inBatches(batchSize, async (tx) => {
        const due = await requests.lockExpiredRequests(tx, retentionDays, batchSize, now)
        return { taken: due.length, done: await requests.minimiseRequests(tx, toGrid(due, mapGridMeters), mapGridMeters) }
      })
    // Then finished series' templates (docs/api/schedule.md › Series), which hold what a request does.
    if (retentionDays > 0 && !minimised.yielded) {
      await this.#inBatches(batchSize, async (tx) => {
        const due = await lockFinishedSeries(tx, retentionDays, batchSize, now)
        return { taken: due.length, done: await minimiseSeries(tx, toGrid(due, mapGridMeters), requests.REMOVED) }
      })
    }
    if (retentionDays > 0) {
      this.log.info({ minimised: minimised.total, retentionDays, ...(minimised.yielded ? { yieldedToAnotherInstance: true } : {}) },
        `retention: minimised ${minimised.total} finished requests`)
    }
    if (notificationRetentionDays > 0 && !minimised.yielded) {
      const deleted = await this.#inBatches(NOTIFICATION_BATCH, async (tx) => {
        const count = await deleteOldNotifications(tx, notificationRetentionDays, NOTIFICATION_BATCH, now)
        return { taken: count, done: count }
      })
      this.log.info({ deleted: deleted.total, notificationRetentionDays, ...(deleted.yielded ? { yieldedToAnotherInstance: true } : {}) },
        `retention: deleted ${deleted.total} old notifications`)
      // The texts inbox (docs/api/messaging.md › Texts › The inbox) is kept as long as the notifications.
      if (!deleted.yielded) {
        const texts = await this.#inBatches(NOTIFICATION_BATCH, async (tx) => {
          const count = await deleteOldTexts(tx, notificationRetentionDays, NOTIFICATION_BATCH, now)
          return { taken: count, done: count }
        })
        this.log.info({ deleted: texts.total, notificationRetentionDays, ...(texts.yielded ? { yieldedToAnotherInstance: true } : {}) },
          `retention: deleted ${texts.total} old texts of the inbox`)
      }
    }
    if (clientRetentionDays > 0 && !minimised.yielded) {
      // As DELETE /clients/{id}: their finished requests minimised, the record deleted; nothing of theirs is under way.
      const erased = await this.#inBatches(batchSize, async (tx) => {
        const idle = await lockIdleClients(tx, clientRetentionDays, batchSize, now)
        for (const { id } of idle) {
          await requests.minimiseFinishedRequestsOf(tx, { clientId: id }, mapGridMeters)
          await deleteClient(tx, id)
        }
        return { taken: idle.length, done: idle.length }
      })
      this.log.info({ erased: erased.total, clientRetentionDays, ...(erased.yielded ? { yieldedToAnotherInstance: true } : {}) },
        `retention: erased ${erased.total} idle client records`)
    }
    return minimised.total
  }

  /** Runs `batch` in transactions, each claimed for this instance, until a batch takes fewer than `size` rows, or another instance has the claim. */
  async #inBatches (size: number, batch: (tx: Queryable) => Promise<{ taken: number, done: number }>): Promise<{ total: number, yielded: boolean }> {
    let total = 0
    for (;;) {
      const result = await whenUnclaimed(this.db, RETENTION_LOCK_KEY, batch)
      if (result === undefined) return { total, yielded: true }
      total += result.value.done
      if (result.value.taken < size) return { total, yielded: false }
    }
  }
}

/** The retention job for the runner (src/jobs/): at start-up, then every `intervalMs` (hourly in the service). */
export function retentionJob (retention: RetentionJob, intervalMs: number): Job {
  return {
    name: 'retention',
    intervalMs,
    async run () {
      await retention.runOnce()
      return undefined
    },
  }
}
