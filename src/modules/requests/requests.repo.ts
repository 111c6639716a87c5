import { maybeOne, type Queryable } from '../../db/database.js'
import type { Page } from '../../lib/page.js'
import { chordToMeters, earthPoint, type BoundsBox } from './geo.js'
import type { CreateRequestInput, Request, RequestDetail, RequestListItem, RequestStatus, RequestWithDistance } from './requests.schemas.js'

/**
 * Owns the `requests` table: every statement that writes a request row is in this file, whichever
 * module's service runs it (requests: create and cancel; moderation: approve and reject; responses:
 * assign, unassign and complete), so the row's state changes can be read, and their conditions
 * checked, in one place. See src/modules/README.md.
 */

const REQUEST_COLUMNS = `r.id, r.requester_id, r.request_type_id, r.assigned_volunteer_id, r.title, r.description,
  r.address, r.city, r.desired_completion_date, r.urgency, r.status, r.contact_phone, r.contact_notes,
  r.created_at, r.updated_at`

/** The columns of RequestListItem that are the request's own. */
const LIST_ITEM_OWN_COLUMNS = 'r.id, r.title, r.description, r.address, r.city, r.urgency, r.status, r.created_at'

/** requester_name is "first_name last_name" (rules.md › Search and lists). */
const requesterName = (alias: string) => `${alias}.first_name || ' ' || ${alias}.last_name`

/** The columns of RequestListItem; goes with LIST_ITEM_FROM. */
export const LIST_ITEM_COLUMNS = `${LIST_ITEM_OWN_COLUMNS}, ${requesterName('u')} AS requester_name, t.name AS request_type_name`

/** Requests r with their requester u and type t: one query per list, no lookups per item. */
export const LIST_ITEM_FROM = `requests r
  JOIN users u ON u.id = r.requester_id
  JOIN request_types t ON t.id = r.request_type_id`

/**
 * The statuses the searches consider (interface.md › Requests), written exactly as the predicate of
 * the partial index requests_active_location, so that the planner sees the index applies.
 */
const ACTIVE = "r.status IN ('pending_moderation', 'approved', 'in_progress')"

const userInfo = (alias: string) =>
  `json_build_object('id', ${alias}.id, 'email', ${alias}.email, 'first_name', ${alias}.first_name,
    'last_name', ${alias}.last_name, 'email_verified', ${alias}.email_verified)`

/**
 * The new request, or undefined when `request_type_id` names no active type: the check and the insert are
 * one statement, so creating a request costs one round trip.
 */
export function insertRequest (db: Queryable, requesterId: number, input: CreateRequestInput): Promise<Request | undefined> {
  return maybeOne<Request>(db, /* sql */ `
    INSERT INTO requests AS r (requester_id, request_type_id, title, description, latitude, longitude, address, city,
      desired_completion_date, urgency, contact_phone, contact_notes)
    SELECT $1::bigint, t.id, $3::text, $4::text, $5::float8, $6::float8, $7::text, $8::text, $9::timestamptz, $10::text, $11::text, $12::text
    FROM request_types t WHERE t.id = $2::bigint AND t.is_active
    RETURNING ${REQUEST_COLUMNS}`,
  [requesterId, input.request_type_id, input.title, input.description, input.latitude, input.longitude, input.address,
    input.city ?? null, input.desired_completion_date ?? null, input.urgency, input.contact_phone ?? null, input.contact_notes ?? null])
}

/** The request with its requester, type and assigned volunteer, in one query. */
export function findRequestDetail (db: Queryable, id: number): Promise<RequestDetail | undefined> {
  return maybeOne<RequestDetail>(db, /* sql */ `
    SELECT ${REQUEST_COLUMNS},
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
export function listByRequester (db: Queryable, requesterId: number, page: Page): Promise<RequestListItem[]> {
  return db.query<RequestListItem>(/* sql */ `
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

export function nearbySql (take: number): string {
  if (!Number.isSafeInteger(take) || take < 1) throw new Error(`nearby take must be a positive integer, got ${take}`)
  return /* sql */ `
  SELECT ${LIST_ITEM_OWN_COLUMNS},
    (SELECT ${requesterName('u')} FROM users u WHERE u.id = r.requester_id) AS requester_name,
    (SELECT t.name FROM request_types t WHERE t.id = r.request_type_id) AS request_type_name,
    r.knn, max(r.knn) OVER () AS last_knn, count(*) OVER () AS fetched
  FROM (
    SELECT r.*, r.location <-> ${POINT} AS knn
    FROM requests r
    WHERE ${ACTIVE}
    ORDER BY r.location <-> ${POINT}
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
export interface NearbyRow extends RequestWithDistance { knn: number, last_knn: number, fetched: number }

export function nearbyParams (lat: number, lon: number, page: Page): number[] {
  return [...earthPoint(lat, lon), page.offset, page.limit]
}

/** `take` must come from nearbyTake(). */
export async function findNearest (db: Queryable, lat: number, lon: number, take: number, page: Page): Promise<NearbyRow[]> {
  const rows = await db.query<NearbyRow>(nearbySql(take), nearbyParams(lat, lon, page))
  for (const row of rows) row.distance_meters = chordToMeters(row.knn)
  return rows
}

/**
 * Bounds search over 1 box, or 2 when the rectangle crosses the antimeridian; the last parameter is
 * the row limit. Each box is an index condition (`location <@ cube`, the GiST index finds the
 * candidates) and the exact latitude/longitude test.
 */
export function boundsSql (boxes: number): string {
  const box = (n: number) => {
    const p = (i: number) => `$${n * 10 + i}::float8`
    return `(r.location <@ cube(ARRAY[${p(1)}, ${p(2)}, ${p(3)}], ARRAY[${p(4)}, ${p(5)}, ${p(6)}])
      AND r.latitude BETWEEN ${p(7)} AND ${p(8)} AND r.longitude BETWEEN ${p(9)} AND ${p(10)})`
  }
  // The newest are chosen first and only they are joined to their requester and type: a dense rectangle
  // holds thousands of requests, and joining them all before the limit is wasted work.
  return /* sql */ `
    SELECT ${LIST_ITEM_COLUMNS}
    FROM (
      SELECT ${LIST_ITEM_OWN_COLUMNS}, r.requester_id, r.request_type_id
      FROM requests r
      WHERE ${ACTIVE}
        AND (${Array.from({ length: boxes }, (_, n) => box(n)).join(' OR ')})
      ORDER BY r.created_at DESC, r.id DESC
      LIMIT $${boxes * 10 + 1}
    ) r
      JOIN users u ON u.id = r.requester_id
      JOIN request_types t ON t.id = r.request_type_id
    ORDER BY r.created_at DESC, r.id DESC`
}

export function boundsParams (boxes: readonly BoundsBox[], limit: number): number[] {
  return [...boxes.flatMap((b) => [...b.cube.lower, ...b.cube.upper, b.minLat, b.maxLat, b.minLon, b.maxLon]), limit]
}

/** Active requests inside the boxes, newest first, at most `limit`. */
export function findInBounds (db: Queryable, boxes: readonly BoundsBox[], limit: number): Promise<RequestListItem[]> {
  return db.query<RequestListItem>(boundsSql(boxes.length), boundsParams(boxes, limit))
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
 * pending_moderation → approved or rejected, as one conditional update recording who, when and why:
 * false means the request is missing, the moderator's own, or not pending (the caller tells which).
 */
export async function moderateRequest (db: Queryable, id: number, moderatorId: number, status: 'approved' | 'rejected', comment: string | null): Promise<boolean> {
  const rows = await db.query(/* sql */ `
    UPDATE requests SET status = $3, moderated_by = $2, moderated_at = now(), moderation_comment = $4, updated_at = now()
    WHERE id = $1 AND status = 'pending_moderation' AND requester_id <> $2
    RETURNING id`, [id, moderatorId, status, comment])
  return rows.length > 0
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
