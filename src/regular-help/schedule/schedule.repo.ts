import type { Queryable } from '../../db/database.js'
import { sql, type Sql } from '../../db/sql.js'

/**
 * Owns `schedule_messages` (migrations/0022_schedule.sql): one row per request, person and reason, inserted
 * ON CONFLICT DO NOTHING in the transaction that notifies, so each message of docs/api/schedule.md › Confirmation, reminders, expiry is sent at most
 * once whatever instances or restarts do. The steps that only send read their requests here, share-locked
 * (SKIP LOCKED: a request being changed right now is taken by a later run, re-read), so its state cannot
 * change before the message commits. Times are the app clock's (`at`).
 */

/** Why a message was sent: the notification type it went as. */
export type Reason = 'confirm_needed' | 'confirmation_missed' | 'reminder' | 'request_expired' | 'still_needed' | 'please_complete'

/** A message this transaction is the first to send. */
export interface Message { request_id: number, user_id: number, window_start: Date | null }

/** Records `due`'s rows (request_id, user_id, window_start) as sent for `reason`; those not sent before. */
async function sendOnce (db: Queryable, reason: Reason, due: Sql, at: Date): Promise<Message[]> {
  return await db.query<Message>(sql`
    WITH due AS MATERIALIZED (${due}),
    sent AS (
      INSERT INTO schedule_messages (request_id, user_id, reason, sent_at)
      SELECT request_id, user_id, ${reason}, ${at}::timestamptz FROM due
      ON CONFLICT DO NOTHING
      RETURNING request_id, user_id
    )
    SELECT d.request_id, d.user_id, d.window_start FROM due d JOIN sent s USING (request_id, user_id)
    ORDER BY d.request_id, d.user_id`)
}

const notSent = (reason: Reason, user: Sql): Sql =>
  sql`NOT EXISTS (SELECT 1 FROM schedule_messages m WHERE m.request_id = r.id AND m.user_id = ${user} AND m.reason = ${reason})`

/** Messages of `reason` for known requests and people (the steps that change a request first). */
export async function recordMessages (db: Queryable, reason: Reason, to: ReadonlyArray<{ requestId: number, userId: number, windowStart: Date | null }>, at: Date): Promise<Message[]> {
  if (to.length === 0) return []
  return await sendOnce(db, reason, sql`
    SELECT * FROM unnest(${to.map((m) => m.requestId)}::bigint[], ${to.map((m) => m.userId)}::bigint[],
      ${to.map((m) => m.windowStart)}::timestamptz[]) AS t (request_id, user_id, window_start)`, at)
}

/**
 * confirm_needed: the assigned volunteer of an in_progress, unconfirmed request whose window starts within
 * `beforeHours` of `at`, until its deadline (`deadlineHours` before the start): one who accepts later is not asked.
 */
export function sendConfirmNeeded (db: Queryable, at: Date, beforeHours: number, deadlineHours: number, limit: number): Promise<Message[]> {
  return sendOnce(db, 'confirm_needed', sql`
    SELECT r.id AS request_id, r.assigned_volunteer_id AS user_id, r.window_start FROM requests r
    WHERE r.status = 'in_progress' AND r.window_start IS NOT NULL AND r.confirmed_at IS NULL
      AND r.window_start <= ${at}::timestamptz + make_interval(hours => ${beforeHours})
      AND r.window_start > ${at}::timestamptz + make_interval(hours => ${deadlineHours})
      AND ${notSent('confirm_needed', sql`r.assigned_volunteer_id`)}
    ORDER BY r.window_start, r.id
    LIMIT ${limit}
    FOR SHARE OF r SKIP LOCKED`, at)
}

/** reminder: the requester and the assigned volunteer of an in_progress request whose window starts within `minutes`. */
export function sendReminders (db: Queryable, at: Date, minutes: number, limit: number): Promise<Message[]> {
  return sendOnce(db, 'reminder', sql`
    SELECT r.id AS request_id, p.user_id, r.window_start
    FROM requests r CROSS JOIN LATERAL (VALUES (r.requester_id), (r.assigned_volunteer_id)) AS p (user_id)
    WHERE r.status = 'in_progress' AND r.window_start IS NOT NULL
      AND r.window_start > ${at}::timestamptz AND r.window_start <= ${at}::timestamptz + make_interval(mins => ${minutes})
      AND ${notSent('reminder', sql`p.user_id`)}
    ORDER BY r.window_start, r.id
    LIMIT ${limit}
    FOR SHARE OF r SKIP LOCKED`, at)
}

/** please_complete: the requester of an in_progress request 48 h past its window's end (or, without one, its acceptance: assigned_at). */
export function sendPleaseComplete (db: Queryable, at: Date, limit: number): Promise<Message[]> {
  return sendOnce(db, 'please_complete', sql`
    SELECT r.id AS request_id, r.requester_id AS user_id, r.window_start FROM requests r
    WHERE r.status = 'in_progress'
      AND coalesce(r.window_end, r.assigned_at) <= ${at}::timestamptz - interval '48 hours'
      AND ${notSent('please_complete', sql`r.requester_id`)}
    ORDER BY r.id
    LIMIT ${limit}
    FOR SHARE OF r SKIP LOCKED`, at)
}

/** The requester answered "still needed": the open question is closed, so the next one can be sent in time. */
export async function closeStillNeededQuestion (db: Queryable, requestId: number): Promise<void> {
  await db.query(sql`DELETE FROM schedule_messages WHERE request_id = ${requestId} AND reason = 'still_needed'`)
}
