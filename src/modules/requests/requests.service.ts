import type { Database } from '../../db/database.js'
import type { Changes } from '../../events/dispatcher.js'
import { systemClock, type Clock } from '../../lib/clock.js'
import { badRequest, forbidden, notFound, REQUEST_NOT_FOUND } from '../../lib/errors.js'
import { gridPoint } from '../../lib/grid.js'
import type { Page } from '../../lib/page.js'
import { hasPermission, isModerator, type Principal } from '../../lib/principal.js'
import * as requests from './requests.repo.js'
import * as reads from './requests.reads.js'
import type { CreateRequestInput, Request, RequestDetail, RequestListItem } from './requests.schemas.js'
import { toListItem, type Disclosure } from './disclosure.js'
import { isVisibleTo } from './visibility.js'

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * schedule.md § 1: checks a request's window, in the spec's order, and sets desired_completion_date to its
 * end. Instants are compared, so "…Z" and "+01:00" forms of the same moment are equal.
 */
export function withWindow (input: CreateRequestInput, now: Date): CreateRequestInput {
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
  constructor (private readonly db: Database, private readonly changes: Changes, private readonly disclosure: Disclosure, private readonly clock: Clock = systemClock) {}

  async create (user: Principal, input: CreateRequestInput): Promise<Request> {
    if (!hasPermission(user, 'create_request')) throw forbidden('create_request permission required')
    const dated = withWindow(input, this.clock.now())
    if (dated.desired_completion_date != null && Date.parse(dated.desired_completion_date) <= this.clock.now().getTime()) {
      throw badRequest('desired_completion_date must be in the future')
    }
    const grid = this.disclosure.policy.mapGridMeters
    const created = await requests.insertRequest(this.db, user.id, dated, gridPoint(input.latitude, input.longitude, grid), grid)
    if (created === undefined) throw badRequest('invalid request type')
    return created
  }

  async get (viewer: Principal, id: number): Promise<RequestDetail> {
    const request = await reads.findRequestDetail(this.db, id)
    if (request === undefined || !isVisibleTo(viewer, request)) throw notFound(REQUEST_NOT_FOUND)
    return await this.disclosure.detail(viewer, request)
  }

  /** The caller's own requests, every status, newest first. */
  async listMine (user: Principal, page: Page): Promise<RequestListItem[]> {
    const rows = await reads.listByRequester(this.db, user.id, page)
    return await this.disclosure.list(user, rows, toListItem)
  }

  /**
   * Extension: the requester, or a moderator, cancels an active request; its pending and accepted
   * responses are cancelled in the same transaction (rules.md › Request lifecycle), by the reactions to
   * request_cancelled, which also close its alerts and tell those concerned (src/modules/reactions.ts).
   */
  async cancel (user: Principal, id: number): Promise<Request> {
    const cancelled = await this.changes.run(user.id, async (tx, change) => {
      // The request row is locked first: the reactions then lock its responses (src/modules/README.md).
      const request = await requests.cancelRequest(tx, id, user.id, isModerator(user))
      if (request !== undefined) change.record({ type: 'request_cancelled', requestId: id, requesterId: request.requester_id, cancelledBy: user.id })
      return request
    })
    // A moderator's answer holds the request's contact details: recorded (trust.md §5).
    if (cancelled !== undefined) return await this.disclosure.request(user, cancelled)
    // Nothing changed: say why.
    const request = await reads.findRequestParties(this.db, id)
    if (request === undefined || !isVisibleTo(user, request)) throw notFound(REQUEST_NOT_FOUND)
    if (request.requester_id !== user.id && !isModerator(user)) throw badRequest('only the requester can cancel a request')
    throw badRequest('request cannot be cancelled in its current status')
  }
}
