import { chordToMeters, earthPoint, type NearbySearch, type Vector } from '../../../lib/geo.js'
import type { Page } from '../../../lib/page.js'
import type { Principal } from '../../../lib/principal.js'
import { isoTimestamp, isoTimestampOrNull } from '../../../lib/timestamp-text.js'
import type { RequestWithDistance } from '../requests.schemas.js'
import {
  ACTIVE, EXACT_VIEW, LIST_ITEM_OWN_COLUMNS, LOCATION_COLUMNS, placeOf, REQUESTER_NAME_OF_U, REQUESTER_SHORT_NAME_OF_U, viewOf,
  type ListItemRow, type SearchContext, type SearchView,
} from './shared.js'
import { toListItem, type DisclosurePolicy } from '../disclosure.js'

/**
 * GET /requests/nearby: active requests within `radius` metres of a point, nearest first, ties by id
 * (rules.md › Search and lists).
 */

/**
 * A row of the nearby read: `knn` is its chord distance, `last_knn` that of the farthest row read, `fetched` how many
 * were read. Its timestamps come as PostgreSQL's text (isoTimestamp turns them into the API's form).
 */
export interface NearbyRow extends Omit<ListItemRow, 'created_at' | 'window_start' | 'window_end' | 'confirmed_at'> {
  created_at: string
  window_start: string | null
  window_end: string | null
  confirmed_at: string | null
  knn: number
  last_knn: number
  fetched: number
}

/** A statement's text with its parameters, ready for Queryable.query(text, values). */
export interface NearbyStatement { text: string, values: unknown[] }

/** How a statement's text varies: the read limit, the point columns, the pending condition and whether short names are read. */
interface Shape { take: number, grid: boolean, hidePending: boolean, shortNames: boolean }

/**
 * Of the `take` active requests nearest `point` (where ll_to_earth puts the searched point: geo.ts
 * earthPoint), the page, in order of distance, then id.
 *
 * Why this shape: the inner query is a KNN scan of the partial GiST index (`Order By` on
 * `location <-> point`, the chord distance, which orders exactly as the great-circle distance), and it
 * reads only `take` index entries however sparse or dense the area. PostgreSQL 15 uses the index for an
 * ORDER BY of the distance operator alone, never for "distance, then id" (PGlite's PostgreSQL 18 can), and a
 * radius condition in the WHERE invites a bitmap scan of the whole circle followed by a sort. So the
 * radius is applied to the ordered rows (searchNearby), and ties are broken by id over the rows read:
 * `last_knn` (the farthest row read) and `fetched` tell whether a tie may continue past them.
 * Names are looked up per row read (subqueries on the primary keys): joined, the planner may hash the
 * whole users table for a page of 20. The short name ("Erna S.") only under ADDRESS_PRIVACY=parties,
 * the only setting that shows it; timestamps as text, which the answer needs, not as Dates.
 *
 * `take` is written into the text, not sent as a parameter: with an unknown limit PostgreSQL judged the
 * prepared statement's generic plan too dear and planned every search afresh. nearbyTake() keeps the
 * values, and so the statement texts, few; each text is built once (nearbyText), so a search neither
 * builds nor hashes a new string. Measurements: docs/performance.md › Why the code is as it is, › Nearby search CPU.
 */
export function nearbyStatement (point: Readonly<Vector>, take: number, page: Page, view: SearchView = EXACT_VIEW, shortNames = true): NearbyStatement {
  if (!Number.isSafeInteger(take) || take < 1) throw new Error(`nearby take must be a positive integer, got ${take}`)
  const hidePending = view.hidePendingFrom !== undefined
  const text = nearbyText({ take, grid: view.grid, hidePending, shortNames })
  const values: unknown[] = [point[0], point[1], point[2], page.limit, page.offset]
  if (hidePending) values.push(view.hidePendingFrom)
  return { text, values }
}

const TEXTS = new Map<string, string>()

/** The text of a shape, built once; the parameters are $1-$3 the point, $4 and $5 the page, $6 the viewer under hidePending. */
function nearbyText (shape: Shape): string {
  const key = `${shape.take} ${shape.grid} ${shape.hidePending} ${shape.shortNames}`
  let text = TEXTS.get(key)
  if (text === undefined) {
    text = buildNearbyText(shape)
    TEXTS.set(key, text)
  }
  return text
}

function buildNearbyText ({ take, grid, hidePending, shortNames }: Shape): string {
  const { cube } = placeOf({ grid, hidePendingFrom: undefined })
  const pending = hidePending ? "AND (r.status <> 'pending_moderation' OR r.requester_id = $6::bigint)" : ''
  const shortName = shortNames ? `(SELECT ${REQUESTER_SHORT_NAME_OF_U.sql} FROM users u WHERE u.id = r.requester_id)` : 'NULL::text'
  // ORDER BY knn, the output column: the index scan's order and the distance read are one expression.
  // The inner read keeps only the columns the answer uses; the timestamps leave as text (isoTimestamp).
  return `
  SELECT r.id, r.title, r.description, r.address, r.city, r.urgency, r.status,
    r.created_at::text AS created_at, r.window_start::text AS window_start, r.window_end::text AS window_end,
    r.series_id, r.confirmed_at::text AS confirmed_at, ${LOCATION_COLUMNS.sql}, r.requester_id,
    (SELECT ${REQUESTER_NAME_OF_U.sql} FROM users u WHERE u.id = r.requester_id) AS requester_name,
    ${shortName} AS requester_short_name,
    (SELECT t.name FROM request_types t WHERE t.id = r.request_type_id) AS request_type_name,
    r.knn, max(r.knn) OVER () AS last_knn, count(*) OVER () AS fetched
  FROM (
    SELECT ${LIST_ITEM_OWN_COLUMNS.sql}, r.requester_id, r.request_type_id, ${cube.sql} <-> cube(ARRAY[$1, $2, $3]::float8[]) AS knn
    FROM requests r
    WHERE ${ACTIVE.sql} ${pending}
    ORDER BY knn
    LIMIT ${take}
  ) r
  ORDER BY r.knn, r.id
  LIMIT $4 OFFSET $5`
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

/** Whether the page read with `take` is final (see searchNearby). */
function isSettled (rows: readonly NearbyRow[], page: Page, take: number, radius: number): boolean {
  const last = rows[page.limit - 1]
  // A page that is not full, or every active request read, or a last row past the radius: nothing more can join.
  if (last === undefined || last.fetched < take || chordToMeters(last.knn) > radius) return true
  return last.last_knn > last.knn
}

/**
 * Reads one row past the page: when that row lies farther than the page's last, no tie crosses the
 * page's end; otherwise reads twice as many, which only a group of requests at exactly the same
 * distance can cause. Under `grid` every request of a cell is at the same distance, so the first read
 * there takes GRID_TIE_ROWS more.
 */
export async function searchNearby ({ db, policy, disclosure }: SearchContext, viewer: Principal, { lat, lon, radius }: NearbySearch, page: Page): Promise<RequestWithDistance[]> {
  const view = viewOf(viewer, policy)
  const point = earthPoint(lat, lon)
  const shortNames = policy.addressPrivacy === 'parties'
  let take = nearbyTake(page.offset + page.limit + 1 + (view.grid ? GRID_TIE_ROWS : 0))
  let statement = nearbyStatement(point, take, page, view, shortNames)
  let rows = await db.query<NearbyRow>(statement)
  while (!isSettled(rows, page, take, radius)) {
    take = nearbyTake(take * 2)
    statement = nearbyStatement(point, take, page, view, shortNames)
    rows = await db.query<NearbyRow>(statement)
  }
  return await disclosure.list(viewer, rows.filter((row) => chordToMeters(row.knn) <= radius), toNearbyItem)
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
