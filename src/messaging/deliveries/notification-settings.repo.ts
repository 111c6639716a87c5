import type { Queryable } from '../../db/database.js'
import { sql } from '../../db/sql.js'
import type { NotificationType } from '../../events/notifications.js'

/**
 * Owns `notification_settings` (docs/api/messaging.md › Deliveries and e-mail): a row once a person changes something; no row
 * means the defaults (deliveries.repo.ts DEFAULT_EMAIL_TYPES, push on for every type).
 */
export interface SettingsRow {
  email_enabled: boolean
  email_types: NotificationType[]
  push_enabled: boolean
  push_types: NotificationType[]
  /** Texts (docs/api/messaging.md › Texts): off until the person switches them on (they cost the operator money). */
  sms_enabled: boolean
  sms_types: NotificationType[]
  quiet_start: string | null
  quiet_end: string | null
  time_zone: string | null
}

export async function findSettings (db: Queryable, userId: number): Promise<SettingsRow | undefined> {
  const rows = await db.query<SettingsRow>(sql`
    SELECT email_enabled, email_types, push_enabled, push_types, sms_enabled, sms_types, quiet_start, quiet_end, time_zone
    FROM notification_settings WHERE user_id = ${userId}`)
  return rows[0]
}

/** Locks the person's row (when there is one) for a read-modify-write of their settings. */
export async function findSettingsForUpdate (tx: Queryable, userId: number): Promise<SettingsRow | undefined> {
  const rows = await tx.query<SettingsRow>(sql`
    SELECT email_enabled, email_types, push_enabled, push_types, sms_enabled, sms_types, quiet_start, quiet_end, time_zone
    FROM notification_settings WHERE user_id = ${userId} FOR UPDATE`)
  return rows[0]
}

export async function saveSettings (tx: Queryable, userId: number, row: SettingsRow): Promise<void> {
  await tx.query(sql`
    INSERT INTO notification_settings (user_id, email_enabled, email_types, push_enabled, push_types, sms_enabled, sms_types, quiet_start, quiet_end, time_zone)
    VALUES (${userId}, ${row.email_enabled}, ${row.email_types}::text[], ${row.push_enabled}, ${row.push_types}::text[], ${row.sms_enabled}, ${row.sms_types}::text[],
      ${row.quiet_start}, ${row.quiet_end}, ${row.time_zone})
    ON CONFLICT (user_id) DO UPDATE SET email_enabled = excluded.email_enabled, email_types = excluded.email_types,
      push_enabled = excluded.push_enabled, push_types = excluded.push_types, sms_enabled = excluded.sms_enabled, sms_types = excluded.sms_types,
      quiet_start = excluded.quiet_start,
      quiet_end = excluded.quiet_end, time_zone = excluded.time_zone`)
}

/**
 * One-click unsubscribe (RFC 8058): takes `type` out of the person's e-mail types, starting from the
 * defaults when they have no row yet. One statement, so two clicks at once cannot lose either.
 */
export async function removeEmailType (db: Queryable, userId: number, type: NotificationType, defaults: { emailTypes: readonly string[], pushTypes: readonly string[] }): Promise<void> {
  await db.query(sql`
    INSERT INTO notification_settings (user_id, email_enabled, email_types, push_enabled, push_types)
    SELECT id, true, array_remove(${defaults.emailTypes}::text[], ${type}), true, ${defaults.pushTypes}::text[] FROM users WHERE id = ${userId} AND erased_at IS NULL
    ON CONFLICT (user_id) DO UPDATE SET email_types = array_remove(notification_settings.email_types, ${type})`)
}

/** Erasure (docs/privacy.md › Erasure): the person's choices, zone and quiet hours go (their users row stays). */
export async function deleteSettingsOf (tx: Queryable, userId: number): Promise<void> {
  await tx.query(sql`DELETE FROM notification_settings WHERE user_id = ${userId}`)
}

/** Whether the database knows the zone (it turns quiet hours into instants: deliveries.repo.ts). */
export async function isKnownZone (db: Queryable, zone: string): Promise<boolean> {
  const rows = await db.query<{ known: boolean }>(sql`SELECT EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = ${zone}) AS known`)
  return rows[0]?.known === true
}
