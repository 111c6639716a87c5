import type { Database } from '../../db/database.js'
import type { Changes, Origin } from '../../events/dispatcher.js'
import { systemClock, type Clock } from '../../lib/clock.js'
import { badRequest, notFound, REQUEST_NOT_FOUND } from '../../lib/errors.js'
import type { Principal } from '../../lib/principal.js'
import { actingAsVolunteer, actingDirectly } from '../../help/requests/acting.js'
import { lockRequest } from '../../help/requests/requests.repo.js'
import * as deadlines from '../../help/requests/deadlines.repo.js'
import type { Disclosure } from '../../help/requests/disclosure.js'
import { findRequestDetail } from '../../help/requests/requests.reads.js'
import type { RequestDetail } from '../../help/requests/requests.schemas.js'
import { isVisibleTo } from '../../help/requests/visibility.js'
import * as schedule from './schedule.repo.js'

export const ONLY_ASSIGNED_CONFIRMS = 'only the assigned volunteer can confirm'
export const ONLY_REQUESTER_STILL_NEEDED = 'only the requester can say a request is still needed'
export const NOT_APPROVED = 'request is not approved'

/** The ISO text of a window's start for a message's `data` (null without a window). */
export const windowData = (windowStart: Date | null): { window_start: string | null } =>
  ({ window_start: windowStart === null ? null : new Date(windowStart).toISOString() })

/**
 * The two answers of docs/api/schedule.md › Confirmation, reminders, expiry (the jobs are schedule-jobs.ts): the assigned volunteer confirms,
 * the requester says a request is still needed. Each answers the RequestDetail through the Disclosure, as
 * GET /requests/{id} does.
 */
export class ScheduleService {
  constructor (private readonly db: Database, private readonly changes: Changes, private readonly disclosure: Disclosure, private readonly clock: Clock = systemClock) {}

  /**
   * The assigned volunteer of an in_progress request with a window confirms they will come; the requester
   * gets volunteer_confirmed, once per assignment. Again, or after the deadline while still assigned: 200.
   */
  async confirm (volunteer: Principal, id: number, origin?: Origin): Promise<RequestDetail> {
    const confirmed = await this.changes.run(actingAsVolunteer(volunteer), async (tx, change) => {
      const row = await deadlines.confirmRequest(tx, id, volunteer.id, this.clock.now())
      if (row !== undefined) {
        change.record({ type: 'request_confirmed', requestId: id, volunteerId: volunteer.id })
        change.notify({ userId: row.requester_id, type: 'volunteer_confirmed', requestId: id, data: windowData(row.window_start) })
      }
      return row !== undefined
    }, origin)
    const detail = await findRequestDetail(this.db, id, volunteer.id)
    if (detail === undefined || !isVisibleTo(volunteer, detail)) throw notFound(REQUEST_NOT_FOUND)
    const theirs = detail.status === 'in_progress' && detail.assigned_volunteer_id === volunteer.id && detail.window_start !== null
    if (!confirmed && !theirs) throw badRequest(ONLY_ASSIGNED_CONFIRMS)
    return await this.disclosure.detail(volunteer, detail)
  }

  /** The requester keeps an approved request: an open question is answered, and the next waits STALE_AFTER_DAYS. */
  async stillNeeded (requester: Principal, id: number): Promise<RequestDetail> {
    const kept = await this.changes.run(requester.id, async (tx, change) => {
      // The request row first (its lock), then its messages.
      const locked = await lockRequest(tx, id, 'update')
      const acting = locked === undefined ? undefined : actingDirectly(requester, locked)
      if (acting !== undefined) change.actAs(acting)
      const row = await deadlines.markStillNeeded(tx, id, requester.id, this.clock.now())
      if (row === undefined) return false
      await schedule.closeStillNeededQuestion(tx, id)
      change.record({ type: 'request_still_needed', requestId: id })
      return true
    })
    const detail = await findRequestDetail(this.db, id, requester.id)
    if (detail === undefined || !isVisibleTo(requester, detail)) throw notFound(REQUEST_NOT_FOUND)
    if (!kept) throw detail.requester_id === requester.id ? badRequest(NOT_APPROVED) : badRequest(ONLY_REQUESTER_STILL_NEEDED)
    return await this.disclosure.detail(requester, detail)
  }
}
