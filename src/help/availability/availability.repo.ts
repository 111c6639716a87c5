import { maybeOne, one, type Queryable } from '../../db/database.js'
import { raw, sql } from '../../db/sql.js'

/** What PUT /users/me/availability stores (docs/api/help.md › Availability). */
export interface AvailabilityValues {
  on_duty: boolean
  radius_meters: number
  latitude: number | null
  longitude: number | null
  request_type_ids: number[]
  max_alerts_per_day: number
}

export const AVAILABILITY_DEFAULTS: AvailabilityValues = Object.freeze({
  on_duty: false, radius_meters: 5000, latitude: null, longitude: null, request_type_ids: [], max_alerts_per_day: 10,
}) as AvailabilityValues

export interface AvailabilityRow extends AvailabilityValues {
  updated_at: Date | null
  alerts_last_24h: number
  /** The profile's home location (POST /users/me/location), null when never set. */
  home_latitude: number | null
  home_longitude: number | null
  /** Whether the user has an availability row at all. */
  saved: boolean
}

/** The effective alert point of `volunteer_availability a` for user `u`: its own point, else the home location. */
const ALERT_POINT = raw(`CASE WHEN a.latitude IS NOT NULL THEN ll_to_earth(a.latitude, a.longitude)
  WHEN u.latitude IS NOT NULL THEN ll_to_earth(u.latitude, u.longitude) END`)

/** The user's availability (defaults where never set), home location and alerts of the last 24 hours. */
export function findAvailability (db: Queryable, userId: number): Promise<AvailabilityRow | undefined> {
  return maybeOne<AvailabilityRow>(db, sql`
    SELECT coalesce(a.on_duty, false) AS on_duty, coalesce(a.radius_meters, 5000) AS radius_meters,
      a.latitude, a.longitude, coalesce(a.request_type_ids, '{}') AS request_type_ids,
      coalesce(a.max_alerts_per_day, 10) AS max_alerts_per_day, a.updated_at,
      u.latitude AS home_latitude, u.longitude AS home_longitude, a.user_id IS NOT NULL AS saved,
      (SELECT count(*)::int FROM notifications n
        WHERE n.user_id = u.id AND n.type = 'request_alert' AND n.created_at > now() - interval '24 hours') AS alerts_last_24h
    FROM users u LEFT JOIN volunteer_availability a ON a.user_id = u.id
    WHERE u.id = ${userId}`)
}

/** Inserts or replaces the availability, with its alert point; call after users.lockUser. */
export async function saveAvailability (tx: Queryable, userId: number, values: AvailabilityValues): Promise<void> {
  await one(tx, sql`
    INSERT INTO volunteer_availability AS a (user_id, on_duty, radius_meters, latitude, longitude, request_type_ids, max_alerts_per_day, updated_at)
    VALUES (${userId}, ${values.on_duty}, ${values.radius_meters}, ${values.latitude}, ${values.longitude}, ${values.request_type_ids}::bigint[],
      ${values.max_alerts_per_day}, now())
    ON CONFLICT (user_id) DO UPDATE SET on_duty = EXCLUDED.on_duty, radius_meters = EXCLUDED.radius_meters,
      latitude = EXCLUDED.latitude, longitude = EXCLUDED.longitude, request_type_ids = EXCLUDED.request_type_ids,
      max_alerts_per_day = EXCLUDED.max_alerts_per_day, updated_at = now()
    RETURNING user_id`)
  await refreshAlertPoint(tx, userId)
}

/**
 * Recomputes the stored alert point from the availability point and the home location. Called in the
 * transaction of every change to either (saveAvailability, and setting the home location).
 */
export async function refreshAlertPoint (tx: Queryable, userId: number): Promise<void> {
  await tx.query(sql`
    UPDATE volunteer_availability a SET alert_point = ${ALERT_POINT}
    FROM users u WHERE u.id = a.user_id AND a.user_id = ${userId}`)
}

/**
 * A round alerted these volunteers at `at` (null: now): their newest alert times (migrations/0011) gain it,
 * kept ascending (rounds of two instances may commit out of order) and at most 50.
 */
export async function recordAlerts (tx: Queryable, volunteerIds: readonly number[], at: Date | null): Promise<void> {
  if (volunteerIds.length === 0) return
  await tx.query(sql`
    UPDATE volunteer_availability a SET alert_times = ARRAY(
      SELECT t FROM (SELECT t FROM unnest(a.alert_times || coalesce(${at}::timestamptz, now())) t ORDER BY t DESC LIMIT 50) newest ORDER BY t)
    WHERE a.user_id = ANY (${[...volunteerIds].sort((x, y) => x - y)}::bigint[])`)
}

/** Erasure (docs/privacy.md › Erasure): the user's availability, alert point included, is deleted. */
export async function deleteAvailability (tx: Queryable, userId: number): Promise<void> {
  await tx.query(sql`DELETE FROM volunteer_availability WHERE user_id = ${userId}`)
}

/** How many of the distinct ids are active request types. */
export async function countActiveTypes (db: Queryable, ids: readonly number[]): Promise<number> {
  const row = await one<{ count: number }>(db,
    sql`SELECT count(*)::int AS count FROM request_types WHERE id = ANY(${ids}::bigint[]) AND is_active`)
  return row.count
}
