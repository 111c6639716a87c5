import { join, sql, type Sql } from '../../../db/sql.js'
import { boundsBoxes, type BoundsBox, type Rectangle } from '../../../lib/geo.js'
import type { Principal } from '../../../lib/principal.js'
import type { RequestListItem } from '../requests.schemas.js'
import { ACTIVE, EXACT_VIEW, LIST_ITEM_COLUMNS, LIST_ITEM_OWN_COLUMNS, pendingCondition, placeOf, viewOf, type ListItemRow, type SearchView, } from './shared.js'
import { matchOf, onlySuitable, suitableOf, type SearchContext, type SearchMatch } from './context.js'
import { toListItem } from '../disclosure.js'

/** GET /requests/bounds: active requests in a map rectangle, newest first, at most the configured cap. */

export interface BoundsResult {
  items: RequestListItem[]
  /** The cap cut the answer: more requests lie in the rectangle. */
  truncated: boolean
}

/**
 * The condition of a search over the boxes of a rectangle (1, or 2 when it crosses the antimeridian):
 * active, seen by the view, and inside a box. Each box is an index condition (`location <@ cube`, the
 * GiST index finds the candidates) and the exact latitude/longitude test.
 */
export function inBoxes (boxes: readonly BoundsBox[], view: SearchView, match?: SearchMatch): Sql {
  const { cube, lat, lon } = placeOf(view)
  const tests = boxes.map(({ cube: { lower, upper }, minLat, maxLat, minLon, maxLon }) =>
    sql`(${cube} <@ cube(ARRAY[${lower[0]}::float8, ${lower[1]}::float8, ${lower[2]}::float8], ARRAY[${upper[0]}::float8, ${upper[1]}::float8, ${upper[2]}::float8])
      AND ${lat} BETWEEN ${minLat}::float8 AND ${maxLat}::float8 AND ${lon} BETWEEN ${minLon}::float8 AND ${maxLon}::float8)`)
  return sql`${ACTIVE} ${pendingCondition(view)} ${onlySuitable(match)}
    AND (${join(tests, ' OR ')})`
}

/** Active requests inside the boxes, newest first, at most `limit`. */
export function boundsStatement (boxes: readonly BoundsBox[], limit: number, view: SearchView = EXACT_VIEW, match?: SearchMatch): Sql {
  // The newest are chosen first and only they are joined to their requester and type: a dense rectangle
  // holds thousands of requests, and joining them all before the limit is wasted work.
  return sql`
    SELECT ${LIST_ITEM_COLUMNS}, ${suitableOf(match)} AS suitable
    FROM (
      SELECT ${LIST_ITEM_OWN_COLUMNS}, r.requester_id, r.request_type_id, r.client_id
      FROM requests r
      WHERE ${inBoxes(boxes, view, match)}
      ORDER BY r.created_at DESC, r.id DESC
      LIMIT ${limit}
    ) r
      JOIN users u ON u.id = r.requester_id
      JOIN request_types t ON t.id = r.request_type_id
    ORDER BY r.created_at DESC, r.id DESC`
}

/** Reads one past the cap, which tells whether the cap cut the answer. */
export async function searchBounds (context: SearchContext, viewer: Principal, rectangle: Rectangle, suitableOnly = false): Promise<BoundsResult> {
  const { db, policy, disclosure } = context
  const cap = policy.boundsResultCap
  const rows = await db.query<ListItemRow>(boundsStatement(boundsBoxes(rectangle), cap + 1, viewOf(viewer, policy), matchOf(context, viewer, suitableOnly)))
  const items = await disclosure.list(viewer, rows.slice(0, cap), toListItem)
  return { items, truncated: rows.length > cap }
}
