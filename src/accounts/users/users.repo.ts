import { maybeOne, one, type Queryable } from '../../db/database.js'
import { empty, join, raw, sql } from '../../db/sql.js'
import type { CheckKind } from '../../lib/checks.js'
import type { Capability, Gender } from '../../lib/matching-values.js'
import type { Page } from '../../lib/page.js'
import { validCheckKinds } from '../checks/checks.repo.js'

/**
 * Owns the `users` table: every statement that writes a user row is in this file, whichever module's
 * service runs it (auth registers and changes passwords, roles blocks and creates the first admin, responses counts a
 * completion), so a column's writers are found in one place. See src/README.md.
 */

export interface UserInfoRow { id: number, email: string, first_name: string, last_name: string, email_verified: boolean }
export interface CredentialsRow extends UserInfoRow { password_hash: string, is_blocked: boolean }

export interface ProfileRow extends UserInfoRow {
  phone: string | null
  bio: string | null
  avatar_url: string | null
  address: string | null
  city: string | null
  volunteer_rating: number | null
  completed_requests_count: number
  /** The kinds of the user's valid checks (checks.repo.ts validCheckKinds); is_verified is whether it holds identity. */
  checks: CheckKind[]
  is_blocked: boolean
  /** The language of the person's e-mails and pushes (docs/api/messaging.md › Deliveries and e-mail). */
  locale: 'en' | 'de'
  /** docs/api/visits.md › Needs and matching: what they can offer and speak; gender only for their own profile and export. */
  capabilities: Capability[]
  languages: string[]
  gender: Gender | null
  created_at: Date
  updated_at: Date
}

export interface AdminUserRow extends UserInfoRow { checks: CheckKind[], is_blocked: boolean, role_ids: number[] }

export interface NewUser {
  email: string
  password_hash: string
  first_name: string
  last_name: string
  phone?: string | undefined
  latitude?: number | undefined
  longitude?: number | undefined
  address?: string | undefined
  city?: string | undefined
  bio?: string | undefined
  /** The language of the account's e-mails and pushes; 'en' when not given. */
  locale?: 'en' | 'de' | undefined
}

/** The fields PATCH /users/me may change; nothing else is ever written from that body. */
export const EDITABLE_PROFILE_FIELDS = ['first_name', 'last_name', 'phone', 'bio', 'address', 'city', 'locale', 'gender'] as const
/** The array fields PATCH /users/me may change (docs/api/visits.md › Needs and matching), already checked. */
export const EDITABLE_PROFILE_LISTS = ['capabilities', 'languages'] as const
export type ProfileChanges = Partial<Record<typeof EDITABLE_PROFILE_FIELDS[number], string | null> & Record<typeof EDITABLE_PROFILE_LISTS[number], string[]>>

const USER_INFO_TEXT = 'id, email, first_name, last_name, email_verified'
const USER_INFO = raw(USER_INFO_TEXT)
/** A profile's columns as of `today` (the checks' validity), for queries reading `users` unaliased. */
const profile = (today: string) => sql`${raw(`${USER_INFO_TEXT}, phone, bio, avatar_url, address, city, volunteer_rating, completed_requests_count,
  is_blocked, locale, capabilities, languages, gender, created_at, updated_at`)}, ${validCheckKinds(raw('users.id'), today)} AS checks`

export function insertUser (db: Queryable, user: NewUser): Promise<UserInfoRow> {
  return one<UserInfoRow>(db, sql`
    INSERT INTO users (email, password_hash, first_name, last_name, phone, latitude, longitude, address, city, bio, locale)
    VALUES (${user.email}, ${user.password_hash}, ${user.first_name}, ${user.last_name}, ${user.phone ?? null},
      ${user.latitude ?? null}, ${user.longitude ?? null}, ${user.address ?? null}, ${user.city ?? null}, ${user.bio ?? null}, ${user.locale ?? 'en'})
    RETURNING ${USER_INFO}`)
}

export function findCredentials (db: Queryable, email: string): Promise<CredentialsRow | undefined> {
  return maybeOne<CredentialsRow>(db, sql`SELECT ${USER_INFO}, password_hash, is_blocked FROM users WHERE email = ${email}`)
}

export function findUserInfo (db: Queryable, id: number): Promise<UserInfoRow | undefined> {
  return maybeOne<UserInfoRow>(db, sql`SELECT ${USER_INFO} FROM users WHERE id = ${id}`)
}

export function findProfile (db: Queryable, id: number, today: string): Promise<ProfileRow | undefined> {
  return maybeOne<ProfileRow>(db, sql`SELECT ${profile(today)} FROM users WHERE id = ${id}`)
}

/** The request in_progress two users share (the oldest, if several), and the viewer's side of it. */
export interface SharedRequest { shared_request_id: number | null, viewer_side: 'requester' | 'assigned volunteer' | null }

/**
 * The profile of `id` as `viewerId` may see it, with the request in status in_progress the two share, if
 * any, which makes the viewer the other side (docs/api/help.md › Reading one request) and is named in the access record (docs/privacy.md › Access records).
 */
export function findProfileFor (db: Queryable, id: number, viewerId: number, today: string): Promise<(ProfileRow & SharedRequest) | undefined> {
  return maybeOne(db, sql`
    SELECT ${profile(today)}, s.shared_request_id, s.viewer_side
    FROM users LEFT JOIN LATERAL (
      SELECT r.id AS shared_request_id, CASE WHEN r.requester_id = ${viewerId} THEN 'requester' ELSE 'assigned volunteer' END AS viewer_side
      FROM requests r WHERE r.status = 'in_progress' AND (
        (r.requester_id = ${id} AND r.assigned_volunteer_id = ${viewerId}) OR (r.requester_id = ${viewerId} AND r.assigned_volunteer_id = ${id}))
      ORDER BY r.id LIMIT 1
    ) s ON true
    WHERE users.id = ${id}`)
}

/**
 * Writes only whitelisted columns; the column names come from EDITABLE_PROFILE_FIELDS, never from input. A
 * different phone is unconfirmed again (docs/api/messaging.md › Texts). Undefined: no such user; else whether
 * the phone changed (the caller then voids a code sent to the old one, in the same transaction).
 */
export async function updateProfile (db: Queryable, id: number, changes: ProfileChanges): Promise<{ phoneChanged: boolean } | undefined> {
  const fields = EDITABLE_PROFILE_FIELDS.filter((field) => changes[field] !== undefined)
  const lists = EDITABLE_PROFILE_LISTS.filter((field) => changes[field] !== undefined)
  const assignments = [...fields.map((field) => sql`${raw(field)} = ${changes[field]}`), ...lists.map((field) => sql`${raw(field)} = ${changes[field]}::text[]`)]
  const rows = await db.query<{ phone_changed: boolean }>(sql`
    WITH changed AS (SELECT id FROM users WHERE id = ${id} AND ${changes.phone !== undefined} AND phone IS DISTINCT FROM ${changes.phone ?? null})
    UPDATE users SET ${join([...assignments, raw('updated_at = now()')], ', ')},
      phone_verified_at = CASE WHEN users.id IN (SELECT id FROM changed) THEN NULL ELSE users.phone_verified_at END
    WHERE id = ${id} RETURNING users.id IN (SELECT id FROM changed) AS phone_changed`)
  return rows[0] === undefined ? undefined : { phoneChanged: rows[0].phone_changed }
}

/** The profile's phone and whether it is confirmed for texts (docs/api/messaging.md › Texts). */
export function findPhone (db: Queryable, id: number): Promise<{ phone: string | null, verified: boolean } | undefined> {
  return maybeOne(db, sql`SELECT phone, phone_verified_at IS NOT NULL AS verified FROM users WHERE id = ${id}`)
}

/** Confirms the phone, as long as it is still `phone` (a change meanwhile left it unconfirmed). */
export async function markPhoneVerified (db: Queryable, id: number, phone: string, now: Date): Promise<boolean> {
  const rows = await db.query(sql`UPDATE users SET phone_verified_at = ${now} WHERE id = ${id} AND phone = ${phone} RETURNING id`)
  return rows.length > 0
}

export async function updateLocation (db: Queryable, id: number, latitude: number, longitude: number): Promise<void> {
  await db.query(sql`UPDATE users SET latitude = ${latitude}, longitude = ${longitude}, updated_at = now() WHERE id = ${id}`)
}

/**
 * Locks the user's row for the rest of the transaction. Availability changes and home-location changes
 * both take it first, so the alert point is always computed from the latest of both.
 */
export async function lockUser (tx: Queryable, userId: number): Promise<void> {
  await tx.query(sql`SELECT id FROM users WHERE id = ${userId} FOR NO KEY UPDATE`)
}

export function findLocation (db: Queryable, id: number): Promise<{ latitude: number | null, longitude: number | null } | undefined> {
  return maybeOne(db, sql`SELECT latitude, longitude FROM users WHERE id = ${id}`)
}

/**
 * Users whose e-mail address or name contains `text` (any case), oldest account first, with the ids of
 * their roles. A LIKE with a leading wildcard reads every user row: fine for an admin's search, which
 * is rare, and exact matches on part of a name are what an admin types.
 */
export function searchUsers (db: Queryable, text: string, page: Page, today: string): Promise<AdminUserRow[]> {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  return db.query<AdminUserRow>(sql`
    SELECT u.id, u.email, u.first_name, u.last_name, u.email_verified, ${validCheckKinds(raw('u.id'), today)} AS checks, u.is_blocked,
      COALESCE(ARRAY(SELECT ur.role_id FROM user_roles ur WHERE ur.user_id = u.id ORDER BY ur.role_id), '{}') AS role_ids
    FROM users u
    WHERE u.email ILIKE ${pattern} OR (u.first_name || ' ' || u.last_name) ILIKE ${pattern}
    ORDER BY u.id
    LIMIT ${page.limit} OFFSET ${page.offset}`)
}

/** True when the address was not confirmed before (docs/api/accounts.md › Getting back in then sends 'email_verified'). */
export async function markEmailVerified (db: Queryable, id: number): Promise<boolean> {
  const rows = await db.query(sql`UPDATE users SET email_verified = true, updated_at = now() WHERE id = ${id} AND NOT email_verified RETURNING id`)
  return rows.length > 0
}

/**
 * A password reset or change (docs/api/accounts.md › Getting back in). `replacing`: the hash the caller checked the current password
 * against, so of two changes racing with one current password only the first succeeds (false for the other).
 */
export async function updatePasswordHash (db: Queryable, id: number, passwordHash: string, replacing?: string): Promise<boolean> {
  const rows = await db.query(sql`
    UPDATE users SET password_hash = ${passwordHash}, updated_at = now()
    WHERE id = ${id} AND erased_at IS NULL ${replacing === undefined ? empty : sql`AND password_hash = ${replacing}`}
    RETURNING id`)
  return rows.length > 0
}

/** True when the user exists. */
export async function setFlag (db: Queryable, id: number, flag: 'is_blocked', value: boolean): Promise<boolean> {
  const rows = await db.query(sql`UPDATE users SET ${raw(flag)} = ${value}, updated_at = now() WHERE id = ${id} RETURNING id`)
  return rows.length > 0
}

export async function userExists (db: Queryable, id: number): Promise<boolean> {
  return (await maybeOne(db, sql`SELECT 1 FROM users WHERE id = ${id}`)) !== undefined
}

/** The user exists and has not erased their account. */
export async function isActiveUser (db: Queryable, id: number): Promise<boolean> {
  return (await maybeOne(db, sql`SELECT 1 FROM users WHERE id = ${id} AND erased_at IS NULL`)) !== undefined
}

/**
 * The account for `email` (already normalised), created with the given hash and names unless it exists;
 * an existing account keeps its password, names and blocked flag. Safe when several instances run it at once.
 */
export async function ensureUser (db: Queryable, user: { email: string, password_hash: string, first_name: string, last_name: string, email_verified: boolean }): Promise<{ id: number, created: boolean }> {
  const inserted = await db.query(sql`
    INSERT INTO users (email, password_hash, first_name, last_name, email_verified)
    VALUES (${user.email}, ${user.password_hash}, ${user.first_name}, ${user.last_name}, ${user.email_verified})
    ON CONFLICT (email) DO NOTHING
    RETURNING id`)
  const { id } = await one<{ id: number }>(db, sql`SELECT id FROM users WHERE email = ${user.email}`)
  return { id, created: inserted.length > 0 }
}

/**
 * Locks the volunteer's user row. This must be its own statement, before recountVolunteer: in READ
 * COMMITTED each statement takes a fresh snapshot, so the AVG that follows the lock sees the ratings
 * of every completion that held the lock before, and no concurrent completion's rating is left out.
 */
export async function lockVolunteer (db: Queryable, volunteerId: number): Promise<void> {
  await db.query(sql`SELECT id FROM users WHERE id = ${volunteerId} FOR NO KEY UPDATE`)
}

/**
 * Locks the volunteer's row (as lockVolunteer) and says whether the account is blocked, as of the latest
 * commit: a block committed while the caller waited for the lock is seen.
 */
export async function lockVolunteerBlocked (db: Queryable, volunteerId: number): Promise<boolean> {
  const row = await maybeOne<{ is_blocked: boolean }>(db, sql`SELECT is_blocked FROM users WHERE id = ${volunteerId} FOR NO KEY UPDATE`)
  return row?.is_blocked !== false
}

/** One more completed request; the rating is the mean of all the volunteer's ratings. */
export async function recountVolunteer (db: Queryable, volunteerId: number): Promise<void> {
  await db.query(sql`
    UPDATE users SET completed_requests_count = completed_requests_count + 1,
      volunteer_rating = (SELECT AVG(score)::double precision FROM ratings WHERE volunteer_id = ${volunteerId}),
      updated_at = now()
    WHERE id = ${volunteerId}`)
}

export function findPasswordHash (db: Queryable, id: number): Promise<{ password_hash: string } | undefined> {
  return maybeOne(db, sql`SELECT password_hash FROM users WHERE id = ${id} AND erased_at IS NULL`)
}

/** The account's own data, for its export (docs/privacy.md › Erasure): the profile with its home point. */
export function findOwnData (db: Queryable, id: number, today: string): Promise<(ProfileRow & { latitude: number | null, longitude: number | null }) | undefined> {
  return maybeOne(db, sql`SELECT ${profile(today)}, latitude, longitude FROM users WHERE id = ${id}`)
}

/** The names an erased account is shown under (docs/privacy.md › Erasure: "Former user"). */
export const FORMER_USER = { first_name: 'Former', last_name: 'user' } as const

/**
 * Erasure (docs/privacy.md › Erasure): the row stays, because ratings and request histories refer to it, but every
 * personal field goes: the e-mail becomes `email` (unique, unusable), the password a value no password
 * matches, the names "Former user". The rating and completed count stay, so volunteers' averages don't move.
 */
export async function eraseUser (db: Queryable, id: number, email: string): Promise<void> {
  await db.query(sql`
    UPDATE users SET email = ${email}, password_hash = '!erased', first_name = ${FORMER_USER.first_name}, last_name = ${FORMER_USER.last_name},
      phone = NULL, phone_verified_at = NULL, bio = NULL, avatar_url = NULL, address = NULL, city = NULL, latitude = NULL, longitude = NULL,
      capabilities = '{}', languages = '{}', gender = NULL, email_verified = false, erased_at = now(), updated_at = now()
    WHERE id = ${id}`)
}

/** The language of the person's answers and messages (GET /needs for a signed-in caller). */
export async function findLocale (db: Queryable, id: number): Promise<'en' | 'de' | undefined> {
  return (await maybeOne<{ locale: 'en' | 'de' }>(db, sql`SELECT locale FROM users WHERE id = ${id}`))?.locale
}
