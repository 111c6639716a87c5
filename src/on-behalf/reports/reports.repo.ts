import type { Database, Queryable } from '../../db/database.js'
import { sql, type Sql } from '../../db/sql.js'
import type { Period } from './range.js'

/*
 * The reports' reads (docs/api/on-behalf.md › Reports for funders). Every figure is one of three aggregations over the periods, each
 * joined to requests through an index on the time that places a request in a period
 * (migrations/0027_reports_indexes.sql): created_at for what was asked, finished_at for what ended. The
 * times the medians and the hours are measured from are kept on the request and carried by those indexes
 * (migrations/0028_reports_times.sql). Only reads: this module owns no table.
 */

/**
 * Runs the reads of `fn` with PostgreSQL's JIT compilation off. These statements are estimated dear (many
 * rows, a lookup per row), which starts JIT, yet run in milliseconds: compiling cost more than half a second a
 * statement in the benchmark (docs/performance.md › Reports). A read-only transaction scopes the setting.
 */
export function withoutJit<T> (db: Database, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION READ ONLY')
    await tx.query('SET LOCAL jit = off')
    return await fn(tx)
  })
}

/** The periods as a relation (n = 1, 2, ...), so one statement counts them all. */
const periodsTable = (periods: readonly Period[]): Sql => sql`
  SELECT n, s, e FROM unnest(${periods.map((p) => p.start)}::timestamptz[], ${periods.map((p) => p.end)}::timestamptz[])
    WITH ORDINALITY AS t (s, e, n)`

export interface TypeRow { id: number, name: string, is_active: boolean }

/** Every request type: by_type names a period's counts by type, and lists the active ones even when none was asked for. */
export function requestTypes (db: Queryable): Promise<TypeRow[]> {
  return db.query<TypeRow>(sql`SELECT id, name, is_active FROM request_types ORDER BY id`)
}

export interface CreatedCountRow { n: number, request_type_id: number, urgency: string, count: number }

/** Requests created in each period, by request type and urgency (the service sums each apart). */
export function createdCounts (db: Queryable, periods: readonly Period[]): Promise<CreatedCountRow[]> {
  return db.query<CreatedCountRow>(sql`
    WITH p AS (${periodsTable(periods)})
    SELECT p.n::int AS n, r.request_type_id, r.urgency, count(*)::int AS count
    FROM p JOIN requests r ON r.created_at >= p.s AND r.created_at < p.e
    GROUP BY p.n, r.request_type_id, r.urgency`)
}

export interface WaitRow { n: number, median_offer_seconds: number | null, median_accept_seconds: number | null }

/**
 * The medians, in seconds, from a request's creation to its first offer and to its first acceptance, over
 * the requests created in each period that got one (a later withdrawal does not undo the wait measured:
 * each time is its offers' earliest, migrations/0028_reports_times.sql).
 */
export function waits (db: Queryable, periods: readonly Period[]): Promise<WaitRow[]> {
  // Per period (LATERAL), each an index-only range scan of requests_by_created, which carries both times.
  return db.query<WaitRow>(sql`
    WITH p AS (${periodsTable(periods)})
    SELECT p.n::int AS n, w.*
    FROM p CROSS JOIN LATERAL (
      SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY date_part('epoch', r.first_offer_at - r.created_at))::float8 AS median_offer_seconds,
        percentile_cont(0.5) WITHIN GROUP (ORDER BY date_part('epoch', r.first_accepted_at - r.created_at))::float8 AS median_accept_seconds
      FROM requests r
      WHERE r.created_at >= p.s AND r.created_at < p.e AND r.first_offer_at IS NOT NULL) w
    WHERE w.median_offer_seconds IS NOT NULL`)
}

export interface FinishedRow {
  n: number
  completed: number
  cancelled: number
  expired: number
  people_helped: number
  active_volunteers: number
  help_seconds: number | null
}

/** Seconds of help counted for one request at most (docs/api/on-behalf.md › Reports for funders: each capped at 12 h). */
export const HELP_CAP_SECONDS = 12 * 3600

/**
 * What ended in each period (finished_at): completed requests with the distinct people helped (the client
 * for a client's request, else the requester: a client's id is negated so the two never collide), the
 * distinct volunteers who completed them and their accepted-to-completed time; cancellations apart from
 * expiries, and expiries.
 */
export function finishedCounts (db: Queryable, periods: readonly Period[]): Promise<FinishedRow[]> {
  // Per period (LATERAL), so each reads its own slice of requests_by_finished.
  return db.query<FinishedRow>(sql`
    WITH p AS (${periodsTable(periods)})
    SELECT p.n::int AS n, f.*
    FROM p CROSS JOIN LATERAL (
      SELECT count(*) FILTER (WHERE r.status = 'completed')::int AS completed,
        count(*) FILTER (WHERE r.status = 'cancelled' AND r.cancel_reason IS DISTINCT FROM 'expired')::int AS cancelled,
        count(*) FILTER (WHERE r.status = 'cancelled' AND r.cancel_reason = 'expired')::int AS expired,
        count(DISTINCT COALESCE(-r.client_id, r.requester_id)) FILTER (WHERE r.status = 'completed')::int AS people_helped,
        count(DISTINCT r.assigned_volunteer_id) FILTER (WHERE r.status = 'completed')::int AS active_volunteers,
        sum(LEAST(GREATEST(date_part('epoch', r.finished_at - r.assigned_at), 0), ${HELP_CAP_SECONDS}))
          FILTER (WHERE r.status = 'completed')::float8 AS help_seconds
      FROM requests r
      WHERE r.finished_at >= p.s AND r.finished_at < p.e AND r.status IN ('completed', 'cancelled')) f`)
}

export interface RecordedRow { n: number, minutes: number, distance_km: string }

/**
 * docs/api/visit-checks.md › Hours and mileage: the minutes and kilometres the assigned volunteers recorded for the requests
 * completed in each period (request_visits, written by help/visits), the distance as exact numeric text.
 */
export function recordedCounts (db: Queryable, periods: readonly Period[]): Promise<RecordedRow[]> {
  return db.query<RecordedRow>(sql`
    WITH p AS (${periodsTable(periods)})
    SELECT p.n::int AS n, f.*
    FROM p CROSS JOIN LATERAL (
      SELECT coalesce(sum(v.minutes), 0)::int AS minutes, coalesce(sum(v.distance_km), 0)::numeric(12, 1)::text AS distance_km
      FROM requests r JOIN request_visits v ON v.request_id = r.id AND v.volunteer_id = r.assigned_volunteer_id
      WHERE r.finished_at >= p.s AND r.finished_at < p.e AND r.status = 'completed') f`)
}

export interface VolunteerRow { volunteer_id: number, name: string, visits: number, minutes: number, distance_km: string }

/**
 * The volunteers CSV (docs/api/visit-checks.md › Hours and mileage): per volunteer, the completed requests they were
 * assigned to whose completion falls in [start, end), and what they recorded for them; by volunteer id.
 * One row per volunteer, so the whole answer is read at once.
 */
export function volunteerTotals (db: Queryable, start: Date, end: Date): Promise<VolunteerRow[]> {
  return db.query<VolunteerRow>(sql`
    SELECT r.assigned_volunteer_id AS volunteer_id, u.first_name || ' ' || u.last_name AS name, count(*)::int AS visits,
      coalesce(sum(v.minutes), 0)::int AS minutes, coalesce(sum(v.distance_km), 0)::numeric(12, 1)::text AS distance_km
    FROM requests r
    JOIN users u ON u.id = r.assigned_volunteer_id
    LEFT JOIN request_visits v ON v.request_id = r.id AND v.volunteer_id = r.assigned_volunteer_id
    WHERE r.finished_at >= ${start}::timestamptz AND r.finished_at < ${end}::timestamptz AND r.status = 'completed'
    GROUP BY r.assigned_volunteer_id, u.first_name, u.last_name
    ORDER BY r.assigned_volunteer_id`)
}

export interface CsvRow {
  id: number
  /** created_at as the database writes it, exact to the microsecond: the next batch's keyset position. */
  cursor: string
  /** The times as ISO 8601 UTC text, as Date.toISOString writes them: no Date made per row. */
  created_at: string
  request_type: string
  urgency: string
  status: string
  cancel_reason: string | null
  city: string | null
  latitude: number
  longitude: number
  offer_seconds: number | null
  accept_seconds: number | null
  completed_at: string | null
  help_seconds: number | null
  rating: number | null
  client_id: number | null
  created_by_carer: number | null
}

export interface CsvPosition { cursor: string, id: number }

/** A timestamptz as Date.toISOString writes it (milliseconds, truncated as a Date parsed from it would be). */
const isoText = (column: Sql): Sql => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/**
 * The next `limit` requests created in [start, end) after `after`, in (created_at, id) order: a keyset
 * read of requests_by_created, so each batch costs the same however far into the range it is.
 */
export function csvBatch (db: Queryable, start: Date, end: Date, after: CsvPosition | undefined, limit: number): Promise<CsvRow[]> {
  const position = after === undefined
    ? sql`r.created_at >= ${start}::timestamptz`
    : sql`(r.created_at, r.id) > (${after.cursor}::timestamptz, ${after.id}::bigint)`
  // The page is chosen first, from the index alone; each of its rows then looks up its rating by request id,
  // so a batch costs the same however large the tables around it are.
  return db.query<CsvRow>(sql`
    SELECT r.id, r.created_at::text AS cursor, ${isoText(sql`r.created_at`)} AS created_at, t.name AS request_type, r.urgency, r.status,
      r.cancel_reason, r.city, r.latitude, r.longitude,
      date_part('epoch', r.first_offer_at - r.created_at) AS offer_seconds,
      date_part('epoch', r.first_accepted_at - r.created_at) AS accept_seconds,
      CASE WHEN r.status = 'completed' THEN ${isoText(sql`r.finished_at`)} END AS completed_at,
      CASE WHEN r.status = 'completed' THEN LEAST(GREATEST(date_part('epoch', r.finished_at - r.assigned_at), 0), ${HELP_CAP_SECONDS}) END AS help_seconds,
      (SELECT g.score::int FROM ratings g WHERE g.request_id = r.id) AS rating, r.client_id, r.created_by_carer
    FROM (
      SELECT * FROM requests r
      WHERE ${position} AND r.created_at >= ${start}::timestamptz AND r.created_at < ${end}::timestamptz
      ORDER BY r.created_at, r.id
      LIMIT ${limit}
    ) r
    JOIN request_types t ON t.id = r.request_type_id
    ORDER BY r.created_at, r.id`)
}
