import { join, raw, sql, type Sql } from '../../../db/sql.js'
import { boundsBoxes, earthPoint, farthestChord, rectangleCentre, type BoundsBox, type Rectangle, type Vector } from '../../../lib/geo.js'
import type { Principal } from '../../../lib/principal.js'
import type { MapMarker, MapView } from '../requests.schemas.js'
import { inBoxes } from './bounds.js'
import { ACTIVE, EXACT_VIEW, LOCATION_COLUMNS, locationFor, pendingCondition, placeOf, viewOf, type LocatedRow, type SearchView } from './shared.js'
import { matchOf, onlySuitable, type SearchContext, type SearchMatch } from './context.js'

/**
 * GET /requests/map (extension, docs/api/help.md › Maps): of the active requests in a rectangle, the
 * MAP_MARKER_CAP nearest its centre (then by id), in the compact form a marker needs.
 */

/** What a map marker is made from (MapMarker), with the columns of its `location` and the requester it is exact for. */
const MARKER_COLUMNS = sql`r.id, r.title, r.request_type_id, r.urgency, r.status, r.requester_id, ${LOCATION_COLUMNS}`

/** A marker as read, with where the KNN read stands (see nearestMarkersStatement). */
export interface MarkerRow extends LocatedRow {
  id: number
  title: string
  request_type_id: number
  urgency: string
  knn: number
  inside: boolean
  last_knn: number
  fetched: number
}

const cubeOf = (point: Readonly<Vector>): Sql => sql`cube(ARRAY[${point[0]}, ${point[1]}, ${point[2]}]::float8[])`

/**
 * The map's read: of the `take` active requests nearest the point, in order of distance, then id, those
 * inside the boxes, with only what a marker needs; also the farthest row read (`inside` false unless it
 * is), so that `last_knn` and `fetched` tell whether more can lie inside. A KNN scan like nearby's, so it
 * reads `take` index entries however many requests the view holds. With the boxes as its condition
 * PostgreSQL misjudges how many requests they hold and reads every one of them (a bitmap scan and a
 * sort: about 1,200 rows for a city-centre view at 100k).
 */
export function nearestMarkersStatement (point: Readonly<Vector>, boxes: readonly BoundsBox[], take: number, view: SearchView = EXACT_VIEW, match?: SearchMatch): Sql {
  if (!Number.isSafeInteger(take) || take < 1) throw new Error(`marker take must be a positive integer, got ${take}`)
  const { cube } = placeOf(view)
  const { lat, lon } = placeOf(view, 'k')
  const inside = boxes.map((b) =>
    sql`(${lat} BETWEEN ${b.minLat}::float8 AND ${b.maxLat}::float8 AND ${lon} BETWEEN ${b.minLon}::float8 AND ${b.maxLon}::float8)`)
  return sql`
    SELECT k.*
    FROM (
      SELECT k.*, (${join(inside, ' OR ')}) AS inside, max(k.knn) OVER () AS last_knn, count(*) OVER () AS fetched
      FROM (
        SELECT ${MARKER_COLUMNS}, ${cube} <-> ${cubeOf(point)} AS knn
        FROM requests r
        WHERE ${ACTIVE} ${pendingCondition(view)} ${onlySuitable(match)}
        ORDER BY knn
        LIMIT ${raw(String(take))}
      ) k
    ) k
    WHERE k.inside OR k.knn = k.last_knn
    ORDER BY k.knn, k.id`
}

/**
 * The same answer through the boxes' condition: of the active requests inside, the `limit` nearest the
 * point, in order of distance, then id. Reads every request inside, so it is for views that hold few.
 */
export function markersInBoxesStatement (point: Readonly<Vector>, boxes: readonly BoundsBox[], limit: number, view: SearchView = EXACT_VIEW, match?: SearchMatch): Sql {
  return sql`
    SELECT ${MARKER_COLUMNS}, ${placeOf(view).cube} <-> ${cubeOf(point)} AS knn, true AS inside, 0 AS last_knn, 0 AS fetched
    FROM requests r
    WHERE ${inBoxes(boxes, view, match)}
    ORDER BY knn, r.id
    LIMIT ${limit}`
}

/**
 * Nearest the centre rather than newest: a KNN read of the requests nearest the centre then answers a
 * dense view, however many it holds. The read takes twice cap + 1: the nearest requests fill a disc,
 * which pokes out of a wide view before cap + 1 of them lie inside it (at the default cap, 87% of 300
 * views of the bench city needed a second read after reading cap + 1; after twice that, none). A read
 * that does not settle the answer (too few inside, or a tie past them, and not yet past the rectangle's
 * farthest corner) leaves a view with few requests amid many: the rectangle itself is read then.
 */
export async function searchMap (context: SearchContext, viewer: Principal, rectangle: Rectangle, centre = rectangleCentre(rectangle), suitableOnly = false): Promise<MapView> {
  const { db, policy } = context
  // Markers carry no `suitable`: the map shows what `suitable=true` lets through.
  const match = suitableOnly ? matchOf(context, viewer, true) : undefined
  const cap = policy.mapMarkerCap
  const view = viewOf(viewer, policy)
  const boxes = boundsBoxes(rectangle)
  const point = earthPoint(centre.lat, centre.lon)
  const take = 2 * (cap + 1)
  const rows = await db.query<MarkerRow>(nearestMarkersStatement(point, boxes, take, view, match))
  const last = rows.at(-1)
  let inside = rows.filter((row) => row.inside)
  const settled = last === undefined || last.fetched < take || last.last_knn > farthestChord(point, boxes) ||
    (inside.length > cap && last.last_knn > inside[cap]!.knn)
  if (!settled) inside = await db.query<MarkerRow>(markersInBoxesStatement(point, boxes, cap + 1, view, match))
  const markers: MapMarker[] = []
  for (let i = 0; i < inside.length && i < cap; i++) markers.push(toMarker(viewer, inside[i]!, policy.mapGridMeters))
  return { markers, truncated: inside.length > cap }
}

function toMarker (viewer: Principal, row: MarkerRow, gridMeters: number): MapMarker {
  return {
    id: row.id,
    title: row.title,
    request_type_id: row.request_type_id,
    urgency: row.urgency,
    status: row.status,
    location: locationFor(viewer, row, gridMeters),
  }
}
