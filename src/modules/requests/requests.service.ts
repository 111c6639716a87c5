import type { Database } from '../../db/database.js'
import type { Changes } from '../../events/dispatcher.js'
import { systemClock, type Clock } from '../../lib/clock.js'
import { badRequest, forbidden, notFound, REQUEST_NOT_FOUND } from '../../lib/errors.js'
import { gridPoint } from '../../lib/grid.js'
import type { Page } from '../../lib/page.js'
import { hasPermission, isModerator, type Principal } from '../../lib/principal.js'
import { boundsBoxes, earthPoint, farthestChord, rectangleCentre, type NearbySearch, type Rectangle } from './geo.js'
import { toListItem, withLocation } from './location.js'
import * as requests from './requests.repo.js'
import type { CreateRequestInput, MapView, Request, RequestDetail, RequestListItem, RequestWithDistance } from './requests.schemas.js'
import { isVisibleTo, withContactFor } from './visibility.js'

export interface BoundsResult {
  items: RequestListItem[]
  /** The cap cut the answer: more requests lie in the rectangle. */
  truncated: boolean
}

export interface RequestsOptions {
  boundsResultCap: number
  mapMarkerCap: number
  /** privacy.md §1 and map.md. */
  locationPrivacy: 'exact' | 'grid'
  unmoderatedInSearch: 'everyone' | 'parties'
  mapGridMeters: number
}

export class RequestsService {
  constructor (private readonly db: Database, private readonly changes: Changes, private readonly options: RequestsOptions, private readonly clock: Clock = systemClock) {}

  /**
   * How this viewer's searches see requests (privacy.md §1): moderators and admins on exact points and
   * with every active request; others at grid points under LOCATION_PRIVACY=grid, and without other
   * people's unmoderated requests under UNMODERATED_IN_SEARCH=parties.
   */
  #view (viewer: Principal): requests.SearchView {
    const trusted = isModerator(viewer)
    return {
      grid: this.options.locationPrivacy === 'grid' && !trusted,
      hidePendingFrom: this.options.unmoderatedInSearch === 'parties' && !trusted ? viewer.id : undefined,
    }
  }

  async create (user: Principal, input: CreateRequestInput): Promise<Request> {
    if (!hasPermission(user, 'create_request')) throw forbidden('create_request permission required')
    if (input.desired_completion_date != null && Date.parse(input.desired_completion_date) <= this.clock.now().getTime()) {
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
   * Active requests within `radius` metres of the point, nearest first, ties by id (rules.md › Search
   * and lists). Reads one row past the page: when that row lies farther than the page's last, no tie
   * crosses the page's end; otherwise reads twice as many, which only a group of requests at exactly
   * the same distance can cause. Under `grid` every request of a cell is at the same distance, so the
   * first read there takes GRID_TIE_ROWS more.
   */
  async nearby (viewer: Principal, { lat, lon, radius }: NearbySearch, page: Page): Promise<RequestWithDistance[]> {
    const view = this.#view(viewer)
    for (let take = requests.nearbyTake(page.offset + page.limit + 1 + (view.grid ? GRID_TIE_ROWS : 0)); ; take = requests.nearbyTake(take * 2)) {
      const rows = await requests.findNearest(this.db, lat, lon, take, page, view)
      if (isSettled(rows, page, take, radius)) {
        return rows.filter((row) => row.distance_meters <= radius)
          .map(({ knn: _knn, last_knn: _last, fetched: _fetched, ...item }) => toListItem(viewer, item, this.options.mapGridMeters))
      }
    }
  }

  /** Active requests in the rectangle, newest first, at most the configured cap (rules.md › Search and lists). */
  async bounds (viewer: Principal, rectangle: Rectangle): Promise<BoundsResult> {
    const boxes = boundsBoxes(rectangle)
    const cap = this.options.boundsResultCap
    const rows = await requests.findInBounds(this.db, boxes, cap + 1, this.#view(viewer))
    return { items: rows.slice(0, cap).map((row) => toListItem(viewer, row, this.options.mapGridMeters)), truncated: rows.length > cap }
  }

  /**
   * Extension (map.md › Maps at low zoom): of the active requests in the rectangle, the MAP_MARKER_CAP
   * nearest its centre (then by id), in the compact form a marker needs. Nearest the centre rather than
   * newest: a KNN read of the requests nearest the centre then answers a dense view, however many it holds.
   * The read takes twice cap + 1: the nearest requests fill a disc, which pokes out of a wide view before
   * cap + 1 of them lie inside it (at the default cap, 87% of 300 views of the bench city needed a second
   * read after reading cap + 1; after twice that, none). A read that does not settle the answer (too few
   * inside, or a tie past them, and not yet past the rectangle's farthest corner) leaves a view with few
   * requests amid many: the rectangle itself is read then.
   */
  async map (viewer: Principal, rectangle: Rectangle): Promise<MapView> {
    const cap = this.options.mapMarkerCap
    const view = this.#view(viewer)
    const boxes = boundsBoxes(rectangle)
    const centre = rectangleCentre(rectangle)
    const point = earthPoint(centre.lat, centre.lon)
    const take = 2 * (cap + 1)
    const rows = await requests.findNearestMarkers(this.db, point, boxes, take, view)
    const last = rows.at(-1)
    let inside = rows.filter((row) => row.inside)
    const settled = last === undefined || last.fetched < take || last.last_knn > farthestChord(point, boxes) ||
      (inside.length > cap && last.last_knn > inside[cap]!.knn)
    if (!settled) inside = await requests.findMarkersInBoxes(this.db, point, boxes, cap + 1, view)
    const markers = inside.slice(0, cap).map(({ knn: _knn, inside: _inside, last_knn: _last, fetched: _fetched, ...row }) =>
      toListItem(viewer, row, this.options.mapGridMeters))
    return { markers, truncated: inside.length > cap }
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
    if (cancelled !== undefined) return cancelled
    // Nothing changed: say why.
    const request = await requests.findRequestParties(this.db, id)
    if (request === undefined || !isVisibleTo(user, request)) throw notFound(REQUEST_NOT_FOUND)
    if (request.requester_id !== user.id && !isModerator(user)) throw badRequest('only the requester can cancel a request')
    throw badRequest('request cannot be cancelled in its current status')
  }
}

/**
 * Under LOCATION_PRIVACY=grid the requests of one cell tie, and reading only one row past the page
 * meant a second, larger read for most searches in a city (cells of 300 m held up to 56 requests at the
 * 99th percentile of the 100k bench city): 63 more rows settle nearly every first page in one read,
 * which made grid searches as fast as exact ones (docs/performance.md › Location privacy).
 */
const GRID_TIE_ROWS = 63

/** Whether the page read with `take` is final (see nearby). */
function isSettled (rows: readonly requests.NearbyRow[], page: Page, take: number, radius: number): boolean {
  const last = rows[page.limit - 1]
  // A page that is not full, or every active request read, or a last row past the radius: nothing more can join.
  if (last === undefined || last.fetched < take || last.distance_meters > radius) return true
  return last.last_knn > last.knn
}
