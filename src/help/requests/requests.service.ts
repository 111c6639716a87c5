import type { Database } from '../../db/database.js'
import type { Changes, Origin } from '../../events/dispatcher.js'
import { systemClock } from '../../lib/clock.js'
import { calendarOf, type Calendar } from '../../lib/checks.js'
import { badRequest, forbidden, notFound, REQUEST_NOT_FOUND } from '../../lib/errors.js'
import { gridPoint } from '../../lib/grid.js'
import type { Page } from '../../lib/page.js'
import { hasPermission, isModerator, type Principal } from '../../lib/principal.js'
import { actingAsModerator, COORDINATOR_REQUIRED, withClientDefaults, type ActingPolicy } from './acting.js'
import * as requests from './requests.repo.js'
import * as reads from './requests.reads.js'
import type { CoordinatedRequest, CreateRequestInput, Request, RequestDetail, RequestListItem, RequestStatus } from './requests.schemas.js'
import { toListItem, type Disclosure } from './disclosure.js'
import { isVisibleTo, seesAllResponses } from './visibility.js'
import { offersHelp } from './search/context.js'
import { resolveNeeds } from './needs-input.js'
import { listRequestRecords } from '../../accounts/access/access.repo.js'
import type { RequestAccessRecord } from '../../accounts/access/access.schemas.js'

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * docs/api/schedule.md › A time window on a request: checks a request's window, in the spec's order, and sets desired_completion_date to its
 * end. Instants are compared, so "…Z" and "+01:00" forms of the same moment are equal.
 */
export function withWindow<I extends Pick<CreateRequestInput, 'window_start' | 'window_end' | 'desired_completion_date'>> (input: I, now: Date): I {
  const { window_start: start, window_end: end } = input
  if (start === undefined && end === undefined) return input
  if (start === undefined || end === undefined) throw badRequest('window_start and window_end go together')
  const [from, to] = [Date.parse(start), Date.parse(end)]
  if (to <= from) throw badRequest('window_end must be after window_start')
  if (to - from > DAY_MS) throw badRequest('window is longer than 24 hours')
  if (from <= now.getTime()) throw badRequest('window must be in the future')
  const desired = input.desired_completion_date
  if (desired != null && Date.parse(desired) !== to) throw badRequest('desired_completion_date must equal window_end')
  return { ...input, desired_completion_date: end }
}

/** The searches (nearby, bounds, map) are in search/: the routes call them directly. */
export class RequestsService {
  constructor (
    private readonly db: Database, private readonly changes: Changes, private readonly disclosure: Disclosure,
    private readonly acting: ActingPolicy, private readonly clock: Calendar = calendarOf(systemClock, 'UTC')
  ) {}

  /** For herself, or on someone's behalf (docs/api/on-behalf.md: `on_behalf_of`, decided by acting.ts). */
  async create (user: Principal, input: CreateRequestInput): Promise<Request> {
    const { on_behalf_of: onBehalfOf, ...answers } = input
    return await this.changes.run(user.id, async (tx, change) => {
      const standing = await this.acting.toCreate(tx, user, onBehalfOf)
      change.actAs(standing.acting)
      const located = withClientDefaults(answers, standing.client)
      const dated = withWindow(located, this.clock.now())
      if (dated.desired_completion_date != null && Date.parse(dated.desired_completion_date) <= this.clock.now().getTime()) {
        throw badRequest('desired_completion_date must be in the future')
      }
      const grid = this.disclosure.policy.mapGridMeters
      const origin = { clientId: standing.client?.id ?? null, carerId: standing.acting.role === 'carer' ? user.id : null }
      const needs = await resolveNeeds(tx, dated, { requestTypeId: dated.request_type_id, requesterId: standing.requesterId, clientId: origin.clientId })
      const created = await requests.insertRequest(tx, standing.requesterId, { ...dated, ...needs }, gridPoint(dated.latitude, dated.longitude, grid), grid, origin)
      if (created === undefined) throw badRequest('invalid request type')
      change.record({ type: 'request_created', requestId: created.id, requesterId: created.requester_id, clientId: created.client_id })
      return created
    })
  }

  async get (viewer: Principal, id: number): Promise<RequestDetail> {
    // docs/api/visits.md › Needs and matching: `suitable` for a caller who offers help, on today's checks.
    const request = await reads.findRequestDetail(this.db, id, viewer.id, offersHelp(viewer) ? { today: this.clock.today() } : undefined)
    if (request === undefined || !isVisibleTo(viewer, request)) throw notFound(REQUEST_NOT_FOUND)
    return await this.disclosure.detail(viewer, request)
  }

  /**
   * The caller's own requests, every status, newest first; or, with `forUserId`, those of a person the caller
   * follows as an accepted carer (docs/api/on-behalf.md › Carers), shown to her as to the person's side.
   */
  async listMine (user: Principal, page: Page, forUserId: number = user.id): Promise<RequestListItem[]> {
    await this.acting.asFollower(this.db, user, forUserId)
    // A carer follows the person's own requests, never those of the clients she coordinates (docs/api/on-behalf.md › Carers).
    const rows = await reads.listByRequester(this.db, forUserId, page, forUserId === user.id)
    const seen = forUserId === user.id ? rows : rows.map((row) => ({ ...row, viewer_is_carer: true }))
    return await this.disclosure.list(user, seen, toListItem)
  }

  /** docs/api/on-behalf.md › Coordinators and clients: every client's request, soonest needed first, for coordinators only. */
  async listCoordinated (user: Principal, status: RequestStatus | undefined, page: Page): Promise<CoordinatedRequest[]> {
    if (!hasPermission(user, 'coordinate_requests')) throw forbidden(COORDINATOR_REQUIRED)
    const rows = await reads.listCoordinated(this.db, status, page)
    return await this.disclosure.list(user, rows, (viewer, row, policy) => ({
      ...toListItem(viewer, row, policy),
      client_id: row.client_id,
      client_name: row.client_name,
      desired_completion_date: row.desired_completion_date,
      cancel_reason: row.cancel_reason,
      volunteer_first_name: row.volunteer_first_name,
      // JSON's timestamps come in the session's zone: said as the API says every time.
      client_texts: (typeof row.client_texts === 'string' ? JSON.parse(row.client_texts) as reads.CoordinatedRow['client_texts'] : row.client_texts)
        .map((text) => ({ ...text, at: new Date(text.at).toISOString() })),
    }))
  }

  /**
   * Extension: the requester, or a moderator, cancels an active request; its pending and accepted
   * responses are cancelled in the same transaction (docs/api/help.md › Volunteer responses, completion and ratings), by the reactions to
   * request_cancelled, which also close its alerts and tell those concerned (src/areas.ts).
   */
  async cancel (user: Principal, id: number, origin?: Origin): Promise<Request> {
    const cancelled = await this.changes.run(user.id, async (tx, change) => {
      // The request row is locked first: the reactions then lock its responses (src/README.md).
      const locked = await requests.lockRequest(tx, id, 'update')
      if (locked === undefined || !isVisibleTo(user, locked)) throw notFound(REQUEST_NOT_FOUND)
      const acting = await this.acting.asRequester(tx, user, locked, 'cancel') ?? (isModerator(user) ? actingAsModerator(user) : undefined)
      if (acting === undefined) throw badRequest('only the requester can cancel a request')
      change.actAs(acting)
      const request = await requests.cancelRequest(tx, id, acting.role === 'moderator' || acting.role === 'admin' ? 'moderator' : 'requester')
      if (request === undefined) throw badRequest('request cannot be cancelled in its current status')
      change.record({ type: 'request_cancelled', requestId: id, requesterId: request.requester_id, cancelledBy: user.id })
      return request
    }, origin)
    // A moderator's answer holds the request's contact details: recorded (docs/privacy.md › Access records).
    return await this.disclosure.request(user, cancelled)
  }

  /**
   * Who has been shown the request's contact details: for its requester, moderators and admins, and every
   * coordinator on a client's request; to anyone else the request does not exist.
   */
  async accessLog (viewer: Principal, requestId: number, page: Page): Promise<RequestAccessRecord[]> {
    const request = await reads.findRequestParties(this.db, requestId, viewer.id)
    if (request === undefined || !seesAllResponses(viewer, request)) throw notFound(REQUEST_NOT_FOUND)
    const rows = await listRequestRecords(this.db, { id: requestId, requester_id: request.requester_id }, page)
    return rows.map(({ request_id: _request, ...record }) => record as RequestAccessRecord)
  }
}
