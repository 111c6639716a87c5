import type { Transaction } from '../../db/database.js'
import type { Change, Changes } from '../../events/dispatcher.js'
import { batchJob, runSteps } from '../../jobs/steps.js'
import { whenText } from '../../lib/when.js'
import { insertOverdueConcern, whoMaySee } from '../concerns/concerns.repo.js'
import * as visits from './visits.repo.js'

/** Visits per step and transaction: a full batch means more may be due, and the job runs again at once. */
const BATCH = 100

/**
 * A visit whose time is further back than this when the job first sees it (checks switched on, or the service down
 * for long) is not asked about: "has Jonas arrived?" about yesterday would only alarm.
 */
export const NOT_STARTED_STALE_HOURS = 24

export interface VisitJobSettings {
  startGraceMinutes: number
  overdueMinutes: number
  escalateMinutes: number
  /** TIME_ZONE: the concern's text names the times as the moderators read them. */
  timeZone: string
}

/** The service's concern text, naming the times (docs/api/visit-checks.md): moderators read it in the queue. */
export function overdueText (row: visits.Overdue, at: Date, timeZone: string): string {
  const when = (date: Date): string => whenText(new Date(date).toISOString(), 'en', timeZone) ?? new Date(date).toISOString()
  return `Visit not checked out: the volunteer checked in on ${when(row.checked_in_at)}, was asked on ${when(row.overdue_at)} ` +
    `whether they are all right, and had not checked out by ${when(at)} (${timeZone}).`
}

/**
 * The steps of docs/api/visit-checks.md, each one transaction on the app's clock that stamps the visits it claims
 * (visits.repo.ts: SKIP LOCKED, a stamp set only where null) with their notifications, history and concern: so each
 * happens once across instances, and a restart finds the stamps where the last run left them.
 */
export class VisitJobs {
  constructor (private readonly changes: Changes, private readonly settings: VisitJobSettings, private readonly batch = BATCH) {}

  /** One run of every step; the most visits one step handled (a full batch: run again at once). */
  async runOnce (): Promise<number> {
    return await runSteps(this.changes, [this.#notStarted, this.#overdue, this.#escalate].map((step) => step.bind(this)))
  }

  /** visit_not_started to the requester; the notification writer also tells a client's coordinators and the person's carers. */
  async #notStarted (tx: Transaction, change: Change): Promise<number> {
    const due = await visits.stampNotStarted(tx, change.at, this.settings.startGraceMinutes, NOT_STARTED_STALE_HOURS, this.batch)
    for (const visit of due) {
      const requestId = Number(visit.request_id)
      const volunteerId = Number(visit.volunteer_id)
      change.record({ type: 'visit_not_started', requestId, volunteerId })
      change.notify({
        userId: Number(visit.requester_id),
        type: 'visit_not_started',
        requestId,
        data: { volunteer_name: visit.volunteer_name, visit_at: new Date(visit.visit_at).toISOString() },
      })
    }
    return due.length
  }

  async #overdue (tx: Transaction, change: Change): Promise<number> {
    const due = await visits.stampOverdue(tx, change.at, this.settings.overdueMinutes, this.batch)
    for (const visit of due) {
      const requestId = Number(visit.request_id)
      const volunteerId = Number(visit.volunteer_id)
      change.record({ type: 'visit_overdue', requestId, volunteerId })
      change.notify({ userId: volunteerId, type: 'visit_overdue', requestId, data: { checked_in_at: new Date(visit.checked_in_at).toISOString() } })
    }
    return due.length
  }

  /** The urgent concern for moderators: `reporter_id` null, the volunteer its subject, once per visit (concerns_one_overdue too). */
  async #escalate (tx: Transaction, change: Change): Promise<number> {
    const due = await visits.stampEscalated(tx, change.at, this.settings.escalateMinutes, this.batch)
    for (const visit of due) {
      const requestId = Number(visit.request_id)
      const raised = await insertOverdueConcern(tx, {
        subjectUserId: Number(visit.volunteer_id), requestId, text: overdueText(visit, change.at, this.settings.timeZone), at: change.at,
      })
      if (raised === undefined) continue
      change.record({ type: 'concern_raised', concernId: raised.id, requestId, urgent: true, recipientIds: await whoMaySee(tx, raised.id) })
    }
    return due.length
  }
}

/** The visit job for the runner (src/jobs/): at start-up, then every `intervalMs`. */
export const visitJob = (jobs: VisitJobs, intervalMs: number) => batchJob('visits', intervalMs, BATCH, () => jobs.runOnce())
