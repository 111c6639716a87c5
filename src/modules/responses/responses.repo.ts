import { maybeOne, one, type Queryable } from '../../db/database.js'
import type { RequestStatus } from '../requests/requests.schemas.js'
import type { ResponseStatus, VolunteerResponse } from './responses.schemas.js'

/**
 * Lock order, the same in every transaction here: the request row first, then its responses, then
 * the volunteer's user row. Every change to a request's responses locks the request row first, so the
 * changes on one request are serialised by the database, on one instance or several.
 */

export interface LockedRequest {
  id: number
  requester_id: number
  assigned_volunteer_id: number | null
  status: RequestStatus
}

export interface ResponseState {
  id: number
  volunteer_id: number
  status: ResponseStatus
}

/** VolunteerResponse columns, for queries aliasing volunteer_responses vr and users u. */
const RESPONSE_COLUMNS = `vr.id, vr.request_id, vr.volunteer_id, u.first_name || ' ' || u.last_name AS volunteer_name,
  vr.status, vr.message, vr.responded_at, vr.accepted_at, vr.rejected_at`

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

/** A new pending response (the partial unique index volunteer_responses_one_open refuses a second open one). */
export function insertResponse (db: Queryable, requestId: number, volunteerId: number, message: string | null): Promise<VolunteerResponse> {
  return one<VolunteerResponse>(db, /* sql */ `
    WITH vr AS (
      INSERT INTO volunteer_responses (request_id, volunteer_id, message) VALUES ($1, $2, $3) RETURNING *
    )
    SELECT ${RESPONSE_COLUMNS} FROM vr JOIN users u ON u.id = vr.volunteer_id`, [requestId, volunteerId, message])
}

/** Responses on a request, oldest first; only `volunteerId`'s when given. */
export function listResponses (db: Queryable, requestId: number, volunteerId: number | null): Promise<VolunteerResponse[]> {
  return db.query<VolunteerResponse>(/* sql */ `
    SELECT ${RESPONSE_COLUMNS}
    FROM volunteer_responses vr JOIN users u ON u.id = vr.volunteer_id
    WHERE vr.request_id = $1 AND ($2::bigint IS NULL OR vr.volunteer_id = $2)
    ORDER BY vr.responded_at, vr.id`, [requestId, volunteerId])
}

/** One response on the request, locked until the transaction ends (after its request: see the lock order). */
export function lockResponse (db: Queryable, requestId: number, responseId: number): Promise<ResponseState | undefined> {
  return maybeOne<ResponseState>(db, /* sql */ `
    SELECT id, volunteer_id, status FROM volunteer_responses WHERE id = $2 AND request_id = $1
    FOR NO KEY UPDATE`, [requestId, responseId])
}

/**
 * The locked pending response → accepted, and every other pending response on the request → rejected;
 * the rejected ones, whose volunteers are told.
 */
export async function acceptResponse (db: Queryable, requestId: number, responseId: number): Promise<Array<{ id: number, volunteer_id: number }>> {
  await db.query(/* sql */ `
    UPDATE volunteer_responses SET status = 'accepted', accepted_at = now() WHERE id = $1`, [responseId])
  return await db.query<{ id: number, volunteer_id: number }>(/* sql */ `
    UPDATE volunteer_responses SET status = 'rejected', rejected_at = now()
    WHERE request_id = $1 AND status = 'pending'
    RETURNING id, volunteer_id`, [requestId])
}

/** pending → rejected, or pending/accepted → cancelled; the caller has checked the state under lock. */
export function closeResponse (db: Queryable, responseId: number, status: 'rejected' | 'cancelled'): Promise<VolunteerResponse> {
  const stamp = status === 'rejected' ? 'rejected_at' : 'cancelled_at'
  return one<VolunteerResponse>(db, /* sql */ `
    WITH vr AS (
      UPDATE volunteer_responses SET status = $2, ${stamp} = now() WHERE id = $1 RETURNING *
    )
    SELECT ${RESPONSE_COLUMNS} FROM vr JOIN users u ON u.id = vr.volunteer_id`, [responseId, status])
}

/** approved → in_progress with the volunteer assigned, or back: in_progress → approved with nobody assigned. */
export async function setAssignment (db: Queryable, requestId: number, volunteerId: number | null): Promise<void> {
  await db.query(/* sql */ `
    UPDATE requests SET status = CASE WHEN $2::bigint IS NULL THEN 'approved' ELSE 'in_progress' END,
      assigned_volunteer_id = $2, updated_at = now()
    WHERE id = $1`, [requestId, volunteerId])
}

export async function markCompleted (db: Queryable, requestId: number): Promise<void> {
  await db.query(/* sql */ `
    UPDATE requests SET status = 'completed', updated_at = now() WHERE id = $1`, [requestId])
}

export interface NewRating {
  request_id: number
  volunteer_id: number
  rater_id: number
  score: number
  comment: string | null
}

export async function insertRating (db: Queryable, rating: NewRating): Promise<number> {
  const row = await one<{ id: number }>(db, /* sql */ `
    INSERT INTO ratings (request_id, volunteer_id, rater_id, score, comment) VALUES ($1, $2, $3, $4, $5)
    RETURNING id`, [rating.request_id, rating.volunteer_id, rating.rater_id, rating.score, rating.comment])
  return row.id
}

/**
 * Locks the volunteer's user row. This must be its own statement, before recountVolunteer: in READ
 * COMMITTED each statement takes a fresh snapshot, so the AVG that follows the lock sees the ratings
 * of every completion that held the lock before, and no concurrent completion's rating is left out.
 */
export async function lockVolunteer (db: Queryable, volunteerId: number): Promise<void> {
  await db.query(/* sql */ 'SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE', [volunteerId])
}

/** One more completed request; the rating is the mean of all the volunteer's ratings. */
export async function recountVolunteer (db: Queryable, volunteerId: number): Promise<void> {
  await db.query(/* sql */ `
    UPDATE users SET completed_requests_count = completed_requests_count + 1,
      volunteer_rating = (SELECT AVG(score)::double precision FROM ratings WHERE volunteer_id = $1),
      updated_at = now()
    WHERE id = $1`, [volunteerId])
}
