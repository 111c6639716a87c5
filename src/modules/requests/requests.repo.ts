import { maybeOne, type Queryable } from '../../db/database.js'
import type { GridPoint } from '../../lib/grid.js'
import type { Page } from '../../lib/page.js'
import { chordToMeters, earthPoint, type BoundsBox } from './geo.js'
import type { LocatedRow } from './location.js'
import type { CreateRequestInput, MapMarker, Request, RequestDetail, RequestListItem, RequestStatus, RequestWithDistance } from './requests.schemas.js'

/**
 * Owns the `requests` table: every statement that writes a request row is in this file, whichever
 * module's service runs it (requests: create and cancel; moderation: approve and reject; responses:
 * assign, unassign and complete), so the row's state changes can be read, and their conditions
 * checked, in one place. See src/modules/README.md.
 */

const REQUEST_COLUMNS = `r.id, r.requester_id, r.request_type_id, r.assigned_volunteer_id, r.title, r.description,
  r.address, r.city, r.desired_completion_date, r.urgency, r.status, r.contact_phone, r.contact_notes,
  r.created_at, r.updated_at`

/** What decides a request's `location` for a viewer (location.ts), besides requester_id. */
const LOCATION_COLUMNS = 'r.assigned_volunteer_id, r.latitude, r.longitude, r.grid_latitude, r.grid_longitude, r.grid_meters'

/** The columns of RequestListItem that are the request's own, with those its `location` is made from. */
const LIST_ITEM_OWN_COLUMNS = `r.id, r.title, r.description, r.address, r.city, r.urgency, r.status, r.created_at, ${LOCATION_COLUMNS}`

/** requester_name is "first_name last_name" (rules.md › Search and lists). */
const requesterName = (alias: string) => `${alias}.first_name || ' ' || ${alias}.last_name`

/** The columns of a ListItemRow; goes with LIST_ITEM_FROM. */
export const LIST_ITEM_COLUMNS = `${LIST_ITEM_OWN_COLUMNS}, r.requester_id, ${requesterName('u')} AS requester_name, t.name AS request_type_name`

/** A list item as read: the service turns the location columns into `location` for its viewer (location.ts). */
export type ListItemRow = Omit<RequestListItem, 'location'> & LocatedRow
export type NearbyItemRow = Omit<RequestWithDistance, 'location'> & LocatedRow
export type DetailRow = Omit<RequestDetail, 'location'> & LocatedRow

/** Requests r with their requester u and type t: one query per list, no lookups per item. */
export const LIST_ITEM_FROM = `requests r
  JOIN users u ON u.id = r.requester_id
  JOIN request_types t ON t.id = r.request_type_id`

/**
 * The statuses the searches consider (interface.md › Requests), written exactly as the predicate of
 * the partial index requests_active_location, so that the planner sees the index applies.
 */
const ACTIVE = "r.status IN ('pending_moderation', 'approved', 'in_progress')"

/**
 * How a search sees requests (privacy.md §1): `grid` places each at its stored grid point (own partial
 * GiST index, requests_active_grid_location), and `hidePendingFrom`, a user id, leaves out requests in
 * pending_moderation except that user's own. Everything else about the statements is shared.
 */
export interface SearchView { grid: boolean, hidePendingFrom: number | undefined }
export const EXACT_VIEW: SearchView = Object.freeze({ grid: false, hidePendingFrom: undefined })

/** The point columns a search tests, orders and measures by. */
const placeOf = (view: SearchView) => view.grid
  ? { cube: 'r.grid_location', lat: 'r.grid_latitude', lon: 'r.grid_longitude' }
  : { cube: 'r.location', lat: 'r.latitude', lon: 'r.longitude' }

/** The UNMODERATED_IN_SEARCH=parties condition, its user being parameter `$n`. */
const pendingCondition = (view: SearchView, n: number) => view.hidePendingFrom === undefined
  ? ''
  : `AND (r.status <> 'pending_moderation' OR r.requester_id = $${n}::bigint)`

const userInfo = (alias: string) =>
  `json_build_object('id', ${alias}.id, 'email', ${alias}.email, 'first_name', ${alias}.first_name,
    'last_name', ${alias}.last_name, 'email_verified', ${alias}.email_verified)`

/**
 * The new request, or undefined when `request_type_id` names no active type: the check and the insert are
 * one statement, so creating a request costs one round trip.
 */
export function insertRequest (db: Queryable, requesterId: number, input: CreateRequestInput, grid: GridPoint, gridMeters: number): Promise<Request | undefined> {
  return maybeOne<Request>(db, /* sql */ `
    INSERT INTO requests AS r (requester_id, request_type_id, title, description, latitude, longitude, address, city,
      desired_completion_date, urgency, contact_phone, contact_notes, grid_latitude, grid_longitude, grid_meters)
    SELECT $1::bigint, t.id, $3::text, $4::text, $5::float8, $6::float8, $7::text, $8::text, $9::timestamptz, $10::text, $11::text, $12::text,
      $13::float8, $14::float8, $15::integer
    FROM request_types t WHERE t.id = $2::bigint AND t.is_active
    RETURNING ${REQUEST_COLUMNS}`,
  [requesterId, input.request_type_id, input.title, input.description, input.latitude, input.longitude, input.address,
    input.city ?? null, input.desired_completion_date ?? null, input.urgency, input.contact_phone ?? null, input.contact_notes ?? null,
    grid.latitude, grid.longitude, gridMeters])
}

/** The request with its requester, type and assigned volunteer, in one query. */
export function findRequestDetail (db: Queryable, id: number): Promise<DetailRow | undefined> {
  return maybeOne<DetailRow>(db, /* sql */ `
    SELECT ${REQUEST_COLUMNS}, ${LOCATION_COLUMNS},
      ${userInfo('u')} AS requester,
      json_build_object('id', t.id, 'name', t.name, 'description', t.description, 'icon', t.icon, 'is_active', t.is_active) AS request_type,
      CASE WHEN v.id IS NULL THEN NULL ELSE ${userInfo('v')} END AS assigned_volunteer
    FROM requests r
      JOIN users u ON u.id = r.requester_id
      JOIN request_types t ON t.id = r.request_type_id
      LEFT JOIN users v ON v.id = r.assigned_volunteer_id
    WHERE r.id = $1`, [id])
}

/** Who may see what of one request: enough to decide without loading the whole detail. */
export function findRequestParties (db: Queryable, id: number): Promise<{ requester_id: number, assigned_volunteer_id: number | null, status: RequestStatus } | undefined> {
  return maybeOne(db, 'SELECT requester_id, assigned_volunteer_id, status FROM requests WHERE id = $1', [id])
}

/** The caller's own requests, any status, newest first. */
export function listByRequester (db: Queryable, requesterId: number, page: Page): Promise<ListItemRow[]> {
  return db.query<ListItemRow>(/* sql */ `
    SELECT ${LIST_ITEM_COLUMNS}
    FROM ${LIST_ITEM_FROM}
    WHERE r.requester_id = $1
    ORDER BY r.created_at DESC, r.id DESC
    LIMIT $2 OFFSET $3`, [requesterId, page.limit, page.offset])
}

/**
 * Nearby search around the point ($1, $2, $3) that ll_to_earth gives (geo.ts earthPoint): of the `take`
 * active requests nearest it, the page at offset $4 of size $5, in order of distance, then id.
 *
 * Why this shape: the inner query is a KNN scan of the partial GiST index (`Order By` on
 * `location <-> point`, the chord distance, which orders exactly as the great-circle distance), and it
 * reads only `take` index entries however sparse or dense the area. PostgreSQL 15 uses the index for an
 * ORDER BY of the distance operator alone, never for "distance, then id" (PGlite's PostgreSQL 18 can), and a
 * radius condition in the WHERE invites a bitmap scan of the whole circle followed by a sort. So the
 * radius is applied by the caller to the ordered rows, and ties are broken by id over the rows read:
 * `last_knn` (the farthest row read) and `fetched` tell the caller whether a tie may continue past them.
 * Names are looked up per row read (subqueries on the primary keys): joined, the planner may hash the
 * whole users table for a page of 20.
 *
 * `take` is written into the text, not sent as a parameter: with an unknown limit PostgreSQL judged the
 * prepared statement's generic plan too dear and planned every search afresh. nearbyTake() keeps the
 * values, and so the statement texts, few. Measurements: docs/performance.md › Why the code is as it is.
 */
const POINT = 'cube(ARRAY[$1, $2, $3]::float8[])'

export function nearbySql (take: number, view: SearchView = EXACT_VIEW): string {
  if (!Number.isSafeInteger(take) || take < 1) throw new Error(`nearby take must be a positive integer, got ${take}`)
  const { cube } = placeOf(view)
  return /* sql */ `
  SELECT ${LIST_ITEM_OWN_COLUMNS}, r.requester_id,
    (SELECT ${requesterName('u')} FROM users u WHERE u.id = r.requester_id) AS requester_name,
    (SELECT t.name FROM request_types t WHERE t.id = r.request_type_id) AS request_type_name,
    r.knn, max(r.knn) OVER () AS last_knn, count(*) OVER () AS fetched
  FROM (
    SELECT r.*, ${cube} <-> ${POINT} AS knn
    FROM requests r
    WHERE ${ACTIVE} ${pendingCondition(view, 6)}
    ORDER BY ${cube} <-> ${POINT}
    LIMIT ${take}
  ) r
  ORDER BY r.knn, r.id
  LIMIT $5 OFFSET $4`
}

/** The first page of 20 reads 21 rows (one past the page); other reads are rounded up to 21 · 2^k. */
export function nearbyTake (atLeast: number): number {
  let take = 21
  while (take < atLeast && take < Number.MAX_SAFE_INTEGER) take = Math.min(take * 2, Number.MAX_SAFE_INTEGER)
  return take
}

/** `knn` is the chord distance of the row, `last_knn` that of the farthest row read, `fetched` how many were read. */
export type NearbyRow = NearbyItemRow & { knn: number, last_knn: number, fetched: number }

export function nearbyParams (lat: number, lon: number, page: Page, view: SearchView = EXACT_VIEW): number[] {
  const params = [...earthPoint(lat, lon), page.offset, page.limit]
  return view.hidePendingFrom === undefined ? params : [...params, view.hidePendingFrom]
}

/** `take` must come from nearbyTake(). */
export async function findNearest (db: Queryable, lat: number, lon: number, take: number, page: Page, view: SearchView = EXACT_VIEW): Promise<NearbyRow[]> {
  const rows = await db.query<NearbyRow>(nearbySql(take, view), nearbyParams(lat, lon, page, view))
  for (const row of rows) row.distance_meters = chordToMeters(row.knn)
  return rows
}

/**
 * The condition of a bounds search over 1 box, or 2 when the rectangle crosses the antimeridian; the
 * parameter after the boxes' is the row limit. Each box is an index condition (`location <@ cube`, the
 * GiST index finds the candidates) and the exact latitude/longitude test.
 */
function inBoxes (boxes: number, view: SearchView): string {
  const place = placeOf(view)
  const box = (n: number) => {
    const p = (i: number) => `$${n * 10 + i}::float8`
    return `(${place.cube} <@ cube(ARRAY[${p(1)}, ${p(2)}, ${p(3)}], ARRAY[${p(4)}, ${p(5)}, ${p(6)}])
      AND ${place.lat} BETWEEN ${p(7)} AND ${p(8)} AND ${place.lon} BETWEEN ${p(9)} AND ${p(10)})`
  }
  return `${ACTIVE} ${pendingCondition(view, boxes * 10 + 2)}
    AND (${Array.from({ length: boxes }, (_, n) => box(n)).join(' OR ')})`
}

export function boundsSql (boxes: number, view: SearchView = EXACT_VIEW): string {
  // The newest are chosen first and only they are joined to their requester and type: a dense rectangle
  // holds thousands of requests, and joining them all before the limit is wasted work.
  return /* sql */ `
    SELECT ${LIST_ITEM_COLUMNS}
    FROM (
      SELECT ${LIST_ITEM_OWN_COLUMNS}, r.requester_id, r.request_type_id
      FROM requests r
      WHERE ${inBoxes(boxes, view)}
      ORDER BY r.created_at DESC, r.id DESC
      LIMIT $${boxes * 10 + 1}
    ) r
      JOIN users u ON u.id = r.requester_id
      JOIN request_types t ON t.id = r.request_type_id
    ORDER BY r.created_at DESC, r.id DESC`
}

export function boundsParams (boxes: readonly BoundsBox[], limit: number, view: SearchView = EXACT_VIEW): number[] {
  const params = [...boxes.flatMap((b) => [...b.cube.lower, ...b.cube.upper, b.minLat, b.maxLat, b.minLon, b.maxLon]), limit]
  return view.hidePendingFrom === undefined ? params : [...params, view.hidePendingFrom]
}

/** Active requests inside the boxes, newest first, at most `limit`. */
export function findInBounds (db: Queryable, boxes: readonly BoundsBox[], limit: number, view: SearchView = EXACT_VIEW): Promise<ListItemRow[]> {
  return db.query<ListItemRow>(boundsSql(boxes.length, view), boundsParams(boxes, limit, view))
}

/** What a map marker is made from (MapMarker), with the columns of its `location` and the requester it is exact for. */
const MARKER_COLUMNS = `r.id, r.title, r.request_type_id, r.urgency, r.status, r.requester_id, ${LOCATION_COLUMNS}`

/** A marker as read, with where the KNN read stands (see nearestMarkersSql). */
export type MarkerRow = Omit<MapMarker, 'location'> & LocatedRow & { knn: number, inside: boolean, last_knn: number, fetched: number }

/**
 * The map's read (map.md › Maps at low zoom): of the `take` active requests nearest the point, in order of
 * distance, then id, those inside the boxes, with only what a marker needs; also the farthest row read
 * (`inside` false unless it is), so that `last_knn` and `fetched` tell the caller whether more can lie
 * inside. A KNN scan like nearby's, so it reads `take` index entries however many requests the view
 * holds. With the boxes as its condition PostgreSQL misjudges how many requests they hold and reads every
 * one of them (a bitmap scan and a sort: about 1,200 rows for a city-centre view at 100k).
 * Parameters: each box's min_lat, max_lat, min_lon, max_lon; then the point; then the pending filter's user.
 */
export function nearestMarkersSql (take: number, boxes: number, view: SearchView = EXACT_VIEW): string {
  if (!Number.isSafeInteger(take) || take < 1) throw new Error(`marker take must be a positive integer, got ${take}`)
  const { cube, lat, lon } = placeOf(view)
  const column = (name: string) => name.replace('r.', 'k.')
  const inside = Array.from({ length: boxes }, (_, n) =>
    `(${column(lat)} BETWEEN $${n * 4 + 1}::float8 AND $${n * 4 + 2}::float8 AND ${column(lon)} BETWEEN $${n * 4 + 3}::float8 AND $${n * 4 + 4}::float8)`).join(' OR ')
  const p = boxes * 4
  const point = `cube(ARRAY[$${p + 1}, $${p + 2}, $${p + 3}]::float8[])`
  return /* sql */ `
    SELECT k.*
    FROM (
      SELECT k.*, (${inside}) AS inside, max(k.knn) OVER () AS last_knn, count(*) OVER () AS fetched
      FROM (
        SELECT ${MARKER_COLUMNS}, ${cube} <-> ${point} AS knn
        FROM requests r
        WHERE ${ACTIVE} ${pendingCondition(view, p + 4)}
        ORDER BY ${cube} <-> ${point}
        LIMIT ${take}
      ) k
    ) k
    WHERE k.inside OR k.knn = k.last_knn
    ORDER BY k.knn, k.id`
}

export async function findNearestMarkers (db: Queryable, point: readonly number[], boxes: readonly BoundsBox[], take: number, view: SearchView = EXACT_VIEW): Promise<MarkerRow[]> {
  const params = [...boxes.flatMap((b) => [b.minLat, b.maxLat, b.minLon, b.maxLon]), ...point]
  return await db.query<MarkerRow>(nearestMarkersSql(take, boxes.length, view), view.hidePendingFrom === undefined ? params : [...params, view.hidePendingFrom])
}

/**
 * The same answer through the boxes' condition: of the active requests inside, the `limit` nearest the
 * point, in order of distance, then id. Reads every request inside, so it is for views that hold few.
 */
export function markersInBoxesSql (boxes: number, view: SearchView = EXACT_VIEW): string {
  const centre = boxes * 10 + (view.hidePendingFrom === undefined ? 2 : 3)
  const point = `cube(ARRAY[$${centre}, $${centre + 1}, $${centre + 2}]::float8[])`
  return /* sql */ `
    SELECT ${MARKER_COLUMNS}, ${placeOf(view).cube} <-> ${point} AS knn, true AS inside, 0 AS last_knn, 0 AS fetched
    FROM requests r
    WHERE ${inBoxes(boxes, view)}
    ORDER BY knn, r.id
    LIMIT $${boxes * 10 + 1}`
}

export async function findMarkersInBoxes (db: Queryable, point: readonly number[], boxes: readonly BoundsBox[], limit: number, view: SearchView = EXACT_VIEW): Promise<MarkerRow[]> {
  return await db.query<MarkerRow>(markersInBoxesSql(boxes.length, view), [...boundsParams(boxes, limit, view), ...point])
}

/**
 * Active → cancelled, if the caller is the requester or `asModerator`: one conditional update, so a
 * cancel racing another change either wins or changes nothing.
 */
export function cancelRequest (db: Queryable, id: number, callerId: number, asModerator: boolean): Promise<Request | undefined> {
  return maybeOne<Request>(db, /* sql */ `
    UPDATE requests AS r SET status = 'cancelled', updated_at = now()
    WHERE r.id = $1 AND ${ACTIVE} AND (r.requester_id = $2 OR $3::boolean)
    RETURNING ${REQUEST_COLUMNS}`, [id, callerId, asModerator])
}

/**
 * pending_moderation → approved or rejected, as one conditional update recording who, when and why; the
 * requester's id (to be told). Undefined means the request is missing, the moderator's own, or not pending
 * (the caller tells which).
 */
export async function moderateRequest (db: Queryable, id: number, moderatorId: number, status: 'approved' | 'rejected', comment: string | null): Promise<number | undefined> {
  const rows = await db.query<{ requester_id: number }>(/* sql */ `
    UPDATE requests SET status = $3, moderated_by = $2, moderated_at = now(), moderation_comment = $4, updated_at = now()
    WHERE id = $1 AND status = 'pending_moderation' AND requester_id <> $2
    RETURNING requester_id`, [id, moderatorId, status, comment])
  return rows[0]?.requester_id
}

export interface LockedRequest {
  id: number
  requester_id: number
  assigned_volunteer_id: number | null
  status: RequestStatus
}

/**
 * The request, locked until the transaction ends: 'share' lets volunteers respond side by side while
 * keeping out a concurrent accept; 'update' serialises everything else on the request.
 * `FOR NO KEY UPDATE` rather than `FOR UPDATE`: the key never changes, and inserts referencing the
 * row (responses, ratings) need not wait.
 */
export function lockRequest (db: Queryable, id: number, mode: 'share' | 'update'): Promise<LockedRequest | undefined> {
  const lock = mode === 'share' ? 'FOR SHARE' : 'FOR NO KEY UPDATE'
  return maybeOne<LockedRequest>(db, /* sql */ `
    SELECT id, requester_id, assigned_volunteer_id, status FROM requests WHERE id = $1 ${lock}`, [id])
}

/** approved → in_progress with the volunteer assigned, or back: in_progress → approved with nobody assigned. */
export async function setAssignment (db: Queryable, requestId: number, volunteerId: number | null): Promise<void> {
  await db.query(/* sql */ `
    UPDATE requests SET status = CASE WHEN $2::bigint IS NULL THEN 'approved' ELSE 'in_progress' END,
      assigned_volunteer_id = $2, updated_at = now()
    WHERE id = $1`, [requestId, volunteerId])
}

/** in_progress → completed; the caller holds the row's lock and has checked the status. */
export async function markCompleted (db: Queryable, requestId: number): Promise<void> {
  await db.query(/* sql */ `
    UPDATE requests SET status = 'completed', updated_at = now() WHERE id = $1`, [requestId])
}

/**
 * Grid points (map.md) of rows computed for another grid size, or never: at most `limit` of them, to be
 * recomputed by the service with src/lib/grid.ts. Three index conditions on requests_by_grid_meters.
 */
export function findStaleGridPoints (db: Queryable, gridMeters: number, limit: number): Promise<Array<{ id: number, latitude: number, longitude: number }>> {
  return db.query(/* sql */ `
    SELECT id, latitude, longitude FROM requests
    WHERE grid_meters IS NULL OR grid_meters < $1 OR grid_meters > $1
    LIMIT $2`, [gridMeters, limit])
}

export interface GridUpdate extends GridPoint { id: number }

/** Stores computed grid points, one statement for the batch. */
export async function storeGridPoints (db: Queryable, points: readonly GridUpdate[], gridMeters: number): Promise<void> {
  await db.query(/* sql */ `
    UPDATE requests r SET grid_latitude = p.latitude, grid_longitude = p.longitude, grid_meters = $4
    FROM unnest($1::bigint[], $2::float8[], $3::float8[]) AS p (id, latitude, longitude)
    WHERE r.id = p.id`, [points.map((p) => p.id), points.map((p) => p.latitude), points.map((p) => p.longitude), gridMeters])
}

const FINISHED = "r.status IN ('completed', 'cancelled', 'rejected')"

/**
 * Up to `limit` requests finished more than `days` days ago and not yet minimised (privacy.md §2), locked
 * until the transaction ends; rows another transaction holds are skipped, so two instances running the
 * job at once never take the same row. Read by requests_to_minimise. `now`: the job's clock.
 */
export function lockExpiredRequests (db: Queryable, days: number, limit: number, now: Date): Promise<Array<{ id: number, latitude: number, longitude: number }>> {
  return db.query(/* sql */ `
    SELECT r.id, r.latitude, r.longitude FROM requests r
    WHERE r.minimised_at IS NULL AND ${FINISHED} AND r.finished_at < $3::timestamptz - make_interval(days => $1)
    ORDER BY r.finished_at, r.id
    LIMIT $2
    FOR NO KEY UPDATE SKIP LOCKED`, [days, limit, now])
}

/** The caller's own finished requests not yet minimised, locked (erasure minimises them at once). */
export function lockFinishedRequestsOf (db: Queryable, requesterId: number): Promise<Array<{ id: number, latitude: number, longitude: number }>> {
  return db.query(/* sql */ `
    SELECT r.id, r.latitude, r.longitude FROM requests r
    WHERE r.requester_id = $1 AND r.minimised_at IS NULL AND ${FINISHED}
    ORDER BY r.id
    FOR NO KEY UPDATE`, [requesterId])
}

/** The text that replaces personal data in a minimised request (privacy.md §2). */
export const REMOVED = '(removed)'

/**
 * Minimises finished requests (privacy.md §2): contact data, address and description become "(removed)",
 * the exact point becomes the given grid point. A contact field that was empty stays empty. The
 * `minimised_at IS NULL` and status conditions make it idempotent: a row is minimised once. Returns how many.
 */
export async function minimiseRequests (db: Queryable, points: readonly GridUpdate[], gridMeters: number): Promise<number> {
  if (points.length === 0) return 0
  const rows = await db.query(/* sql */ `
    UPDATE requests r SET
      contact_phone = CASE WHEN r.contact_phone IS NULL THEN NULL ELSE $5 END,
      contact_notes = CASE WHEN r.contact_notes IS NULL THEN NULL ELSE $5 END,
      address = $5, description = $5,
      latitude = p.latitude, longitude = p.longitude,
      grid_latitude = p.latitude, grid_longitude = p.longitude, grid_meters = $4,
      minimised_at = now()
    FROM unnest($1::bigint[], $2::float8[], $3::float8[]) AS p (id, latitude, longitude)
    WHERE r.id = p.id AND r.minimised_at IS NULL AND ${FINISHED}
    RETURNING r.id`, [points.map((p) => p.id), points.map((p) => p.latitude), points.map((p) => p.longitude), gridMeters, REMOVED])
  return rows.length
}

/**
 * Erasure (privacy.md §3): the user's requests in pending_moderation or approved → cancelled, as one
 * conditional update (a concurrent accept either happened first, and the request stays in_progress, or
 * finds it cancelled). Returns the cancelled requests' ids.
 */
export async function cancelActiveRequestsOf (db: Queryable, requesterId: number): Promise<number[]> {
  const rows = await db.query<{ id: number }>(/* sql */ `
    UPDATE requests SET status = 'cancelled', updated_at = now()
    WHERE requester_id = $1 AND status IN ('pending_moderation', 'approved')
    RETURNING id`, [requesterId])
  return rows.map((row) => row.id)
}

/** Whether the user has a request in_progress as its requester, and as its assigned volunteer. */
export function findInProgressRoles (db: Queryable, userId: number): Promise<{ as_requester: boolean, as_volunteer: boolean }> {
  return maybeOne<{ as_requester: boolean, as_volunteer: boolean }>(db, /* sql */ `
    SELECT
      EXISTS (SELECT 1 FROM requests WHERE requester_id = $1 AND status = 'in_progress') AS as_requester,
      EXISTS (SELECT 1 FROM requests WHERE assigned_volunteer_id = $1 AND status = 'in_progress') AS as_volunteer`, [userId])
    .then((row) => row ?? { as_requester: false, as_volunteer: false })
}
