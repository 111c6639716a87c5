import type { Database } from '../../db/database.js'
import { badRequest, forbidden, notFound, REQUEST_NOT_FOUND } from '../../lib/errors.js'
import { gridPoint } from '../../lib/grid.js'
import type { Page } from '../../lib/page.js'
import { hasPermission, isModerator, type Principal } from '../../lib/principal.js'
import * as responses from '../responses/responses.repo.js'
import { closeAlertsOf } from '../alerts/alerts.service.js'
import { insertNotifications, type NewNotification } from '../notifications/notifications.repo.js'
import * as requests from './requests.repo.js'
import type { CreateRequestInput, Request, RequestDetail, RequestListItem } from './requests.schemas.js'
import { toListItem, withLocation } from './search/shared.js'
import { isVisibleTo, withContactFor } from './visibility.js'

/** The searches (nearby, bounds, map) are in search/: the routes call them directly. */
export interface RequestsOptions {
  /** map.md: the grid of the `location` shown to those who may not see the exact point. */
  mapGridMeters: number
}

export class RequestsService {
  constructor (private readonly db: Database, private readonly options: RequestsOptions) {}

  async create (user: Principal, input: CreateRequestInput): Promise<Request> {
    if (!hasPermission(user, 'create_request')) throw forbidden('create_request permission required')
    if (input.desired_completion_date != null && Date.parse(input.desired_completion_date) <= Date.now()) {
      throw badRequest('desired_completion_date must be in the future')
    }
    const grid = this.options.mapGridMeters
    const created = await requests.insertRequest(this.db, user.id, input, gridPoint(input.latitude, input.longitude, grid), grid)
    if (created === undefined) throw badRequest('invalid request type')
    return created
  }

  async get (viewer: Principal, id: number): Promise<RequestDetail> {
    const request = await requests.findRequestDetail(this.db, id)
    if (request === undefined || !isVisibleTo(viewer, request)) throw notFound(REQUEST_NOT_FOUND)
    return withLocation(viewer, withContactFor(viewer, request), this.options.mapGridMeters)
  }

  /** The caller's own requests, every status, newest first. */
  async listMine (user: Principal, page: Page): Promise<RequestListItem[]> {
    const rows = await requests.listByRequester(this.db, user.id, page)
    return rows.map((row) => toListItem(user, row, this.options.mapGridMeters))
  }

  /**
   * Extension: the requester, or a moderator, cancels an active request; its pending and accepted
   * responses are cancelled in the same transaction (rules.md › Request lifecycle).
   */
  async cancel (user: Principal, id: number): Promise<Request> {
    const cancelled = await this.db.transaction(async (tx) => {
      // The request row first, then its responses: whoever changes both must lock them in this order,
      // or two such transactions can deadlock.
      const request = await requests.cancelRequest(tx, id, user.id, isModerator(user))
      if (request !== undefined) {
        const volunteers = await responses.cancelOpenResponses(tx, id)
        await insertNotifications(tx, [
          ...cancellationNotifications(request, volunteers, user.id),
          // Alerts are open only while a request is approved, so this tells those of an approved one.
          ...await closeAlertsOf(tx, id, 'cancelled'),
        ])
      }
      return request
    })
    if (cancelled !== undefined) return cancelled
    // Nothing changed: say why.
    const request = await requests.findRequestParties(this.db, id)
    if (request === undefined || !isVisibleTo(user, request)) throw notFound(REQUEST_NOT_FOUND)
    if (request.requester_id !== user.id && !isModerator(user)) throw badRequest('only the requester can cancel a request')
    throw badRequest('request cannot be cancelled in its current status')
  }
}

/**
 * events.md § 4: `request_cancelled` to the volunteers whose offer was open when `request` was cancelled
 * (the assigned one included), and to the requester when someone else (a moderator) cancelled it. Erasure
 * (privacy.md §3) cancels the erased requester's requests and notifies through this too.
 */
export function cancellationNotifications (request: { id: number, requester_id: number }, volunteers: readonly number[], cancelledBy: number): NewNotification[] {
  const recipients = request.requester_id !== cancelledBy ? [...volunteers, request.requester_id] : volunteers
  return recipients.map((userId) => ({ userId, type: 'request_cancelled', requestId: request.id, data: {} }))
}
