import { constraintName, sqlState, type Database, type Queryable } from '../../db/database.js'
import { UNIQUE_VIOLATION } from '../../db/sqlstate.js'
import { systemClock, type Clock } from '../../lib/clock.js'
import { badRequest, forbidden, notFound, REQUEST_NOT_FOUND } from '../../lib/errors.js'
import type { Page } from '../../lib/page.js'
import { hasPermission, type Principal } from '../../lib/principal.js'
import * as requests from '../requests/requests.repo.js'
import { isVisibleTo, seesAllResponses } from '../requests/visibility.js'
import * as users from '../users/users.repo.js'
import { closeAlertsOf, startAlertRounds } from '../alerts/alerts.service.js'
import { insertNotifications } from '../notifications/notifications.repo.js'
import * as responses from './responses.repo.js'
import type { AcceptResult, CompleteInput, CompleteResult, CreateResponseInput, MyResponse, VolunteerResponse } from './responses.schemas.js'

export const RESPONSE_NOT_FOUND = 'response not found'
export const NOT_OPEN = 'request is not open for responses'

/** The request, locked for the rest of the transaction; 404 when it is missing or hidden from the caller. */
async function lockVisible (tx: Queryable, viewer: Principal, id: number, mode: 'share' | 'update'): Promise<requests.LockedRequest> {
  const request = await requests.lockRequest(tx, id, mode)
  if (request === undefined || !isVisibleTo(viewer, request)) throw notFound(REQUEST_NOT_FOUND)
  return request
}

/**
 * The request's lifecycle after approval: volunteer responses, assignment, completion and rating
 * (rules.md › Request lifecycle). Each transition is one transaction that locks in one order, the
 * request row first, then its responses, then the volunteer's user row, so racing calls, on one
 * instance or several, are decided by the database: one wins, the others see its result. The request
 * and user rows are written through their owners' repos (src/modules/README.md).
 */
export class ResponsesService {
  constructor (private readonly db: Database, private readonly clock: Clock = systemClock) {}

  /** The requester and moderators see every response; anyone else only their own. Oldest first. */
  async list (viewer: Principal, requestId: number): Promise<VolunteerResponse[]> {
    const request = await requests.findRequestParties(this.db, requestId)
    if (request === undefined || !isVisibleTo(viewer, request)) throw notFound(REQUEST_NOT_FOUND)
    return await responses.listResponses(this.db, requestId, seesAllResponses(viewer, request) ? null : viewer.id)
  }

  /** The caller's own responses, newest first (beyond 1.0.1: a volunteer's "my offers"). */
  mine (volunteer: Principal, page: Page): Promise<MyResponse[]> {
    return responses.listVolunteerResponses(this.db, volunteer.id, page)
  }

  /** A new pending response on an approved request that is not the caller's own; one open response per volunteer. */
  async respond (volunteer: Principal, requestId: number, input: CreateResponseInput): Promise<VolunteerResponse> {
    if (!hasPermission(volunteer, 'respond_request')) throw forbidden('respond_request permission required')
    try {
      return await this.db.transaction(async (tx) => {
        // A shared lock: volunteers respond side by side, but an accept cannot slip in between check and insert.
        const request = await lockVisible(tx, volunteer, requestId, 'share')
        if (request.requester_id === volunteer.id) throw badRequest('cannot respond to own request')
        if (request.status !== 'approved') throw badRequest(NOT_OPEN)
        const response = await responses.insertResponse(tx, requestId, volunteer.id, input.message ?? null)
        await insertNotifications(tx, [{
          userId: request.requester_id,
          type: 'response_received',
          requestId,
          data: { response_id: response.id, volunteer_name: response.volunteer_name, message: response.message },
        }])
        return response
      })
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
    return await this.db.transaction(async (tx) => {
      const request = await lockVisible(tx, requester, requestId, 'update')
      if (request.requester_id !== requester.id) throw badRequest('only the requester can accept a response')
      // The request is checked before the response, so the losers of a race get this 400, not a 404.
      if (request.status === 'in_progress') throw badRequest('a response has already been accepted for this request')
      if (request.status !== 'approved') throw badRequest(NOT_OPEN)
      const response = await responses.lockResponse(tx, requestId, responseId)
      if (response?.status !== 'pending') throw notFound(RESPONSE_NOT_FOUND)
      const rejected = await responses.acceptResponse(tx, requestId, responseId)
      await requests.setAssignment(tx, requestId, response.volunteer_id)
      await insertNotifications(tx, [
        { userId: response.volunteer_id, type: 'response_accepted', requestId, data: { response_id: responseId } },
        ...rejected.map((other) => ({ userId: other.volunteer_id, type: 'response_rejected' as const, requestId, data: { response_id: other.id } })),
        ...await closeAlertsOf(tx, requestId, 'assigned'),
      ])
      return { success: true, message: 'response accepted', request_id: requestId, volunteer_id: response.volunteer_id }
    })
  }

  /** The requester closes an in_progress request and rates the assigned volunteer; one rating per request. */
  async complete (requester: Principal, requestId: number, input: CompleteInput): Promise<CompleteResult> {
    return await this.db.transaction(async (tx) => {
      const request = await lockVisible(tx, requester, requestId, 'update')
      if (request.requester_id !== requester.id) throw badRequest('only the requester can complete a request')
      if (request.status === 'completed') throw badRequest('request is already completed')
      const volunteerId = request.assigned_volunteer_id
      if (request.status !== 'in_progress' || volunteerId === null) throw badRequest('request is not in progress')
      // Completions of different requests by one volunteer queue here, so none is left out of the mean.
      await users.lockVolunteer(tx, volunteerId)
      const ratingId = await responses.insertRating(tx, {
        request_id: requestId, volunteer_id: volunteerId, rater_id: requester.id, score: input.rating, comment: input.comment ?? null,
      })
      await requests.markCompleted(tx, requestId)
      await users.recountVolunteer(tx, volunteerId)
      await insertNotifications(tx, [{ userId: volunteerId, type: 'request_completed', requestId, data: { rating: input.rating ?? null } }])
      return { success: true, message: 'request completed', rating_id: ratingId }
    })
  }

  /**
   * Extension: the volunteer withdraws their own response. A pending one is cancelled; an accepted one
   * is cancelled and its in_progress request returns to approved with nobody assigned.
   */
  async withdraw (volunteer: Principal, requestId: number, responseId: number): Promise<VolunteerResponse> {
    return await this.db.transaction(async (tx) => {
      const request = await lockVisible(tx, volunteer, requestId, 'update')
      const response = await responses.lockResponse(tx, requestId, responseId)
      if (response === undefined) throw notFound(RESPONSE_NOT_FOUND)
      if (response.volunteer_id !== volunteer.id) throw badRequest('only the volunteer who responded can withdraw a response')
      if (response.status === 'accepted') {
        if (request.status !== 'in_progress') throw badRequest(`cannot withdraw from a ${request.status} request`)
        await requests.setAssignment(tx, requestId, null)
        // Back in approved: alert rounds start again (events.md § 5), never to those alerted before.
        await startAlertRounds(tx, requestId, this.clock.now())
      } else if (response.status !== 'pending') {
        throw badRequest(`response is already ${response.status}`)
      }
      const withdrawn = await responses.closeResponse(tx, responseId, 'cancelled')
      await insertNotifications(tx, [{
        userId: request.requester_id, type: 'response_withdrawn', requestId, data: { response_id: responseId, was_accepted: response.status === 'accepted' },
      }])
      return withdrawn
    })
  }

  /** Extension: the requester turns down one pending response. */
  async reject (requester: Principal, requestId: number, responseId: number): Promise<VolunteerResponse> {
    return await this.db.transaction(async (tx) => {
      const request = await lockVisible(tx, requester, requestId, 'update')
      if (request.requester_id !== requester.id) throw badRequest('only the requester can reject a response')
      const response = await responses.lockResponse(tx, requestId, responseId)
      if (response === undefined) throw notFound(RESPONSE_NOT_FOUND)
      if (response.status !== 'pending') throw badRequest(`response is already ${response.status}`)
      const rejected = await responses.closeResponse(tx, responseId, 'rejected')
      await insertNotifications(tx, [{ userId: response.volunteer_id, type: 'response_rejected', requestId, data: { response_id: responseId } }])
      return rejected
    })
  }
}
