import { maybeOne, one, type Queryable } from '../../db/database.js'
import type { Page } from '../../lib/page.js'
import type { MyResponse, ResponseStatus, VolunteerResponse } from './responses.schemas.js'

/**
 * Owns the tables `volunteer_responses` and `ratings`: every statement that writes them is in this
 * file. The callers lock the request row first (requests.repo.ts lockRequest), so the changes on one
 * request's responses are serialised by the database, on one instance or several.
 */

export interface ResponseState {
  id: number
  volunteer_id: number
  status: ResponseStatus
}

/** VolunteerResponse columns, for queries aliasing volunteer_responses vr and users u. */
const RESPONSE_COLUMNS = `vr.id, vr.request_id, vr.volunteer_id, u.first_name || ' ' || u.last_name AS volunteer_name,
  vr.status, vr.message, vr.responded_at, vr.accepted_at, vr.rejected_at`

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

/** A volunteer's own responses, newest first, with their request's title and current status. */
export function listVolunteerResponses (db: Queryable, volunteerId: number, page: Page): Promise<MyResponse[]> {
  return db.query<MyResponse>(/* sql */ `
    SELECT ${RESPONSE_COLUMNS}, r.title AS request_title, r.status AS request_status
    FROM volunteer_responses vr JOIN users u ON u.id = vr.volunteer_id JOIN requests r ON r.id = vr.request_id
    WHERE vr.volunteer_id = $1
    ORDER BY vr.responded_at DESC, vr.id DESC
    LIMIT $2 OFFSET $3`, [volunteerId, page.limit, page.offset])
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
 * The responses still open on a cancelled request are cancelled with it (rules.md › Request lifecycle,
 * extensions); their volunteers, who are told.
 */
export async function cancelOpenResponses (db: Queryable, requestId: number): Promise<number[]> {
  const rows = await db.query<{ volunteer_id: number }>(/* sql */ `
    UPDATE volunteer_responses SET status = 'cancelled', cancelled_at = now()
    WHERE request_id = $1 AND status IN ('pending', 'accepted')
    RETURNING volunteer_id`, [requestId])
  return rows.map((row) => row.volunteer_id)
}

/**
 * Erasure (privacy.md §3): the open responses on the erased user's cancelled requests are cancelled with
 * them. Returns who had responded, the volunteers to notify (events.md).
 */
export async function cancelOpenResponsesOn (db: Queryable, requestIds: readonly number[]): Promise<Array<{ request_id: number, volunteer_id: number }>> {
  if (requestIds.length === 0) return []
  return await db.query(/* sql */ `
    UPDATE volunteer_responses SET status = 'cancelled', cancelled_at = now()
    WHERE request_id = ANY($1::bigint[]) AND status IN ('pending', 'accepted')
    RETURNING request_id, volunteer_id`, [requestIds])
}

/** Erasure: the user's pending responses are withdrawn (→ cancelled). */
/** Cancels the volunteer's pending responses; returns each with its request's requester, who is told. */
export async function withdrawPendingResponsesOf (db: Queryable, volunteerId: number): Promise<Array<{ id: number, request_id: number, requester_id: number }>> {
  return await db.query(/* sql */ `
    UPDATE volunteer_responses v SET status = 'cancelled', cancelled_at = now()
    FROM requests r
    WHERE v.volunteer_id = $1 AND v.status = 'pending' AND r.id = v.request_id
    RETURNING v.id, v.request_id, r.requester_id`, [volunteerId])
}
