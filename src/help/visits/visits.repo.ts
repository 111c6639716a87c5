import { maybeOne, type Queryable } from '../../db/database.js'
import { sql } from '../../db/sql.js'

/**
 * The one writer of `request_visits` (migrations/0032_visits.sql, docs/api/visit-checks.md): one row per request and
 * volunteer, made by the first check-in, the visit job's first message or the first record of hours and
 * mileage. The callers hold the request's row lock (lockRequest) before they write here, as every change of
 * a request does (src/README.md); the jobs claim rows with SKIP LOCKED and set their stamps only where still
 * null, so each message and the concern happen once across instances and restarts.
 */

export interface VisitState { checked_in_at: Date | null, checked_out_at: Date | null }

/** A visit nobody checked in yet (no row until the first check-in). */
export const NOT_STARTED: VisitState = { checked_in_at: null, checked_out_at: null }

export async function findVisit (db: Queryable, requestId: number, volunteerId: number): Promise<VisitState> {
  return await maybeOne<VisitState>(db, sql`
    SELECT checked_in_at, checked_out_at FROM request_visits WHERE request_id = ${requestId} AND volunteer_id = ${volunteerId}`) ?? NOT_STARTED
}

/** Checks the visit in at `at`; undefined when it was checked in before (the answer is then the visit unchanged). */
export function checkIn (db: Queryable, requestId: number, volunteerId: number, at: Date): Promise<VisitState | undefined> {
  return maybeOne<VisitState>(db, sql`
    INSERT INTO request_visits (request_id, volunteer_id, checked_in_at) VALUES (${requestId}, ${volunteerId}, ${at})
    ON CONFLICT (request_id, volunteer_id) DO UPDATE SET checked_in_at = EXCLUDED.checked_in_at
      WHERE request_visits.checked_in_at IS NULL
    RETURNING checked_in_at, checked_out_at`)
}

/** Checks a visit that is in out at `at`; undefined when it was not in, or out already. */
export function checkOut (db: Queryable, requestId: number, volunteerId: number, at: Date): Promise<VisitState | undefined> {
  return maybeOne<VisitState>(db, sql`
    UPDATE request_visits SET checked_out_at = ${at}
    WHERE request_id = ${requestId} AND volunteer_id = ${volunteerId} AND checked_in_at IS NOT NULL AND checked_out_at IS NULL
    RETURNING checked_in_at, checked_out_at`)
}

/** Marks the volunteer's worry about the visit once: false when it was marked before (no second concern). */
export async function markWorried (db: Queryable, requestId: number, volunteerId: number, at: Date): Promise<boolean> {
  const rows = await db.query(sql`
    UPDATE request_visits SET worried_at = ${at}
    WHERE request_id = ${requestId} AND volunteer_id = ${volunteerId} AND checked_in_at IS NOT NULL AND worried_at IS NULL
    RETURNING request_id`)
  return rows.length > 0
}

export interface Expenses { minutes: number | null, distance_km: number | null }

/**
 * The volunteer's record of a completed visit, replacing an earlier one. `distanceKm` is the number's decimal text,
 * rounded to one place as a numeric, so 0.05 is 0.1 and never a binary fraction's 0.0.
 */
export async function recordExpenses (db: Queryable, requestId: number, volunteerId: number, minutes: number | null, distanceKm: string | null, at: Date): Promise<Expenses> {
  const [row] = await db.query<{ minutes: number | null, distance_km: string | null }>(sql`
    INSERT INTO request_visits (request_id, volunteer_id, minutes, distance_km, expenses_at)
    VALUES (${requestId}, ${volunteerId}, ${minutes}, round(${distanceKm}::numeric, 1), ${at})
    ON CONFLICT (request_id, volunteer_id) DO UPDATE
      SET minutes = EXCLUDED.minutes, distance_km = EXCLUDED.distance_km, expenses_at = EXCLUDED.expenses_at
    RETURNING minutes, distance_km::text AS distance_km`)
  return { minutes: row!.minutes, distance_km: row!.distance_km === null ? null : Number(row!.distance_km) }
}

/** When a request was completed (the requests row's finished_at), or undefined when it is not completed. */
export async function completedAt (db: Queryable, requestId: number): Promise<Date | undefined> {
  const row = await maybeOne<{ finished_at: Date }>(db, sql`
    SELECT finished_at FROM requests WHERE id = ${requestId} AND status = 'completed'`)
  return row?.finished_at
}

/** The time of a visit (docs/api/visit-checks.md): its window's start, else its date. */
const VISIT_TIME = sql`coalesce(r.window_start, r.desired_completion_date)`

export interface NotStarted { request_id: number, volunteer_id: number, requester_id: number, volunteer_name: string, visit_at: Date }

/**
 * The visits not checked in `graceMinutes` after their time (or after the volunteer's acceptance, when later: one
 * who accepts late is given the same grace), their time less than `staleHours` ago, stamped as asked about; those
 * this transaction is the first to stamp. The request's row is share-locked (SKIP LOCKED): one being changed
 * now is taken by a later run, re-read.
 */
export function stampNotStarted (db: Queryable, at: Date, graceMinutes: number, staleHours: number, limit: number): Promise<NotStarted[]> {
  return db.query<NotStarted>(sql`
    WITH due AS MATERIALIZED (
      SELECT r.id AS request_id, r.assigned_volunteer_id AS volunteer_id, r.requester_id, u.first_name AS volunteer_name, ${VISIT_TIME} AS visit_at
      FROM requests r JOIN users u ON u.id = r.assigned_volunteer_id
      WHERE r.status = 'in_progress' AND ${VISIT_TIME} IS NOT NULL
        AND greatest(${VISIT_TIME}, r.assigned_at) + make_interval(mins => ${graceMinutes}) <= ${at}::timestamptz
        AND ${VISIT_TIME} > ${at}::timestamptz - make_interval(hours => ${staleHours})
        AND NOT EXISTS (SELECT 1 FROM request_visits v WHERE v.request_id = r.id AND v.volunteer_id = r.assigned_volunteer_id
          AND (v.checked_in_at IS NOT NULL OR v.not_started_at IS NOT NULL))
      ORDER BY r.id
      LIMIT ${limit}
      FOR SHARE OF r SKIP LOCKED
    ),
    stamped AS (
      INSERT INTO request_visits (request_id, volunteer_id, not_started_at)
      SELECT request_id, volunteer_id, ${at}::timestamptz FROM due
      ON CONFLICT (request_id, volunteer_id) DO UPDATE SET not_started_at = EXCLUDED.not_started_at
        WHERE request_visits.not_started_at IS NULL AND request_visits.checked_in_at IS NULL
      RETURNING request_id, volunteer_id
    )
    SELECT d.* FROM due d JOIN stamped s USING (request_id, volunteer_id) ORDER BY d.request_id`)
}

export interface Overdue { request_id: number, volunteer_id: number, checked_in_at: Date, overdue_at: Date }

/**
 * The visits checked in and not out `overdueMinutes` after the check-in, or 60 minutes after the window's end when
 * that is later, of in_progress requests with a time; stamped `overdue_at`. Claimed FOR NO KEY UPDATE SKIP LOCKED:
 * a check-out under way is left to finish, and no two instances take one visit.
 */
export function stampOverdue (db: Queryable, at: Date, overdueMinutes: number, limit: number): Promise<Overdue[]> {
  return db.query<Overdue>(sql`
    WITH due AS MATERIALIZED (
      SELECT v.request_id, v.volunteer_id
      FROM request_visits v JOIN requests r ON r.id = v.request_id AND r.assigned_volunteer_id = v.volunteer_id
      WHERE v.checked_in_at IS NOT NULL AND v.checked_out_at IS NULL AND v.overdue_at IS NULL
        AND r.status = 'in_progress' AND ${VISIT_TIME} IS NOT NULL
        AND greatest(v.checked_in_at + make_interval(mins => ${overdueMinutes}), r.window_end + interval '60 minutes') <= ${at}::timestamptz
      ORDER BY v.checked_in_at, v.request_id
      LIMIT ${limit}
      FOR NO KEY UPDATE OF v SKIP LOCKED
    )
    UPDATE request_visits v SET overdue_at = ${at}::timestamptz
    FROM due WHERE v.request_id = due.request_id AND v.volunteer_id = due.volunteer_id AND v.overdue_at IS NULL
    RETURNING v.request_id, v.volunteer_id, v.checked_in_at, v.overdue_at`)
}

/**
 * The overdue visits still not checked out `escalateMinutes` after the volunteer was asked (so they always had that
 * long to answer, even after a restart), stamped `escalated_at`: each is escalated once.
 */
export function stampEscalated (db: Queryable, at: Date, escalateMinutes: number, limit: number): Promise<Overdue[]> {
  return db.query<Overdue>(sql`
    WITH due AS MATERIALIZED (
      SELECT v.request_id, v.volunteer_id
      FROM request_visits v JOIN requests r ON r.id = v.request_id AND r.assigned_volunteer_id = v.volunteer_id
      WHERE v.checked_in_at IS NOT NULL AND v.checked_out_at IS NULL AND v.overdue_at IS NOT NULL AND v.escalated_at IS NULL
        AND r.status = 'in_progress'
        AND v.overdue_at + make_interval(mins => ${escalateMinutes}) <= ${at}::timestamptz
      ORDER BY v.overdue_at, v.request_id
      LIMIT ${limit}
      FOR NO KEY UPDATE OF v SKIP LOCKED
    )
    UPDATE request_visits v SET escalated_at = ${at}::timestamptz
    FROM due WHERE v.request_id = due.request_id AND v.volunteer_id = due.volunteer_id AND v.escalated_at IS NULL
    RETURNING v.request_id, v.volunteer_id, v.checked_in_at, v.overdue_at`)
}
