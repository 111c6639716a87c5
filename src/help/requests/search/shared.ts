import { empty, raw, sql, type Sql } from '../../../db/sql.js'
import { gridPoint } from '../../../lib/grid.js'
import { hasPermission, isModerator, type Principal } from '../../../lib/principal.js'
import type { Location } from '../requests.schemas.js'
import type { RequestStatus } from '../requests.values.js'
import type { CarerOf } from '../visibility.js'
import type { NeedCode } from '../../needs/needs.js'

/**
 * What the lists of requests share: the statuses a search considers, the columns of a list item and
 * the row they make, how a viewer's search sees requests (SearchView), and where a request is shown to
 * a viewer (docs/privacy.md › The `location` field). The searches (nearby.ts, bounds.ts, map.ts), the caller's
 * own list (requests.repo.ts) and the moderation lists use these.
 */

/**
 * The statuses the searches consider (docs/api/conventions.md), written exactly as the predicate of
 * the partial indexes requests_active_location and requests_active_grid_location, so that the planner
 * sees they apply.
 */
export const ACTIVE = raw("r.status IN ('pending_moderation', 'approved', 'in_progress')")

const LOCATION = 'r.assigned_volunteer_id, r.latitude, r.longitude, r.grid_latitude, r.grid_longitude, r.grid_meters'
const LIST_ITEM_OWN = `r.id, r.title, r.description, r.address, r.city, r.urgency, r.status, r.created_at,
  r.window_start, r.window_end, r.series_id, r.confirmed_at, r.needs, r.languages, ${LOCATION}`
/** requester_name is "first_name last_name" (docs/api/help.md › Searches), of the user aliased `u`. */
const REQUESTER_NAME = "u.first_name || ' ' || u.last_name"
/** What a non-party sees under ADDRESS_PRIVACY=parties (docs/privacy.md › `ADDRESS_PRIVACY=parties`): "Erna S." (lib/names.ts initialOf, in SQL). */
const REQUESTER_SHORT_NAME = "u.first_name || ' ' || left(u.last_name, 1) || '.'"

/** What decides a request's `location` for a viewer (locationFor), besides requester_id. */
export const LOCATION_COLUMNS = raw(LOCATION)
/** The columns of a list item that are the request's own, with those its `location` is made from. */
export const LIST_ITEM_OWN_COLUMNS = raw(LIST_ITEM_OWN)
export const REQUESTER_NAME_OF_U = raw(REQUESTER_NAME)
export const REQUESTER_SHORT_NAME_OF_U = raw(REQUESTER_SHORT_NAME)
/** The columns of a ListItemRow; goes with LIST_ITEM_FROM. */
export const LIST_ITEM_COLUMNS = raw(`${LIST_ITEM_OWN}, r.requester_id, ${REQUESTER_NAME} AS requester_name,
  ${REQUESTER_SHORT_NAME} AS requester_short_name, t.name AS request_type_name`)
/** Requests r with their requester u and type t: one query per list, no lookups per item. */
export const LIST_ITEM_FROM = raw(`requests r
  JOIN users u ON u.id = r.requester_id
  JOIN request_types t ON t.id = r.request_type_id`)

/** The columns a request's location is made from (LOCATION_COLUMNS and requester_id). */
export interface LocatedRow {
  requester_id: number
  assigned_volunteer_id: number | null
  status: RequestStatus
  latitude: number
  longitude: number
  grid_latitude: number | null
  grid_longitude: number | null
  grid_meters: number | null
}

/** A list item as read (LIST_ITEM_COLUMNS): toListItem makes the API's item of it for a viewer. */
export interface ListItemRow extends LocatedRow {
  id: number
  title: string
  description: string
  address: string
  city: string | null
  urgency: string
  created_at: Date
  window_start: Date | null
  window_end: Date | null
  series_id: number | null
  confirmed_at: Date | null
  requester_name: string
  requester_short_name: string
  request_type_name: string
  needs: NeedCode[]
  languages: string[]
  /** docs/api/visits.md › Needs and matching: read only by the searches and only for a caller who offers help. */
  suitable?: boolean | null
}

/** The timestamps of a list item, which a hot read may take as PostgreSQL's text (lib/timestamp-text.ts). */
type ListItemTimes = 'created_at' | 'window_start' | 'window_end' | 'confirmed_at'

/** What toListItem makes an item of: a ListItemRow, or one whose timestamps are already text. */
export interface ListedRow extends Omit<ListItemRow, ListItemTimes> {
  created_at: Date | string
  window_start: Date | string | null
  window_end: Date | string | null
  confirmed_at: Date | string | null
}

/**
 * How a search sees requests (docs/privacy.md › `LOCATION_PRIVACY=grid`): `grid` places each at its stored grid point (own partial
 * GiST index, requests_active_grid_location), and `hidePendingFrom`, a user id, leaves out requests in
 * pending_moderation except that user's own. Everything else about the statements is shared.
 */
export interface SearchView { grid: boolean, hidePendingFrom: number | undefined }
export const EXACT_VIEW: SearchView = Object.freeze({ grid: false, hidePendingFrom: undefined })

/** What decides how a viewer's searches see requests: LOCATION_PRIVACY and UNMODERATED_IN_SEARCH. */
export interface ViewPolicy { locationPrivacy: 'exact' | 'grid', unmoderatedInSearch: 'everyone' | 'parties' }

/**
 * How this viewer's searches see requests (docs/privacy.md › `LOCATION_PRIVACY=grid`): moderators and admins on exact points and
 * with every active request; others at grid points under LOCATION_PRIVACY=grid, and without other
 * people's unmoderated requests under UNMODERATED_IN_SEARCH=parties.
 */
export function viewOf (viewer: Principal, policy: ViewPolicy): SearchView {
  const trusted = isModerator(viewer)
  return {
    grid: policy.locationPrivacy === 'grid' && !trusted,
    hidePendingFrom: policy.unmoderatedInSearch === 'parties' && !trusted ? viewer.id : undefined,
  }
}

interface Place { cube: Sql, lat: Sql, lon: Sql }
const place = (alias: string, prefix: string): Place =>
  ({ cube: raw(`${alias}.${prefix}location`), lat: raw(`${alias}.${prefix}latitude`), lon: raw(`${alias}.${prefix}longitude`) })
const PLACES = { r: [place('r', ''), place('r', 'grid_')], k: [place('k', ''), place('k', 'grid_')] } as const

/** The point columns of request alias `alias` a search tests, orders and measures by. */
export const placeOf = (view: SearchView, alias: 'r' | 'k' = 'r'): Place => PLACES[alias][view.grid ? 1 : 0]

/** The UNMODERATED_IN_SEARCH=parties condition, or nothing. */
export const pendingCondition = (view: SearchView): Sql => view.hidePendingFrom === undefined
  ? empty
  : sql`AND (r.status <> 'pending_moderation' OR r.requester_id = ${view.hidePendingFrom}::bigint)`

const VOLUNTEER_SEES_EXACT: readonly RequestStatus[] = ['in_progress', 'completed']

/**
 * Exactly to its requester and her carers (visibility.ts CarerOf), moderators and admins, every coordinator on a
 * client's request (docs/api/on-behalf.md › Coordinators and clients: rows that carry `client_id`; the searches' do not), and its assigned volunteer
 * while in_progress or completed; to everyone else at the centre of its grid cell (docs/privacy.md › The `location` field).
 */
export function seesExactPoint (viewer: Principal, row: Pick<LocatedRow, 'requester_id' | 'assigned_volunteer_id' | 'status'> & CarerOf & { client_id?: number | null }): boolean {
  return viewer.id === row.requester_id || isModerator(viewer) || row.viewer_is_carer === true || (row.client_id != null && hasPermission(viewer, 'coordinate_requests')) ||
    (viewer.id === row.assigned_volunteer_id && VOLUNTEER_SEES_EXACT.includes(row.status))
}

/**
 * The stored grid point when it was computed for this grid size (start-up recomputes the others, so
 * that is every row but one written a moment ago by an instance with another setting); otherwise the
 * same formula on the same point.
 */
export function approximateLocation (row: LocatedRow, gridMeters: number): Location {
  const point = row.grid_meters === gridMeters && row.grid_latitude !== null && row.grid_longitude !== null
    ? { latitude: row.grid_latitude, longitude: row.grid_longitude }
    : gridPoint(row.latitude, row.longitude, gridMeters)
  return { ...point, precision_meters: gridMeters }
}

export function locationFor (viewer: Principal, row: LocatedRow & { client_id?: number | null }, gridMeters: number): Location {
  return seesExactPoint(viewer, row)
    ? { latitude: row.latitude, longitude: row.longitude, precision_meters: 0 }
    : approximateLocation(row, gridMeters)
}

type PointColumns = 'latitude' | 'longitude' | 'grid_latitude' | 'grid_longitude' | 'grid_meters'

/** A detail row as the API shows it: `location` for the viewer, without the columns it was made from. */
export function withLocation<T extends LocatedRow & { client_id?: number | null }> (viewer: Principal, row: T, gridMeters: number): Omit<T, PointColumns> & { location: Location } {
  const { latitude: _lat, longitude: _lon, grid_latitude: _glat, grid_longitude: _glon, grid_meters: _g, ...rest } = row
  return { ...rest, location: locationFor(viewer, row, gridMeters) }
}
