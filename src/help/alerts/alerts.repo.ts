import { maybeOne, one, type Queryable } from '../../db/database.js'
import { raw, sql, type Sql } from '../../db/sql.js'
import type { CheckKind } from '../../lib/checks.js'
import { EARTH_RADIUS_M, earthPoint } from '../../lib/geo.js'
import { holdsChecks } from '../../accounts/checks/checks.repo.js'
import { volunteerMeets } from '../needs/matching.js'
import type { NeedCode } from '../needs/needs.js'

/**
 * Owns the tables `alert_rounds` and `request_alerts` (migrations/0006_alerts.sql): every statement
 * that writes them is in this file. See src/README.md.
 *
 * Every statement takes the time it runs at as a parameter, `null` meaning the database's now(): alert
 * rounds pass their Clock's time (src/lib/clock.ts; tests move it, the simulation in
 * scripts/simulate-alerts.ts passes its simulated time), as do the changes that start rounds.
 */
export type At = Date | null
const timeOf = (at: At): Sql => sql`coalesce(${at}::timestamptz, now())`

/** The largest radius a volunteer may choose (docs/api/help.md › Availability): the index search never looks farther. */
export const MAX_ALERT_RADIUS_M = 50000

const RADIUS = raw(String(EARTH_RADIUS_M))
const DIAMETER = raw(String(2 * EARTH_RADIUS_M))
/** The chord of the earth() sphere (what cube's `<->` measures) of a great-circle distance in metres. */
const chordSql = (meters: Sql): Sql => sql`(2 * ${RADIUS} * sin((${meters})::float8 / ${DIAMETER}::float8))`
/** The great-circle distance in metres of a chord, as lib/geo.ts chordToMeters. */
const metersSql = (chord: Sql): Sql => sql`(2 * ${RADIUS} * asin(least(1.0, (${chord})::float8 / ${DIAMETER}::float8)))`

/**
 * Round 1 due now: the request has just become approved (moderation, or back from in_progress). A row
 * left from an earlier approval (not yet claimed and ended) starts over. `urgent`: the rounds run at the
 * urgent interval whatever the request's urgency (docs/api/schedule.md › Confirmation, reminders, expiry, after a missed confirmation).
 */
export async function scheduleFirstRound (tx: Queryable, requestId: number, at: At = null, urgent = false): Promise<void> {
  await tx.query(sql`
    INSERT INTO alert_rounds (request_id, round, due_at, started_at, urgent) VALUES (${requestId}, 1, ${timeOf(at)}, ${timeOf(at)}, ${urgent})
    ON CONFLICT (request_id) DO UPDATE SET round = 1, due_at = EXCLUDED.due_at, started_at = EXCLUDED.started_at, urgent = EXCLUDED.urgent`)
}

/**
 * docs/api/schedule.md › Series: the occurrence's round 1 waits until `until` (its preferred volunteer is asked first).
 * Held rounds are those whose round 1 starts later than now: a catch-up (started_at) passes them over too.
 */
export async function holdFirstRound (tx: Queryable, requestId: number, until: Date): Promise<void> {
  await tx.query(sql`UPDATE alert_rounds SET due_at = ${until}, started_at = ${until} WHERE request_id = ${requestId} AND round = 1`)
}

/** The held round 1 of these requests, or of every occurrence of these series, is due now. */
export async function releaseHeldRounds (tx: Queryable, which: { requestId: number } | { seriesIds: number[] }, at: At): Promise<void> {
  const requests = 'requestId' in which
    ? sql`${which.requestId}::bigint`
    : sql`SELECT id FROM requests WHERE series_id = ANY (${which.seriesIds}::bigint[]) AND status = 'approved'`
  await tx.query(sql`
    UPDATE alert_rounds SET due_at = ${timeOf(at)}, started_at = ${timeOf(at)}
    WHERE request_id IN (${requests}) AND round = 1 AND started_at > ${timeOf(at)}`)
}

/** A request's urgency (docs/api/conventions.md), which sets the interval between its rounds (ALERT_ROUND_SECONDS). */
export type Urgency = 'urgent' | 'high' | 'medium' | 'low'

export interface DueRound {
  request_id: number
  round: number
  status: string
  urgency: Urgency
  /** The rounds run at the urgent interval (scheduleFirstRound). */
  urgent: boolean
  title: string
  request_type_id: number
  request_type_name: string
  requester_id: number
  latitude: number
  longitude: number
  /** docs/api/visits.md › Needs and matching: who may be alerted. */
  needs: NeedCode[]
  languages: string[]
}

/**
 * Claims the round due first, locked until the transaction ends, with its request share-locked: no other
 * instance can claim the round (SKIP LOCKED passes over it), and the request cannot be assigned or
 * cancelled until the round's alerts are committed (accept and cancel lock the row for update). A round
 * whose request is being changed right now is passed over and taken at a later tick, so a round never
 * waits for a lock, and cannot deadlock with a change that schedules or ends rounds.
 * `skip`: requests whose rounds failed lately (alerts.service.ts), so one failing round cannot hold up the others.
 */
export function claimDueRound (tx: Queryable, at: At, skip: readonly number[]): Promise<DueRound | undefined> {
  return maybeOne<DueRound>(tx, sql`
    SELECT a.request_id, a.round, a.urgent, q.status, q.urgency, q.title, q.request_type_id, t.name AS request_type_name,
      q.requester_id, q.latitude, q.longitude, q.needs, q.languages
    FROM alert_rounds a
      JOIN requests q ON q.id = a.request_id
      JOIN request_types t ON t.id = q.request_type_id
    WHERE a.due_at <= ${timeOf(at)} AND a.request_id <> ALL (${skip}::bigint[])
    ORDER BY a.due_at, a.request_id
    LIMIT 1
    FOR UPDATE OF a SKIP LOCKED FOR SHARE OF q SKIP LOCKED`)
}

/** The claimed request's rounds are over. */
export async function endRounds (tx: Queryable, requestId: number): Promise<void> {
  await tx.query(sql`DELETE FROM alert_rounds WHERE request_id = ${requestId}`)
}

/** The claimed request's next round is `round`, due `seconds` from now. */
export async function scheduleRound (tx: Queryable, requestId: number, round: number, seconds: number, at: At): Promise<void> {
  await tx.query(sql`
    UPDATE alert_rounds SET round = ${round}, due_at = ${timeOf(at)} + make_interval(secs => ${seconds}) WHERE request_id = ${requestId}`)
}

export async function countPendingOffers (tx: Queryable, requestId: number): Promise<number> {
  const row = await one<{ count: number }>(tx,
    sql`SELECT count(*)::int AS count FROM volunteer_responses WHERE request_id = ${requestId} AND status = 'pending'`)
  return row.count
}

export interface RoundInput {
  requestId: number
  round: number
  requesterId: number
  requestTypeId: number
  latitude: number
  longitude: number
  batch: number
  ringMeters: number
  at: At
  order?: AlertPolicy
  /** VOLUNTEER_CHECKS (docs/api/accounts.md › Checks that vet volunteers): kinds a volunteer must hold, valid on `today` (YYYY-MM-DD in TIME_ZONE); none when absent. */
  checks?: { required: readonly CheckKind[], today: string }
  /** docs/api/visits.md › Needs and matching: the request's needs and languages, judged on `today` (the driving check); none when absent. */
  needs?: { needs: readonly NeedCode[], languages: readonly string[], today: string }
}

/**
 * 'fair': docs/alerts.md. For scripts/simulate-alerts.ts only: 'nearest', the peers' policy, always the
 * nearest eligible volunteers with no daily cap; 'nearest-capped', the same with the daily cap (docs/alerts.md).
 */
export type AlertPolicy = 'fair' | 'nearest' | 'nearest-capped'

/** One volunteer alerted by a round, with the distance from their alert point to the request. */
export interface Alerted { volunteer_id: number, meters: number }

/**
 * The index search: on-duty volunteers whose alert point lies within the chord `bound` of the request's
 * point (the partial GiST index's two conditions), with the cheap per-row conditions.
 */
const near = (input: RoundInput, point: Sql, bound: Sql): Sql => sql`v.on_duty
    AND v.alert_point <@ cube_enlarge(${point}, ${bound}, 3)
    AND v.alert_point <-> ${point} <= least(${bound}, ${chordSql(raw('v.radius_meters'))})
    AND (cardinality(v.request_type_ids) = 0 OR ${input.requestTypeId}::bigint = ANY (v.request_type_ids))
    AND v.user_id <> ${input.requesterId}::bigint`

/**
 * The rest of eligibility (docs/alerts.md) for volunteer `k.user_id`: the daily cap (`k.max_alerts_per_day` over `k.recent`,
 * their alerts in the last 24 hours), the checks VOLUNTEER_CHECKS requires (docs/api/accounts.md › Checks that vet volunteers), the request's
 * needs (docs/api/visits.md › Needs and matching), and the rest. Written as scalar subqueries on purpose: PostgreSQL turns EXISTS into
 * joins, which read every candidate before a LIMIT can stop; scalar subqueries are evaluated row by row, in
 * order, only for the rows a LIMIT still needs.
 */
const eligible = (input: RoundInput, dailyCap: boolean): Sql => sql`${raw(dailyCap ? 'k.max_alerts_per_day > k.recent' : 'true')}
    AND (SELECT NOT u.is_blocked FROM users u WHERE u.id = k.user_id)
    AND ${input.checks === undefined ? raw('true') : holdsChecks(raw('k.user_id'), input.checks.required, input.checks.today)}
    AND ${input.needs === undefined ? raw('true') : volunteerMeets({ id: input.requestId, ...input.needs }, raw('k.user_id'))}
    AND coalesce((SELECT true FROM user_roles ur JOIN role_permissions rp ON rp.role_id = ur.role_id
      WHERE ur.user_id = k.user_id AND rp.permission_id = (SELECT id FROM permissions WHERE name = 'respond_request') LIMIT 1), false)
    AND (SELECT count(*) FROM request_alerts a WHERE a.request_id = ${input.requestId}::bigint AND a.volunteer_id = k.user_id) = 0
    AND (SELECT count(*) FROM volunteer_responses r WHERE r.request_id = ${input.requestId}::bigint AND r.volunteer_id = k.user_id) = 0`

/**
 * On-duty volunteers near the request (within the chord `bound`) with what the order needs, all read from
 * their own row: `alert_times` holds their newest alerts ascending (migrations/0011_alert_times.sql), so
 * the count after the cut-off is its length less the number at or before it (width_bucket, a binary
 * search), and the last alert its last element.
 */
const candidates = (input: RoundInput, point: Sql, bound: Sql): Sql => sql`
        SELECT v.user_id, v.max_alerts_per_day, v.alert_point <-> ${point} AS chord,
          ${metersSql(sql`v.alert_point <-> ${point}`)} AS meters,
          cardinality(v.alert_times) - width_bucket((SELECT now FROM clock) - interval '24 hours', v.alert_times) AS recent,
          v.alert_times[cardinality(v.alert_times)] AS last_at
        FROM volunteer_availability v
        WHERE ${near(input, point, bound)}`

/** The chord of MAX_ALERT_RADIUS_M, written into the text. */
const MAX_CHORD = sql`${chordSql(raw(String(MAX_ALERT_RADIUS_M)))}::float8`

/**
 * Chooses a round's volunteers and records their alerts, in one statement (docs/alerts.md):
 * ring (floor(distance / ring width)) ascending, then fewest alerts in the last 24 hours, then least
 * recently alerted (never alerted first), then nearest, then lowest id; at most `batch`.
 *
 * Why two index searches: the order puts ring before everything else, so only the rings up to that of
 * the `batch`-th nearest eligible volunteer can hold the chosen ones. `nearest` finds that volunteer by
 * a KNN scan of the GiST index (nearest first, stopping at the `batch`-th eligible one); `chosen` then
 * reads only the volunteers inside those rings (a box search of the same index), sorts them by the order
 * on their own rows' values, and tests the rest of eligibility only as far down the sorted list as the
 * batch needs. So a round reads the volunteers of its nearest rings, not every one of the thousands on
 * duty within 50 km, and even 10,000 in one ring cost a sort, not 10,000 lookups in other tables.
 * With fewer than `batch` eligible in all, every eligible volunteer is chosen.
 * The caller records the alert times (availability.repo.ts recordAlerts) in the same transaction.
 */
export async function alertVolunteers (tx: Queryable, input: RoundInput): Promise<Alerted[]> {
  const [x, y, z] = earthPoint(input.latitude, input.longitude)
  const point = sql`cube(ARRAY[${x}, ${y}, ${z}]::float8[])`
  const policy = input.order ?? 'fair'
  const eligibleSql = eligible(input, policy !== 'nearest')
  const ring = sql`${input.ringMeters}::float8`
  const order = (k: string) => policy !== 'fair'
    ? raw(`${k}.meters, ${k}.user_id`)
    : sql`floor(${raw(k)}.meters / ${ring}), ${raw(`${k}.recent, ${k}.last_at NULLS FIRST, ${k}.meters, ${k}.user_id`)}`
  const batch = sql`${input.batch}::int`
  // For this transaction only: PostgreSQL cannot estimate how many points a cube search finds, guesses ten,
  // and then prefers reading every one of them (a bitmap scan) and sorting, instead of reading the GiST index
  // nearest first and stopping at the LIMIT: 10,000 volunteers read instead of a few (docs/performance.md › Alert rounds).
  await tx.query("SELECT set_config('enable_bitmapscan', 'off', true)")
  // `ORDER BY chord`, the output column: the KNN scan's order and the distance read are one expression.
  return await tx.query<Alerted>(sql`
    WITH clock AS MATERIALIZED (SELECT ${timeOf(input.at)} AS now),
    nearest AS (
      SELECT k.chord FROM (
        -- OFFSET 0 keeps this the index search, nearest first, that the LIMIT below stops early.
        ${candidates(input, point, MAX_CHORD)}
        ORDER BY chord
        OFFSET 0
      ) k
      WHERE ${eligibleSql}
      LIMIT ${batch}
    ),
    bound AS (
      SELECT CASE WHEN count(*) < ${batch} THEN ${MAX_CHORD}
        ELSE least(${MAX_CHORD}, ${chordSql(sql`(floor(${metersSql(raw('max(chord)'))} / ${ring}) + 1) * ${ring}`)}) END AS chord
      FROM nearest
    ),
    picked AS (
      SELECT k.user_id, k.meters, k.recent, k.last_at FROM (
        -- Sorted below the filter (OFFSET 0 keeps it there), so the filter's lookups stop at the LIMIT.
        SELECT k.* FROM (${candidates(input, point, raw('(SELECT chord FROM bound)'))}) k
        ORDER BY ${order('k')}
        OFFSET 0
      ) k
      WHERE ${eligibleSql}
      LIMIT ${batch}
    ),
    inserted AS (
      INSERT INTO request_alerts (request_id, volunteer_id, round, sent_at)
      SELECT ${input.requestId}::bigint, user_id, ${input.round}::int, (SELECT now FROM clock) FROM picked
      ON CONFLICT DO NOTHING
      RETURNING volunteer_id
    )
    SELECT p.user_id AS volunteer_id, p.meters FROM picked p JOIN inserted i ON i.volunteer_id = p.user_id
    ORDER BY ${order('p')}`)
}

/**
 * The request has left approved: its alerts not yet closed, to volunteers with no response on it, are
 * closed now. Returns those volunteers, who are to be told (request_alert_closed).
 */
export async function closeAlerts (tx: Queryable, requestId: number, at: At = null): Promise<number[]> {
  const rows = await tx.query<{ volunteer_id: number }>(sql`
    UPDATE request_alerts a SET closed_at = ${timeOf(at)}
    WHERE a.request_id = ${requestId} AND a.closed_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM volunteer_responses r WHERE r.request_id = a.request_id AND r.volunteer_id = a.volunteer_id)
    RETURNING a.volunteer_id`)
  return rows.map((row) => Number(row.volunteer_id))
}

/** A catch-up alert (docs/api/help.md › Catch-up alerts) written: the request and the round it counts as. */
export interface CaughtUp { request_id: number, round: number }

/**
 * A catch-up's alerts to `volunteerId` for `requestIds` (chosen by alerts/catch-up.service.ts), each only if
 * the request is still approved with rounds under way and the volunteer has no response on it. The request
 * rows are share-locked, in id order, as a round locks its one: an accept or cancel under way is waited
 * for, and then excludes its request; one that comes later waits for this commit and closes these alerts.
 * The primary key keeps a round and a catch-up at the same moment to one alert: the second insert waits
 * for the first to commit and then inserts nothing. Each alert's `round` is the request's current round:
 * the last that ran (1 if none has yet).
 */
export async function insertCatchUpAlerts (tx: Queryable, volunteerId: number, requestIds: readonly number[], at: At): Promise<CaughtUp[]> {
  if (requestIds.length === 0) return []
  return await tx.query<CaughtUp>(sql`
    WITH open AS (
      SELECT q.id, greatest(a.round - 1, 1) AS round
      FROM requests q JOIN alert_rounds a ON a.request_id = q.id
      WHERE q.id = ANY (${[...requestIds]}::bigint[]) AND q.status = 'approved'
        AND NOT EXISTS (SELECT 1 FROM volunteer_responses r WHERE r.request_id = q.id AND r.volunteer_id = ${volunteerId}::bigint)
      ORDER BY q.id
      FOR SHARE OF q
    ),
    inserted AS (
      INSERT INTO request_alerts (request_id, volunteer_id, round, sent_at)
      SELECT id, ${volunteerId}::bigint, round, ${timeOf(at)} FROM open
      ON CONFLICT DO NOTHING
      RETURNING request_id, round
    )
    SELECT request_id, round FROM inserted`)
}
