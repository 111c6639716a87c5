import { raw, sql, type Sql } from '../../../db/sql.js'
import { chordToMeters, earthPoint, type NearbySearch, type Vector } from '../../../lib/geo.js'
import type { Page } from '../../../lib/page.js'
import type { Principal } from '../../../lib/principal.js'
import type { RequestWithDistance } from '../requests.schemas.js'
import {
  ACTIVE, EXACT_VIEW, LIST_ITEM_OWN_COLUMNS, pendingCondition, placeOf, REQUESTER_NAME_OF_U, REQUESTER_SHORT_NAME_OF_U, viewOf,
  type ListItemRow, type SearchContext, type SearchView,
} from './shared.js'
import { toListItem, type DisclosurePolicy } from '../disclosure.js'

/**
 * GET /requests/nearby: active requests within `radius` metres of a point, nearest first, ties by id
 * (rules.md › Search and lists).
 */

/** A row of the nearby read: `knn` is its chord distance, `last_knn` that of the farthest row read, `fetched` how many were read. */
export interface NearbyRow extends ListItemRow { knn: number, last_knn: number, fetched: number }

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
 * whole users table for a page of 20.
 *
 * `take` is written into the text, not sent as a parameter: with an unknown limit PostgreSQL judged the
 * prepared statement's generic plan too dear and planned every search afresh. nearbyTake() keeps the
 * values, and so the statement texts, few. Measurements: docs/performance.md › Why the code is as it is.
 */
export function nearbyStatement (point: Readonly<Vector>, take: number, page: Page, view: SearchView = EXACT_VIEW): Sql {
  if (!Number.isSafeInteger(take) || take < 1) throw new Error(`nearby take must be a positive integer, got ${take}`)
  const { cube } = placeOf(view)
  // ORDER BY knn, the output column: the index scan's order and the distance read are one expression.
  return sql`
  SELECT ${LIST_ITEM_OWN_COLUMNS}, r.requester_id,
    (SELECT ${REQUESTER_NAME_OF_U} FROM users u WHERE u.id = r.requester_id) AS requester_name,
    (SELECT ${REQUESTER_SHORT_NAME_OF_U} FROM users u WHERE u.id = r.requester_id) AS requester_short_name,
    (SELECT t.name FROM request_types t WHERE t.id = r.request_type_id) AS request_type_name,
    r.knn, max(r.knn) OVER () AS last_knn, count(*) OVER () AS fetched
  FROM (
    SELECT r.*, ${cube} <-> cube(ARRAY[${point[0]}, ${point[1]}, ${point[2]}]::float8[]) AS knn
    FROM requests r
    WHERE ${ACTIVE} ${pendingCondition(view)}
    ORDER BY knn
    LIMIT ${raw(String(take))}
  ) r
  ORDER BY r.knn, r.id
  LIMIT ${page.limit} OFFSET ${page.offset}`
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
  let take = nearbyTake(page.offset + page.limit + 1 + (view.grid ? GRID_TIE_ROWS : 0))
  let rows = await db.query<NearbyRow>(nearbyStatement(point, take, page, view))
  while (!isSettled(rows, page, take, radius)) {
    take = nearbyTake(take * 2)
    rows = await db.query<NearbyRow>(nearbyStatement(point, take, page, view))
  }
  return await disclosure.list(viewer, rows.filter((row) => chordToMeters(row.knn) <= radius), toNearbyItem)
}

function toNearbyItem (viewer: Principal, row: NearbyRow, policy: DisclosurePolicy): RequestWithDistance {
  // The list item's own fields, then the distance: one object, no copy.
  const item = toListItem(viewer, row, policy) as RequestWithDistance
  item.distance_meters = chordToMeters(row.knn)
  return item
}
