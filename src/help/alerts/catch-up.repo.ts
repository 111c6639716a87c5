import { maybeOne, type Queryable } from '../../db/database.js'
import { raw, sql } from '../../db/sql.js'
import type { CheckKind } from '../../lib/checks.js'
import { EARTH_RADIUS_M, earthPoint } from '../../lib/geo.js'
import { holdsChecks } from '../../accounts/checks/checks.repo.js'
import { suitableFor } from '../needs/matching.js'
import type { At, Urgency } from './alerts.repo.js'

/**
 * Owns the table `alert_catch_ups` (migrations/0021_alert_catch_ups.sql): the catch-ups of docs/api/help.md › Catch-up alerts
 * waiting to run. Reads what a catch-up chooses from; its alerts are written by alerts.repo.ts.
 */

const timeOf = (at: At) => sql`coalesce(${at}::timestamptz, now())`

/** A catch-up for the volunteer, due at `at`: they went on duty, moved, widened their radius or changed their kinds. */
export async function enqueueCatchUp (tx: Queryable, volunteerId: number, at: At): Promise<void> {
  await tx.query(sql`INSERT INTO alert_catch_ups (volunteer_id, due_at) VALUES (${volunteerId}, ${timeOf(at)})`)
}

/** The home location moved: a catch-up only for a volunteer on duty whose alert point follows it. */
export async function enqueueHomeCatchUp (tx: Queryable, volunteerId: number, at: At): Promise<void> {
  await tx.query(sql`
    INSERT INTO alert_catch_ups (volunteer_id, due_at)
    SELECT v.user_id, ${timeOf(at)} FROM volunteer_availability v
    WHERE v.user_id = ${volunteerId} AND v.on_duty AND v.latitude IS NULL`)
}

export interface ClaimedCatchUp {
  volunteer_id: number
  /** The rows claimed: every due one of the volunteer's (triggers close together make one catch-up). */
  ids: number[]
  /** The latest trigger's time: requests whose rounds started after it are left to their own rounds. */
  cutoff: Date
  /** Another instance holds some of the volunteer's rows: it is catching them up now, so this one does not. */
  busy: boolean
}

/**
 * Claims the catch-up due first and every other due row of its volunteer, locked (SKIP LOCKED, so no other
 * instance runs them) until the transaction ends. `skip`: volunteers to pass over (failed lately, or busy).
 */
export async function claimCatchUp (tx: Queryable, at: At, skip: readonly number[]): Promise<ClaimedCatchUp | undefined> {
  const first = await maybeOne<{ volunteer_id: number }>(tx, sql`
    SELECT volunteer_id FROM alert_catch_ups
    WHERE due_at <= ${timeOf(at)} AND volunteer_id <> ALL (${skip}::bigint[])
    ORDER BY due_at, id LIMIT 1
    FOR UPDATE SKIP LOCKED`)
  if (first === undefined) return undefined
  const volunteerId = Number(first.volunteer_id)
  const rows = await tx.query<{ id: number, due_at: Date }>(sql`
    SELECT id, due_at FROM alert_catch_ups WHERE volunteer_id = ${volunteerId} AND due_at <= ${timeOf(at)}
    ORDER BY id FOR UPDATE SKIP LOCKED`)
  const visible = await maybeOne<{ count: number }>(tx, sql`
    SELECT count(*)::int AS count FROM alert_catch_ups WHERE volunteer_id = ${volunteerId} AND due_at <= ${timeOf(at)}`)
  return {
    volunteer_id: volunteerId,
    ids: rows.map((row) => Number(row.id)),
    cutoff: new Date(Math.max(...rows.map((row) => row.due_at.getTime()))),
    busy: rows.length < (visible?.count ?? 0),
  }
}

/** The claimed catch-ups have run. */
export async function deleteCatchUps (tx: Queryable, ids: readonly number[]): Promise<void> {
  await tx.query(sql`DELETE FROM alert_catch_ups WHERE id = ANY (${[...ids]}::bigint[])`)
}

/** A volunteer who may be alerted now (the conditions on the volunteer of docs/alerts.md), with their reach. */
export interface Catcher {
  latitude: number
  longitude: number
  radius_meters: number
  request_type_ids: number[]
  /** Alerts left under the daily cap at `at`. */
  room: number
}

/**
 * The volunteer, if eligible for alerts at `at`: holds respond_request, is not blocked, is on duty with an
 * alert point (their own, else the home location), holds the checks VOLUNTEER_CHECKS requires on `today`.
 * The daily cap's count comes from their newest alert times, as a round's does (migrations/0011).
 */
export function findCatcher (tx: Queryable, volunteerId: number, at: At, checks: { required: readonly CheckKind[], today: string }): Promise<Catcher | undefined> {
  return maybeOne<Catcher>(tx, sql`
    SELECT coalesce(v.latitude, u.latitude) AS latitude, coalesce(v.longitude, u.longitude) AS longitude,
      v.radius_meters, v.request_type_ids,
      v.max_alerts_per_day - (cardinality(v.alert_times) - width_bucket(${timeOf(at)} - interval '24 hours', v.alert_times)) AS room
    FROM volunteer_availability v JOIN users u ON u.id = v.user_id
    WHERE v.user_id = ${volunteerId} AND v.on_duty AND v.alert_point IS NOT NULL AND NOT u.is_blocked
      AND EXISTS (SELECT 1 FROM user_roles ur JOIN role_permissions rp ON rp.role_id = ur.role_id
        WHERE ur.user_id = u.id AND rp.permission_id = (SELECT id FROM permissions WHERE name = 'respond_request'))
      AND ${holdsChecks(raw('u.id'), checks.required, checks.today)}`)
}

/** An approved request whose rounds are under way, as a catch-up may alert a volunteer to it. */
export interface OpenRequest {
  id: number
  title: string
  urgency: Urgency
  request_type_id: number
  request_type_name: string
  latitude: number
  longitude: number
  created_at: Date
}

export interface OpenRequestsQuery {
  volunteerId: number
  catcher: Catcher
  /** Only requests whose rounds started at or before this. */
  cutoff: Date
  /** Metres beyond the radius to read, for requests placed elsewhere for alerting (their grid point); the caller measures exactly. */
  slackMeters: number
  /** ALERT_STOP_AFTER_OFFERS: a request with this many pending offers has its rounds paused, and no catch-up adds to them. */
  stopAfterOffers: number
  /** TIME_ZONE's date at the catch-up: only requests whose needs the volunteer meets on it (docs/api/visits.md › Needs and matching). */
  today: string
}

/**
 * Approved requests with rounds under way (a row in alert_rounds: not stopped), started by `cutoff`, near
 * the volunteer's alert point (exact points, within radius + slack), of their kinds, not theirs, not
 * alerted to them, without their response, and not paused for offers. Small: alert_rounds holds only
 * requests alerted in the last few hours.
 */
export function findOpenRequests (tx: Queryable, query: OpenRequestsQuery): Promise<OpenRequest[]> {
  const { catcher, volunteerId } = query
  const [x, y, z] = earthPoint(catcher.latitude, catcher.longitude)
  const reach = catcher.radius_meters + query.slackMeters
  // The chord of a great-circle distance on the earth() sphere (what cube's `<->` measures).
  const chord = 2 * EARTH_RADIUS_M * Math.sin(Math.min(reach / (2 * EARTH_RADIUS_M), Math.PI / 2))
  return tx.query<OpenRequest>(sql`
    SELECT q.id, q.title, q.urgency, q.request_type_id, t.name AS request_type_name, q.latitude, q.longitude, q.created_at
    FROM alert_rounds a
      JOIN requests q ON q.id = a.request_id
      JOIN request_types t ON t.id = q.request_type_id
    WHERE q.status = 'approved' AND a.started_at <= ${query.cutoff}::timestamptz AND q.requester_id <> ${volunteerId}::bigint
      AND (cardinality(${catcher.request_type_ids.map(Number)}::bigint[]) = 0 OR q.request_type_id = ANY (${catcher.request_type_ids.map(Number)}::bigint[]))
      AND q.location <-> cube(ARRAY[${x}, ${y}, ${z}]::float8[]) <= ${chord}::float8
      AND NOT EXISTS (SELECT 1 FROM request_alerts r WHERE r.request_id = q.id AND r.volunteer_id = ${volunteerId}::bigint)
      AND NOT EXISTS (SELECT 1 FROM volunteer_responses r WHERE r.request_id = q.id AND r.volunteer_id = ${volunteerId}::bigint)
      AND (SELECT count(*) FROM volunteer_responses r WHERE r.request_id = q.id AND r.status = 'pending') < ${query.stopAfterOffers}
      AND ${suitableFor(sql`${volunteerId}::bigint`, sql`${query.today}::date`, 'q')}`)
}
