import type { Database, Queryable } from '../../db/database.js'
import type { Change, Changes } from '../../events/dispatcher.js'
import { badRequest, forbidden, notFound, REQUEST_NOT_FOUND } from '../../lib/errors.js'
import type { Principal } from '../../lib/principal.js'
import { insertConcern, whoMaySee } from '../concerns/concerns.repo.js'
import { actingAsVolunteer, type ActingPolicy } from '../requests/acting.js'
import { lockRequest, type LockedRequest } from '../requests/requests.repo.js'
import { findRequestParties } from '../requests/requests.reads.js'
import { isVisibleTo } from '../requests/visibility.js'
import * as visits from './visits.repo.js'
import type { ExpensesInput } from './visits.schemas.js'

export const VISIT_CHECKS_OFF = 'visit checks are off'
export const ONLY_ASSIGNED = 'only the assigned volunteer can do this'
export const ONLY_REQUESTER = 'only the requester can do this'
export const ONLY_PARTIES = 'only the assigned volunteer or the requester can see this'
export const NOT_IN_PROGRESS = 'request is not in progress'
export const NOT_CHECKED_IN = 'not checked in'
export const NOT_COMPLETED = 'request is not completed'
export const TOO_LATE = 'too late to change'

/** docs/api/visit-checks.md › Hours and mileage: a completed visit's record may be changed for this long. */
export const EXPENSES_DAYS = 30
const DAY_MS = 24 * 60 * 60 * 1000

/** The fixed text of a worried check-out's concern: nothing the volunteer typed, so nothing to leak or to moderate. */
export const WORRIED_TEXT = 'The volunteer checked out of this visit and said they are worried. Please get in touch with them soon.'

export interface VisitChecks { checks: 'off' | 'on' }

/**
 * docs/api/visit-checks.md: the assigned volunteer checks a visit in and out (worried, with an urgent concern in the same
 * transaction), the requester's side says the helper has left, and the volunteer records hours and mileage
 * after completion. Each locks the request's row first (src/README.md's lock order), then the visit's.
 */
export class VisitsService {
  constructor (
    private readonly db: Database,
    private readonly changes: Changes,
    private readonly acting: ActingPolicy,
    private readonly settings: VisitChecks
  ) {}

  #gate (): void {
    if (this.settings.checks !== 'on') throw notFound(VISIT_CHECKS_OFF)
  }

  /** The request share-locked: 404 when hidden from the caller, 403 unless they are its assigned volunteer. */
  async #asAssigned (tx: Queryable, user: Principal, id: number): Promise<LockedRequest> {
    const locked = await lockRequest(tx, id, 'share')
    if (locked === undefined || !isVisibleTo(user, locked)) throw notFound(REQUEST_NOT_FOUND)
    if (locked.assigned_volunteer_id !== user.id) throw forbidden(ONLY_ASSIGNED)
    return locked
  }

  async checkIn (user: Principal, id: number): Promise<visits.VisitState> {
    this.#gate()
    return await this.changes.run(actingAsVolunteer(user), async (tx, change) => {
      const locked = await this.#asAssigned(tx, user, id)
      if (locked.status !== 'in_progress') throw badRequest(NOT_IN_PROGRESS)
      const checked = await visits.checkIn(tx, id, user.id, change.at)
      if (checked === undefined) return await visits.findVisit(tx, id, user.id)
      change.record({ type: 'visit_checked_in', requestId: id, volunteerId: user.id })
      return checked
    })
  }

  /**
   * The visit of the request's assigned volunteer as it stands, for that volunteer and the requester's side (whoever
   * may `follow` the request), so each is offered the step that is theirs; all null while nobody is assigned.
   */
  async current (user: Principal, id: number): Promise<visits.VisitState> {
    this.#gate()
    const request = await findRequestParties(this.db, id, user.id)
    if (request === undefined || !isVisibleTo(user, request)) throw notFound(REQUEST_NOT_FOUND)
    const volunteerId = request.assigned_volunteer_id
    if (volunteerId !== user.id && await this.acting.asRequester(this.db, user, request, 'follow') === undefined) throw forbidden(ONLY_PARTIES)
    return volunteerId === null ? visits.NOT_STARTED : await visits.findVisit(this.db, id, volunteerId)
  }

  /**
   * Checks out; `worried` also raises the urgent concern (kind `report`, the volunteer its reporter, no subject), once
   * per visit, even when the visit was checked out before: a volunteer may only realise after leaving.
   */
  async checkOut (user: Principal, id: number, worried: boolean): Promise<visits.VisitState> {
    this.#gate()
    return await this.changes.run(actingAsVolunteer(user), async (tx, change) => {
      const locked = await this.#asAssigned(tx, user, id)
      if (locked.status !== 'in_progress') throw badRequest(NOT_IN_PROGRESS)
      const visit = await visits.findVisit(tx, id, user.id)
      if (visit.checked_in_at === null) throw badRequest(NOT_CHECKED_IN)
      const out = await visits.checkOut(tx, id, user.id, change.at)
      if (out !== undefined) change.record({ type: 'visit_checked_out', requestId: id, volunteerId: user.id, by: 'volunteer' })
      if (worried && await visits.markWorried(tx, id, user.id, change.at)) await this.#raiseWorry(tx, change, user.id, id)
      return out ?? visit
    })
  }

  async #raiseWorry (tx: Queryable, change: Change, volunteerId: number, requestId: number): Promise<void> {
    const { id } = await insertConcern(tx, { reporterId: volunteerId, subjectUserId: null, requestId, text: WORRIED_TEXT, urgent: true, at: change.at })
    change.record({ type: 'concern_raised', concernId: id, requestId, urgent: true, recipientIds: await whoMaySee(tx, id) })
  }

  /**
   * The requester (or a coordinator of a client's request, or a carer allowed to `complete`) says the helper has
   * left: the visit is checked out when it was in. A carer's lesser grant is refused by the acting policy.
   */
  async helperLeft (user: Principal, id: number): Promise<visits.VisitState> {
    this.#gate()
    return await this.changes.run(user.id, async (tx, change) => {
      const locked = await lockRequest(tx, id, 'share')
      if (locked === undefined || !isVisibleTo(user, locked)) throw notFound(REQUEST_NOT_FOUND)
      const acting = await this.acting.asRequester(tx, user, locked, 'complete')
      if (acting === undefined) throw forbidden(ONLY_REQUESTER)
      change.actAs(acting)
      if (locked.status !== 'in_progress' || locked.assigned_volunteer_id === null) throw badRequest(NOT_IN_PROGRESS)
      const volunteerId = locked.assigned_volunteer_id
      const out = await visits.checkOut(tx, id, volunteerId, change.at)
      if (out === undefined) return await visits.findVisit(tx, id, volunteerId)
      change.record({ type: 'visit_checked_out', requestId: id, volunteerId, by: 'requester' })
      return out
    })
  }

  /** docs/api/visit-checks.md › Hours and mileage: not gated by VISIT_CHECKS; replaces the record until 30 days after completion. */
  async recordExpenses (user: Principal, id: number, input: ExpensesInput): Promise<visits.Expenses> {
    return await this.changes.run(actingAsVolunteer(user), async (tx, change) => {
      await this.#asAssigned(tx, user, id)
      const completed = await visits.completedAt(tx, id)
      if (completed === undefined) throw badRequest(NOT_COMPLETED)
      if (change.at.getTime() - new Date(completed).getTime() > EXPENSES_DAYS * DAY_MS) throw badRequest(TOO_LATE)
      const distance = input.distance_km === undefined ? null : String(input.distance_km)
      return await visits.recordExpenses(tx, id, user.id, input.minutes ?? null, distance, change.at)
    })
  }
}
