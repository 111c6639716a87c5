import { maybeOne, type Queryable } from '../../db/database.js'
import { sql } from '../../db/sql.js'

/**
 * The writes of `requests` for docs/api/schedule.md › Confirmation, reminders, expiry (a confirmation, "still needed", expiry, and the claim of
 * unconfirmed requests at the deadline): a second owner file of the table beside requests.repo.ts, which
 * would pass 300 lines with them (src/README.md). Times are the app clock's (`at`), never now().
 * The jobs' claims lock rows FOR NO KEY UPDATE SKIP LOCKED, so instances running at once take each row once
 * and never wait for a request someone is changing (its next run takes it, re-read).
 */

/** Days a "still needed?" question waits for its answer before the request is cancelled as expired. */
export const STILL_NEEDED_ANSWER_DAYS = 3

/** A request a schedule step changed, with what its messages need. */
export interface ScheduledRequest { id: number, requester_id: number, window_start: Date | null }

/**
 * The assigned volunteer confirms (in_progress, with a window, not yet confirmed): the row, or undefined
 * when this call confirmed nothing (not theirs, or confirmed already).
 */
export function confirmRequest (db: Queryable, id: number, volunteerId: number, at: Date): Promise<ScheduledRequest | undefined> {
  return maybeOne<ScheduledRequest>(db, sql`
    UPDATE requests SET confirmed_at = ${at}::timestamptz, updated_at = now()
    WHERE id = ${id} AND status = 'in_progress' AND assigned_volunteer_id = ${volunteerId}::bigint
      AND window_start IS NOT NULL AND confirmed_at IS NULL
    RETURNING id, requester_id, window_start`)
}

/** The requester says an approved request is still needed: the next question waits STALE_AFTER_DAYS from `at`. */
export function markStillNeeded (db: Queryable, id: number, requesterId: number, at: Date): Promise<ScheduledRequest | undefined> {
  return maybeOne<ScheduledRequest>(db, sql`
    UPDATE requests SET still_needed_at = ${at}::timestamptz, updated_at = now()
    WHERE id = ${id} AND requester_id = ${requesterId}::bigint AND status = 'approved'
    RETURNING id, requester_id, window_start`)
}

/** An unconfirmed request at its deadline: locked, with its assigned volunteer. */
export interface Unconfirmed extends ScheduledRequest { volunteer_id: number }

/**
 * In_progress requests whose window starts within `deadlineHours` of `at` (and not yet), not confirmed, whose
 * assigned volunteer was asked to confirm (a confirm_needed message to them): a volunteer who accepted after
 * the deadline was never asked, and is not withdrawn (docs/api/schedule.md).
 */
export function claimUnconfirmed (db: Queryable, at: Date, deadlineHours: number, limit: number): Promise<Unconfirmed[]> {
  return db.query<Unconfirmed>(sql`
    SELECT r.id, r.requester_id, r.window_start, r.assigned_volunteer_id AS volunteer_id FROM requests r
    WHERE r.status = 'in_progress' AND r.window_start IS NOT NULL AND r.confirmed_at IS NULL
      AND r.window_start > ${at}::timestamptz AND r.window_start <= ${at}::timestamptz + make_interval(hours => ${deadlineHours})
      AND EXISTS (SELECT 1 FROM schedule_messages m
        WHERE m.request_id = r.id AND m.user_id = r.assigned_volunteer_id AND m.reason = 'confirm_needed')
    ORDER BY r.window_start, r.id
    LIMIT ${limit}
    FOR NO KEY UPDATE SKIP LOCKED`)
}

/**
 * Approved requests nobody took in time → cancelled with cancel_reason 'expired': their window's start (or,
 * without one, their desired_completion_date) has passed, or a "still needed?" question went unanswered for
 * STILL_NEEDED_ANSWER_DAYS. At most `limit`, each once across instances.
 */
export function expireRequests (db: Queryable, at: Date, limit: number): Promise<ScheduledRequest[]> {
  return db.query<ScheduledRequest>(sql`
    UPDATE requests r SET status = 'cancelled', cancel_reason = 'expired', updated_at = now()
    WHERE r.status = 'approved' AND r.id IN (
      SELECT q.id FROM requests q
      WHERE q.status = 'approved' AND (coalesce(q.window_start, q.desired_completion_date) <= ${at}::timestamptz
        OR (q.window_start IS NULL AND q.desired_completion_date IS NULL AND EXISTS (SELECT 1 FROM schedule_messages m
          WHERE m.request_id = q.id AND m.reason = 'still_needed'
            AND m.sent_at <= ${at}::timestamptz - make_interval(days => ${STILL_NEEDED_ANSWER_DAYS}))))
      ORDER BY q.id
      LIMIT ${limit}
      FOR NO KEY UPDATE SKIP LOCKED)
    RETURNING r.id, r.requester_id, r.window_start`)
}

/**
 * Approved requests with neither window nor date, not asked now, created (or last asked or answered) at
 * least `staleDays` before `at`: stamped asked, to be sent `still_needed`. An open question is its message
 * (schedule/schedule.repo.ts), which the answer deletes.
 */
export function askStillNeeded (db: Queryable, at: Date, staleDays: number, limit: number): Promise<ScheduledRequest[]> {
  return db.query<ScheduledRequest>(sql`
    UPDATE requests r SET still_needed_at = ${at}::timestamptz
    WHERE r.id IN (
      SELECT q.id FROM requests q
      WHERE q.status = 'approved' AND q.window_start IS NULL AND q.desired_completion_date IS NULL
        AND coalesce(q.still_needed_at, q.created_at) <= ${at}::timestamptz - make_interval(days => ${staleDays})
        AND NOT EXISTS (SELECT 1 FROM schedule_messages m WHERE m.request_id = q.id AND m.reason = 'still_needed')
      ORDER BY q.id
      LIMIT ${limit}
      FOR NO KEY UPDATE SKIP LOCKED)
    RETURNING r.id, r.requester_id, r.window_start`)
}
