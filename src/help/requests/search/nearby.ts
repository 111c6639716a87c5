import { chordToMeters, earthPoint, type NearbySearch, type Vector } from '../../../lib/geo.js'
import type { Page } from '../../../lib/page.js'
import { isModerator, type Principal } from '../../../lib/principal.js'
import { isoTimestamp, isoTimestampOrNull } from '../../../lib/timestamp-text.js'
import type { RequestWithDistance } from '../requests.schemas.js'
import { ACTIVE, EXACT_VIEW, placeOf, REQUESTER_NAME_OF_U, REQUESTER_SHORT_NAME_OF_U, viewOf, type ListItemRow, type SearchView, } from './shared.js'
import { matchOf, type SearchContext, type SearchMatch, type SearchPolicy } from './context.js'
import { empty, raw, sql, type Sql } from '../../../db/sql.js'
import { suitableFor } from '../../needs/matching.js'
import { toListItem, type DisclosurePolicy } from '../disclosure.js'

/**
 * GET /requests/nearby: active requests within `radius` metres of a point, nearest first, ties by id
 * (docs/api/help.md › Searches).
 */

/**
 * A row of the nearby read: `knn` is its chord distance. Its timestamps come as PostgreSQL's text (isoTimestamp turns
 * them into the API's form). Only the statement with the window columns (see nearbyStatement) has `last_knn`, the chord
 * distance of the farthest row read, and `fetched`, how many were read; for a trusted viewer (isModerator) the grid
 * columns are absent, and `assigned_volunteer_id` too under ADDRESS_PRIVACY=full: locationFor never reads them for him.
 */
export interface NearbyRow extends Omit<ListItemRow, 'created_at' | 'window_start' | 'window_end' | 'confirmed_at'> {
  created_at: string
  window_start: string | null
  window_end: string | null
  confirmed_at: string | null
  knn: number
  last_knn?: number
  fetched?: number
}

/** A statement's text with its parameters, ready for Queryable.query(text, values). */
export interface NearbyStatement { text: string, values: unknown[] }

/**
 * How a statement's text varies: the read limit, the point columns, the pending condition, whether short names are
 * read, whether the grid columns (`located`) and the assigned volunteer are read, and whether the window columns are.
 */
interface Shape {
  take: number,
  grid: boolean,
  hidePending: boolean,
  shortNames: boolean,
  located: boolean,
  volunteer: boolean,
  window: boolean,
  /** docs/api/visits.md › Needs and matching: `suitable` read for a caller who offers help, and `suitable=true` as a condition. */
  suitable: boolean,
  suitableOnly: boolean
}

/** A caller who offers help, for `suitable` (on `today`, TIME_ZONE's date), and whether only suitable requests are wanted. */
export type NearbyMatch = SearchMatch

/** What a viewer's rows must carry, besides what every row carries (see NearbyRow). */
export interface NearbyColumns { shortNames: boolean, located: boolean, volunteer: boolean }
/** Every column: what a stranger's search reads under ADDRESS_PRIVACY=parties, and the default of nearbyStatement. */
export const ALL_COLUMNS: NearbyColumns = Object.freeze({ shortNames: true, located: true, volunteer: true })

/**
 * Of the `take` active requests nearest `point` (where ll_to_earth puts the searched point: geo.ts
 * earthPoint), the page, in order of distance, then id.
 *
 * Why this shape: the inner query is a KNN scan of the partial GiST index (`Order By` on
 * `location <-> point`, the chord distance, which orders exactly as the great-circle distance), and it
 * reads only `take` index entries however sparse or dense the area. PostgreSQL 15 uses the index for an
 * ORDER BY of the distance operator alone, never for "distance, then id" (PGlite's PostgreSQL 18 can), and a
 * radius condition in the WHERE invites a bitmap scan of the whole circle followed by a sort. So the
 * radius is applied to the ordered rows (searchNearby), and ties are broken by id over the rows read, which
 * must show whether a tie may continue past them. When `take` is one row past the page (a first page, exact
 * points) the statement returns that row too, and it is the farthest read; otherwise (grid, later pages) it
 * returns the page with `last_knn` (the farthest row read) and `fetched` as window columns. Two window
 * functions cost PostgreSQL more than a 21st row costs the service (docs/performance.md › Nearby search CPU).
 * Names are looked up per row read (subqueries on the primary keys): joined, the planner may hash the
 * whole users table for a page of 20. The short name ("Erna S.") only under ADDRESS_PRIVACY=parties,
 * the only setting that shows it; timestamps as text, which the answer needs, not as Dates.
 *
 * `take` is written into the text, not sent as a parameter: with an unknown limit PostgreSQL judged the
 * prepared statement's generic plan too dear and planned every search afresh. nearbyTake() keeps the
 * values, and so the statement texts, few; each shape's statement is built once (nearbyTemplate), so a search
 * neither builds nor hashes a new string, only puts its values in the template's slots. Measurements:
 * docs/performance.md › Why the code is as it is, › Nearby search CPU.
 */
export function nearbyStatement (
  point: Readonly<Vector>, take: number, page: Page, view: SearchView = EXACT_VIEW, columns: NearbyColumns = ALL_COLUMNS, match?: NearbyMatch
): NearbyStatement {
  if (!Number.isSafeInteger(take) || take < 1) throw new Error(`nearby take must be a positive integer, got ${take}`)
  const hidePending = view.hidePendingFrom !== undefined
  // Without the window columns the statement returns the page and the one row past it, which is the last row read.
  const window = take !== page.offset + page.limit + 1
  const template = nearbyTemplate({ take, grid: view.grid, hidePending, window, ...columns, suitable: match !== undefined, suitableOnly: match?.only === true })
  // In the order of SLOTS' indexes.
  const given = [point[0], point[1], point[2], window ? page.limit : page.limit + 1, page.offset, view.hidePendingFrom, match?.viewerId, match?.today]
  return { text: template.text, values: template.slots.map((slot) => given[slot.index]) }
}

/**
 * Stands in a cached statement for one of a search's values (the point, the rows returned, the viewer of the pending
 * condition, the caller and date of `suitable`); a template's `values` are these, in their placeholders' order.
 */
interface Slot { readonly index: number }
const SLOTS = Object.freeze({ x: { index: 0 }, y: { index: 1 }, z: { index: 2 }, limit: { index: 3 }, offset: { index: 4 }, pendingViewer: { index: 5 }, viewer: { index: 6 }, today: { index: 7 } } satisfies Record<string, Slot>)
const ALL_SLOTS: readonly Slot[] = Object.values(SLOTS)

const TEMPLATES = new Map<string, { text: string, slots: readonly Slot[] }>()

/** A shape's statement as the tagged template writes it, built once: its text, and which value goes in each placeholder. */
function nearbyTemplate (shape: Shape): { text: string, slots: readonly Slot[] } {
  const key = `${shape.take} ${shape.grid} ${shape.hidePending} ${shape.shortNames} ${shape.located} ${shape.volunteer} ${shape.window} ${shape.suitable} ${shape.suitableOnly}`
  let template = TEMPLATES.get(key)
  if (template === undefined) {
    const statement = nearbySql(shape)
    const slots = statement.values as Slot[]
    // A value that is no slot would be cached with the text and reused by every later search of this shape.
    if (!slots.every((slot) => ALL_SLOTS.includes(slot))) throw new Error('the nearby statement takes every value through a slot')
    template = { text: statement.text, slots }
    TEMPLATES.set(key, template)
  }
  return template
}

function nearbySql ({ take, grid, hidePending, shortNames, located, volunteer, window, suitable, suitableOnly }: Shape): Sql {
  const { cube } = placeOf({ grid, hidePendingFrom: undefined })
  const matching = suitable ? suitableFor(sql`${SLOTS.viewer}::bigint`, sql`${SLOTS.today}::date`) : empty
  // Only what the caller can do: tested on the rows the index scan reads, nearest first, so the LIMIT still stops it.
  const only = suitableOnly ? sql`AND ${matching}` : empty
  const pending = hidePending ? sql`AND (r.status <> 'pending_moderation' OR r.requester_id = ${SLOTS.pendingViewer}::bigint)` : empty
  const shortName = shortNames ? sql`(SELECT ${REQUESTER_SHORT_NAME_OF_U} FROM users u WHERE u.id = r.requester_id)` : raw('NULL::text')
  const place = raw(`${volunteer ? 'r.assigned_volunteer_id, ' : ''}r.latitude, r.longitude${located ? ', r.grid_latitude, r.grid_longitude, r.grid_meters' : ''}`)
  const suitableColumn = suitable ? (suitableOnly ? raw('true') : matching) : raw('NULL::boolean')
  const windowColumns = raw(window ? ', max(r.knn) OVER () AS last_knn, count(*) OVER () AS fetched' : '')
  // ORDER BY knn, the output column: the index scan's order and the distance read are one expression.
  // The inner read keeps only the columns the answer uses; the timestamps leave as text (isoTimestamp).
  return sql`
  SELECT r.id, r.title, r.description, r.address, r.city, r.urgency, r.status,
    r.created_at::text AS created_at, r.window_start::text AS window_start, r.window_end::text AS window_end,
    r.series_id, r.confirmed_at::text AS confirmed_at, ${place}, r.requester_id,
    (SELECT ${REQUESTER_NAME_OF_U} FROM users u WHERE u.id = r.requester_id) AS requester_name,
    ${shortName} AS requester_short_name,
    (SELECT t.name FROM request_types t WHERE t.id = r.request_type_id) AS request_type_name,
    r.needs, r.languages, ${suitableColumn} AS suitable,
    r.knn${windowColumns}
  FROM (
    SELECT r.id, r.title, r.description, r.address, r.city, r.urgency, r.status, r.created_at,
      r.window_start, r.window_end, r.series_id, r.confirmed_at, ${place}, r.requester_id, r.request_type_id,
      r.needs, r.languages, r.client_id, ${cube} <-> cube(ARRAY[${SLOTS.x}, ${SLOTS.y}, ${SLOTS.z}]::float8[]) AS knn
    FROM requests r
    WHERE ${ACTIVE} ${pending} ${only}
    ORDER BY knn
    LIMIT ${raw(String(take))}
  ) r
  ORDER BY r.knn, r.id
  LIMIT ${SLOTS.limit} OFFSET ${SLOTS.offset}`
}

/** The first page of 20 reads 21 rows (one past the page); other reads are rounded up to 21 · 2^k. */
export function nearbyTake (atLeast: number): number {
  let take = 21
  while (take < atLeast && take < Number.MAX_SAFE_INTEGER) take = Math.min(take * 2, Number.MAX_SAFE_INTEGER)
  return take
}

/**
 * Under LOCATION_PRIVACY=grid the requests of one cell tie, and reading only one row past the page
 * meant a second, larger read for most searches in a city (cells of 300 m held up to 56 requests at the
 * 99th percentile of the 100k bench city): 63 more rows settle nearly every first page in one read,
 * which made grid searches as fast as exact ones (docs/performance.md › Location privacy).
 */
const GRID_TIE_ROWS = 63

/**
 * Whether the page read with `take` is final (see searchNearby). Without the window columns the rows are the page
 * and the one row past it, which is then the last row read: how many were read and the farthest follow from them.
 */
function isSettled (rows: readonly NearbyRow[], page: Page, take: number, radius: number): boolean {
  const last = rows[page.limit - 1]
  // A page that is not full, or every active request read, or a last row past the radius: nothing more can join.
  if (last === undefined || chordToMeters(last.knn) > radius) return true
  const fetched = last.fetched ?? page.offset + rows.length
  const lastKnn = last.last_knn ?? rows[rows.length - 1]!.knn
  return fetched < take || lastKnn > last.knn
}

/**
 * Reads one row past the page: when the farthest row read lies farther than the page's last, no tie crosses the
 * page's end; otherwise reads twice as many, which only a group of requests at exactly the same distance can cause.
 * Under `grid` every request of a cell is at the same distance, so the first read there takes GRID_TIE_ROWS more.
 * What a row carries depends on the viewer (nearbyColumns).
 */
export async function searchNearby (
  context: SearchContext, viewer: Principal, { lat, lon, radius }: NearbySearch, page: Page, suitableOnly = false
): Promise<RequestWithDistance[]> {
  const { db, policy, disclosure } = context
  const view = viewOf(viewer, policy)
  const point = earthPoint(lat, lon)
  const columns = nearbyColumns(viewer, policy)
  const match = matchOf(context, viewer, suitableOnly)
  let take = nearbyTake(page.offset + page.limit + 1 + (view.grid ? GRID_TIE_ROWS : 0))
  let rows = await db.query<NearbyRow>(nearbyStatement(point, take, page, view, columns, match))
  while (!isSettled(rows, page, take, radius)) {
    take = nearbyTake(take * 2)
    rows = await db.query<NearbyRow>(nearbyStatement(point, take, page, view, columns, match))
  }
  // The row past the page, when the statement returned it, is no part of the answer.
  const shown = rows.length > page.limit ? rows.slice(0, page.limit) : rows
  return await disclosure.list(viewer, shown.filter((row) => chordToMeters(row.knn) <= radius), toNearbyItem)
}

/**
 * The columns this viewer's rows need (docs/privacy.md › The `location` field, docs/privacy.md › `ADDRESS_PRIVACY=parties`, › Access records): moderators and admins see
 * every exact point, so their rows need no grid point, nor the assigned volunteer unless an access record may name
 * him (roleOf, under ADDRESS_PRIVACY=parties, the only setting that also shows short names).
 */
function nearbyColumns (viewer: Principal, policy: SearchPolicy): NearbyColumns {
  const parties = policy.addressPrivacy === 'parties'
  const trusted = isModerator(viewer)
  return { shortNames: parties, located: !trusted, volunteer: !trusted || parties }
}

function toNearbyItem (viewer: Principal, row: NearbyRow, policy: DisclosurePolicy): RequestWithDistance {
  // The list item's own fields, its timestamps in the API's form, then the distance: one object, no copy.
  const item = toListItem(viewer, row, policy) as RequestWithDistance
  item.created_at = isoTimestamp(row.created_at)
  item.window_start = isoTimestampOrNull(row.window_start)
  item.window_end = isoTimestampOrNull(row.window_end)
  item.confirmed_at = isoTimestampOrNull(row.confirmed_at)
  item.distance_meters = chordToMeters(row.knn)
  return item
}
