import { maybeOne, one, type Queryable } from '../../db/database.js'
import { raw, sql, type Sql } from '../../db/sql.js'
import type { CheckKind } from '../../lib/checks.js'
import type { Page } from '../../lib/page.js'
import { validCheckKinds } from '../../accounts/checks/checks.repo.js'
import { suitablePair } from '../needs/matching.js'
import type { RequestStatus } from '../requests/requests.values.js'
import type { ResponseStatus } from './responses.values.js'

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

/** The volunteer's trust signals (docs/api/help.md › Volunteer responses, completion and ratings) in a ResponseRow; the service makes them one object. */
export interface TrustColumns {
  volunteer_first_name: string
  volunteer_rating: number | null
  volunteer_completed_count: number
  volunteer_checks: CheckKind[]
  volunteer_since: Date
}

/** A response as responseColumns read it. */
export interface ResponseRow extends TrustColumns {
  id: number
  request_id: number
  volunteer_id: number
  volunteer_name: string
  status: ResponseStatus
  message: string | null
  responded_at: Date
  accepted_at: Date | null
  rejected_at: Date | null
  /** docs/api/visits.md › Needs and matching: whether the volunteer meets the request's needs now (a driving check can lapse). */
  suitable: boolean
}

/** One of a volunteer's own responses, with its request's title and status now. */
export interface MyResponseRow extends ResponseRow { request_title: string, request_status: RequestStatus }

/**
 * The columns of a ResponseRow, for queries aliasing volunteer_responses vr and users u (the volunteer),
 * with the volunteer's trust signals as of `today` (TIME_ZONE), which decides which checks are valid.
 */
const responseColumns = (today: string): Sql => sql`${raw(`vr.id, vr.request_id, vr.volunteer_id, u.first_name || ' ' || u.last_name AS volunteer_name,
  vr.status, vr.message, vr.responded_at, vr.accepted_at, vr.rejected_at, u.first_name AS volunteer_first_name,
  u.volunteer_rating, u.completed_requests_count AS volunteer_completed_count, u.created_at AS volunteer_since`)},
  ${validCheckKinds(raw('u.id'), today)} AS volunteer_checks,
  (SELECT ${suitablePair(sql`${today}::date`)} FROM requests r WHERE r.id = vr.request_id) AS suitable`

/** A new pending response (the partial unique index volunteer_responses_one_open refuses a second open one). */
export function insertResponse (db: Queryable, requestId: number, volunteerId: number, message: string | null, today: string): Promise<ResponseRow> {
  return one<ResponseRow>(db, sql`
    WITH vr AS (
      INSERT INTO volunteer_responses (request_id, volunteer_id, message) VALUES (${requestId}, ${volunteerId}, ${message}) RETURNING *
    )
    SELECT ${responseColumns(today)} FROM vr JOIN users u ON u.id = vr.volunteer_id`)
}

/** Responses on a request, oldest first; only `volunteerId`'s when given. */
export function listResponses (db: Queryable, requestId: number, volunteerId: number | null, today: string): Promise<ResponseRow[]> {
  return db.query<ResponseRow>(sql`
    SELECT ${responseColumns(today)}
    FROM volunteer_responses vr JOIN users u ON u.id = vr.volunteer_id
    WHERE vr.request_id = ${requestId} AND (${volunteerId}::bigint IS NULL OR vr.volunteer_id = ${volunteerId})
    ORDER BY vr.responded_at, vr.id`)
}

/** A volunteer's own responses, newest first, with their request's title and current status. */
export function listVolunteerResponses (db: Queryable, volunteerId: number, page: Page, today: string): Promise<MyResponseRow[]> {
  return db.query<MyResponseRow>(sql`
    SELECT ${responseColumns(today)}, r.title AS request_title, r.status AS request_status
    FROM volunteer_responses vr JOIN users u ON u.id = vr.volunteer_id JOIN requests r ON r.id = vr.request_id
    WHERE vr.volunteer_id = ${volunteerId}
    ORDER BY vr.responded_at DESC, vr.id DESC
    LIMIT ${page.limit} OFFSET ${page.offset}`)
}

/** One response on the request, locked until the transaction ends (after its request: see the lock order). */
export function lockResponse (db: Queryable, requestId: number, responseId: number): Promise<ResponseState | undefined> {
  return maybeOne<ResponseState>(db, sql`
    SELECT id, volunteer_id, status FROM volunteer_responses WHERE id = ${responseId} AND request_id = ${requestId}
    FOR NO KEY UPDATE`)
}

/**
 * The locked pending response → accepted, and every other pending response on the request → rejected;
 * the rejected ones, whose volunteers are told.
 */
export async function acceptResponse (db: Queryable, requestId: number, responseId: number): Promise<Array<{ id: number, volunteer_id: number }>> {
  await db.query(sql`
    UPDATE volunteer_responses SET status = 'accepted', accepted_at = now() WHERE id = ${responseId}`)
  return await db.query<{ id: number, volunteer_id: number }>(sql`
    UPDATE volunteer_responses SET status = 'rejected', rejected_at = now()
    WHERE request_id = ${requestId} AND status = 'pending'
    RETURNING id, volunteer_id`)
}

/** pending → rejected, or pending/accepted → cancelled; the caller has checked the state under lock. */
export function closeResponse (db: Queryable, responseId: number, status: 'rejected' | 'cancelled', today: string): Promise<ResponseRow> {
  const stamp = raw(status === 'rejected' ? 'rejected_at' : 'cancelled_at')
  return one<ResponseRow>(db, sql`
    WITH vr AS (
      UPDATE volunteer_responses SET status = ${status}, ${stamp} = now() WHERE id = ${responseId} RETURNING *
    )
    SELECT ${responseColumns(today)} FROM vr JOIN users u ON u.id = vr.volunteer_id`)
}

/**
 * The request's accepted response → cancelled (docs/api/schedule.md › Confirmation, reminders, expiry: an unconfirmed volunteer withdrawn at the
 * deadline, as a withdrawal would); the caller holds the request row's lock. Undefined when none is accepted.
 */
export function cancelAcceptedResponse (db: Queryable, requestId: number): Promise<{ id: number, volunteer_id: number } | undefined> {
  return maybeOne(db, sql`
    UPDATE volunteer_responses SET status = 'cancelled', cancelled_at = now()
    WHERE request_id = ${requestId} AND status = 'accepted'
    RETURNING id, volunteer_id`)
}

export interface NewRating {
  request_id: number
  volunteer_id: number
  rater_id: number
  score: number
  comment: string | null
}

export async function insertRating (db: Queryable, rating: NewRating): Promise<number> {
  const row = await one<{ id: number }>(db, sql`
    INSERT INTO ratings (request_id, volunteer_id, rater_id, score, comment)
    VALUES (${rating.request_id}, ${rating.volunteer_id}, ${rating.rater_id}, ${rating.score}, ${rating.comment})
    RETURNING id`)
  return row.id
}

/**
 * The responses still open on a cancelled request are cancelled with it (docs/api/help.md › Volunteer responses, completion and ratings,
 * extensions); their volunteers, who are told.
 */
export async function cancelOpenResponses (db: Queryable, requestId: number): Promise<number[]> {
  const rows = await db.query<{ volunteer_id: number }>(sql`
    UPDATE volunteer_responses SET status = 'cancelled', cancelled_at = now()
    WHERE request_id = ${requestId} AND status IN ('pending', 'accepted')
    RETURNING volunteer_id`)
  return rows.map((row) => row.volunteer_id)
}

/** Cancels the volunteer's pending responses; returns each with its request's requester, who is told. */
export async function withdrawPendingResponsesOf (db: Queryable, volunteerId: number): Promise<Array<{ id: number, request_id: number, requester_id: number }>> {
  return await db.query(sql`
    UPDATE volunteer_responses v SET status = 'cancelled', cancelled_at = now()
    FROM requests r
    WHERE v.volunteer_id = ${volunteerId} AND v.status = 'pending' AND r.id = v.request_id
    RETURNING v.id, v.request_id, r.requester_id`)
}
