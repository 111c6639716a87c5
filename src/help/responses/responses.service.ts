import { constraintName, sqlState, type Database, type Queryable } from '../../db/database.js'
import type { Change, Changes, Origin } from '../../events/dispatcher.js'
import { UNIQUE_VIOLATION } from '../../db/sqlstate.js'
import type { Calendar, CheckKind } from '../../lib/checks.js'
import { badRequest, fail, forbidden, notFound, REQUEST_NOT_FOUND } from '../../lib/errors.js'
import type { Page } from '../../lib/page.js'
import { hasPermission, type Principal } from '../../lib/principal.js'
import { holdsRequiredChecks } from '../../accounts/checks/checks.repo.js'
import { cannotOffer, findOfferFacts, missingFor } from '../needs/matching.js'
import * as requests from '../requests/requests.repo.js'
import { findRequestParties, hasEarlierOffer } from '../requests/requests.reads.js'
import { actingAsVolunteer, type ActingPolicy } from '../requests/acting.js'
import { isVisibleTo, seesAllResponses } from '../requests/visibility.js'
import * as users from '../../accounts/users/users.repo.js'
import * as responses from './responses.repo.js'
import type { AcceptResult, CompleteInput, CompleteResult, CreateResponseInput, MyResponse, VolunteerResponse } from './responses.schemas.js'

export const RESPONSE_NOT_FOUND = 'response not found'
export const NOT_OPEN = 'request is not open for responses'

/** A response row as the API shows it: the volunteer's trust signals as one object (docs/api/help.md › Volunteer responses, completion and ratings). */
function toResponse<R extends responses.ResponseRow> (row: R): Omit<R, keyof responses.TrustColumns> & Pick<VolunteerResponse, 'volunteer'> {
  const { volunteer_first_name: firstName, volunteer_rating: rating, volunteer_completed_count: completed, volunteer_checks: checks, volunteer_since: since, ...response } = row
  return {
    ...response,
    volunteer: {
      id: row.volunteer_id, first_name: firstName, volunteer_rating: rating, completed_requests_count: completed, is_verified: checks.includes('identity'), checks, member_since: since,
    },
  }
}

/** What the service needs of the checks: the kinds VOLUNTEER_CHECKS requires and today (TIME_ZONE) to judge them. */
export interface OfferChecks { required: readonly CheckKind[], calendar: Calendar }

/** What the service needs of an occurrence's series, in the change's transaction (regular-help/ implements it). */
export interface OccurrenceSeries {
  /** The request's series, if any, locked: a series comes before its occurrences in the lock order. */
  lock: (tx: Queryable, requestId: number) => Promise<void>
  /** Whether the volunteer is the series' preferred one and its template accepts them at once. */
  autoAccepts: (tx: Queryable, requestId: number, volunteerId: number) => Promise<boolean>
}

/** The request, locked for the rest of the transaction; 404 when it is missing or hidden from the caller. */
async function lockVisible (tx: Queryable, viewer: Principal, id: number, mode: 'share' | 'update'): Promise<requests.LockedRequest> {
  const request = await requests.lockRequest(tx, id, mode)
  if (request === undefined || !isVisibleTo(viewer, request)) throw notFound(REQUEST_NOT_FOUND)
  return request
}

/**
 * The request's lifecycle after approval: volunteer responses, assignment, completion and rating
 * (docs/api/help.md › Volunteer responses, completion and ratings). Each transition is one transaction that locks in one order, the
 * request row first, then its responses, then the volunteer's user row, so racing calls, on one
 * instance or several, are decided by the database: one wins, the others see its result. The request
 * and user rows are written through their owners' repos (src/README.md).
 */
export class ResponsesService {
  constructor (
    private readonly db: Database, private readonly changes: Changes, private readonly checks: OfferChecks,
    private readonly acting: ActingPolicy, private readonly series: OccurrenceSeries
  ) {}

  /** The requester and moderators see every response; anyone else only their own. Oldest first. */
  async list (viewer: Principal, requestId: number): Promise<VolunteerResponse[]> {
    const request = await findRequestParties(this.db, requestId, viewer.id)
    if (request === undefined || !isVisibleTo(viewer, request)) throw notFound(REQUEST_NOT_FOUND)
    const rows = await responses.listResponses(this.db, requestId, seesAllResponses(viewer, request) ? null : viewer.id, this.#today())
    return rows.map(toResponse)
  }

  /** The caller's own responses, newest first (beyond 1.0.1: a volunteer's "my offers"). */
  async mine (volunteer: Principal, page: Page): Promise<MyResponse[]> {
    return (await responses.listVolunteerResponses(this.db, volunteer.id, page, this.#today())).map(toResponse)
  }

  #today (): string { return this.checks.calendar.today() }

  /**
   * A new pending response on an approved request that is not the caller's own; one open response per volunteer.
   * The preferred volunteer of a series whose template says auto_accept_preferred is accepted at once, as
   * the requester would accept them (docs/api/schedule.md › Series). `origin`: a reply to a text (YES) it came by.
   */
  async respond (volunteer: Principal, requestId: number, input: CreateResponseInput, origin?: Origin): Promise<VolunteerResponse> {
    if (!hasPermission(volunteer, 'respond_request')) throw forbidden('respond_request permission required')
    try {
      return await this.changes.run(actingAsVolunteer(volunteer), async (tx, change) => {
        // Read before the lock, since they decide the lock: an offer to be accepted locks the request as an accept
        // does, and so does one that may be the first, which writes its time on the request row (docs/api/on-behalf.md › Reports for funders):
        // under shared locks, two first offers writing the row would deadlock. first_offer_at only moves earlier,
        // so a stale read costs at most an exclusive lock and a write that changes nothing.
        const autoAccept = await this.series.autoAccepts(tx, requestId, volunteer.id)
        const exclusive = autoAccept || !await hasEarlierOffer(tx, requestId)
        // A shared lock: volunteers respond side by side, but an accept cannot slip in between check and insert.
        const request = await lockVisible(tx, volunteer, requestId, exclusive ? 'update' : 'share')
        if (request.requester_id === volunteer.id) throw badRequest('cannot respond to own request')
        if (request.status !== 'approved') throw badRequest(NOT_OPEN)
        // VOLUNTEER_CHECKS (docs/api/accounts.md › Checks that vet volunteers): offers already made stay when a check lapses; new ones wait for it.
        if (!await holdsRequiredChecks(tx, volunteer.id, this.checks.required, this.#today())) throw badRequest('your checks do not allow offering help yet')
        // docs/api/visits.md › Needs and matching: every need met and a language shared, moderators and admins too.
        const facts = await findOfferFacts(tx, requestId, volunteer.id, this.#today())
        const missing = facts === undefined ? [] : missingFor(facts.request, facts.volunteer)
        if (missing.length > 0) throw badRequest(cannotOffer(missing))
        const response = await responses.insertResponse(tx, requestId, volunteer.id, input.message ?? null, this.#today())
        if (exclusive) await requests.markOffered(tx, requestId)
        change.record({
          type: 'response_created', requestId, requesterId: request.requester_id, responseId: response.id, volunteerName: response.volunteer_name, message: response.message,
        })
        if (autoAccept && await this.#assign(tx, change, requestId, response)) {
          const [accepted] = await responses.listResponses(tx, requestId, volunteer.id, this.#today())
          return toResponse(accepted ?? response)
        }
        return toResponse(response)
      }, origin)
    } catch (error) {
      // Two identical responses racing: the partial unique index lets one in.
      if (sqlState(error) === UNIQUE_VIOLATION && constraintName(error) === 'volunteer_responses_one_open') {
        throw badRequest('already responded to this request')
      }
      throw error
    }
  }

  /** The requester accepts one pending response: it is accepted, the other pending ones rejected, the volunteer assigned. */
  async accept (requester: Principal, requestId: number, responseId: number): Promise<AcceptResult> {
    return await this.changes.run(requester.id, async (tx, change) => {
      const request = await lockVisible(tx, requester, requestId, 'update')
      change.actAs(await this.acting.asRequester(tx, requester, request, 'accept') ?? fail(badRequest('only the requester can accept a response')))
      // The request is checked before the response, so the losers of a race get this 400, not a 404.
      if (request.status === 'in_progress') throw badRequest('a response has already been accepted for this request')
      if (request.status !== 'approved') throw badRequest(NOT_OPEN)
      const response = await responses.lockResponse(tx, requestId, responseId)
      if (response?.status !== 'pending') throw notFound(RESPONSE_NOT_FOUND)
      if (!await this.#assign(tx, change, requestId, response)) throw notFound(RESPONSE_NOT_FOUND)
      return { success: true, message: 'response accepted', request_id: requestId, volunteer_id: response.volunteer_id }
    })
  }

  /**
   * The pending response, on the request locked for update, accepted: the other pending ones rejected, its
   * volunteer assigned. False, and nothing changed, when the volunteer is blocked: a blocked volunteer's
   * offer no longer stands (by an admin, or a concern's `blocked` outcome), since accepting it would hand
   * him the requester's address and phone (docs/api/help.md › Blocked volunteers).
   */
  async #assign (tx: Queryable, change: Change, requestId: number, response: { id: number, volunteer_id: number }): Promise<boolean> {
    if (await users.lockVolunteerBlocked(tx, response.volunteer_id)) return false
    const rejected = await responses.acceptResponse(tx, requestId, response.id)
    await requests.setAssignment(tx, requestId, response.volunteer_id)
    change.record({
      type: 'response_accepted', requestId, responseId: response.id, volunteerId: response.volunteer_id, rejected: rejected.map((other) => ({ responseId: other.id, volunteerId: other.volunteer_id })),
    })
    return true
  }

  /** The requester closes an in_progress request and rates the assigned volunteer; one rating per request. */
  async complete (requester: Principal, requestId: number, input: CompleteInput): Promise<CompleteResult> {
    return await this.changes.run(requester.id, async (tx, change) => {
      // An occurrence's series first (its lock order): the rating may make the volunteer its preferred one.
      await this.series.lock(tx, requestId)
      const request = await lockVisible(tx, requester, requestId, 'update')
      change.actAs(await this.acting.asRequester(tx, requester, request, 'complete') ?? fail(badRequest('only the requester can complete a request')))
      if (request.status === 'completed') throw badRequest('request is already completed')
      const volunteerId = request.assigned_volunteer_id
      if (request.status !== 'in_progress' || volunteerId === null) throw badRequest('request is not in progress')
      // Completions of different requests by one volunteer queue here, so none is left out of the mean.
      await users.lockVolunteer(tx, volunteerId)
      const ratingId = await responses.insertRating(tx, {
        request_id: requestId, volunteer_id: volunteerId, rater_id: request.requester_id, score: input.rating, comment: input.comment ?? null,
      })
      await requests.markCompleted(tx, requestId)
      await users.recountVolunteer(tx, volunteerId)
      change.record({ type: 'request_completed', requestId, volunteerId, rating: input.rating ?? null })
      return { success: true, message: 'request completed', rating_id: ratingId }
    })
  }

  /**
   * Extension: the volunteer withdraws their own response. A pending one is cancelled; an accepted one
   * is cancelled and its in_progress request returns to approved with nobody assigned.
   */
  async withdraw (volunteer: Principal, requestId: number, responseId: number): Promise<VolunteerResponse> {
    return await this.changes.run(actingAsVolunteer(volunteer), async (tx, change) => {
      // An occurrence's series first (its lock order): the withdrawal clears a preferred volunteer.
      await this.series.lock(tx, requestId)
      const request = await lockVisible(tx, volunteer, requestId, 'update')
      const response = await responses.lockResponse(tx, requestId, responseId)
      if (response === undefined) throw notFound(RESPONSE_NOT_FOUND)
      if (response.volunteer_id !== volunteer.id) throw badRequest('only the volunteer who responded can withdraw a response')
      if (response.status === 'accepted') {
        if (request.status !== 'in_progress') throw badRequest(`cannot withdraw from a ${request.status} request`)
        // Back in approved: the reactions start alert rounds again (docs/alerts.md), never to those alerted before.
        await requests.setAssignment(tx, requestId, null)
      } else if (response.status !== 'pending') {
        throw badRequest(`response is already ${response.status}`)
      }
      const withdrawn = toResponse(await responses.closeResponse(tx, responseId, 'cancelled', this.#today()))
      change.record({ type: 'response_withdrawn', requestId, responseId, requesterId: request.requester_id, wasAccepted: response.status === 'accepted' })
      return withdrawn
    })
  }

  /** Extension: the requester turns down one pending response. */
  async reject (requester: Principal, requestId: number, responseId: number): Promise<VolunteerResponse> {
    return await this.changes.run(requester.id, async (tx, change) => {
      const request = await lockVisible(tx, requester, requestId, 'update')
      change.actAs(await this.acting.asRequester(tx, requester, request, 'accept') ?? fail(badRequest('only the requester can reject a response')))
      const response = await responses.lockResponse(tx, requestId, responseId)
      if (response === undefined) throw notFound(RESPONSE_NOT_FOUND)
      if (response.status !== 'pending') throw badRequest(`response is already ${response.status}`)
      const rejected = toResponse(await responses.closeResponse(tx, responseId, 'rejected', this.#today()))
      change.record({ type: 'response_rejected', requestId, responseId, volunteerId: response.volunteer_id })
      return rejected
    })
  }
}
