import { maybeOne, one, type Queryable } from '../../db/database.js'
import { raw, sql, type Sql } from '../../db/sql.js'
import { CHECK_KINDS, type CheckKind } from '../../lib/checks.js'

/**
 * Owns the table `user_checks` (migrations/0015_checks.sql, docs/api/accounts.md › Checks that vet volunteers): every statement that writes
 * it is in this file. Rows are never deleted; revoking and erasure only stamp them.
 *
 * Validity is always decided here, in SQL, against a calendar date passed in (the service's today()
 * in TIME_ZONE), never stored: a check that runs out stops counting without anyone writing.
 */

export interface CheckRow {
  id: number
  user_id: number
  kind: CheckKind
  note: string | null
  valid_until: string | null
  verified_by: number | null
  verified_by_name: string | null
  verified_at: Date
  revoked_at: Date | null
}

// The recorder's name is read where the check is, for those who read checks (moderators and admins): a staff name, as
// "Recorded by" a person would say it, rather than a number to look up.
const CHECK_COLUMNS = raw(`id, user_id, kind, note, to_char(valid_until, 'YYYY-MM-DD') AS valid_until, verified_by,
  (SELECT concat_ws(' ', r.first_name, r.last_name) FROM users r WHERE r.id = user_checks.verified_by) AS verified_by_name,
  verified_at, revoked_at`)

/** The condition "check `c` is valid on `today`": not revoked, and no end date or one not yet past. */
const validOnDate = (today: Sql): Sql => sql`c.revoked_at IS NULL AND (c.valid_until IS NULL OR c.valid_until >= ${today})`
const validOn = (today: string): Sql => validOnDate(sql`${today}::date`)

const KIND_ORDER = raw(`ARRAY[${CHECK_KINDS.map((kind) => `'${kind}'`).join(', ')}]::text[]`)

/**
 * The kinds of the valid checks of user `userId` (an SQL expression, e.g. `u.id`), each once, in the
 * order identity, background, training, reference: a text[] column for any query that reads users
 * (profiles, offers). `is_verified` is whether it holds 'identity'.
 */
export const validCheckKinds = (userId: Sql, today: string): Sql => sql`ARRAY(
  SELECT c.kind FROM user_checks c WHERE c.user_id = ${userId} AND ${validOn(today)}
  GROUP BY c.kind ORDER BY array_position(${KIND_ORDER}, c.kind))`

/**
 * Whether user `userId` (an SQL expression) holds a valid check of every kind in `kinds` (VOLUNTEER_CHECKS):
 * a boolean expression, evaluated per row, so alert eligibility can test it only for the rows it needs.
 */
export const holdsChecks = (userId: Sql, kinds: readonly CheckKind[], today: string): Sql => kinds.length === 0
  ? raw('true')
  : sql`(SELECT count(DISTINCT c.kind) FROM user_checks c
      WHERE c.user_id = ${userId} AND c.kind = ANY (${kinds}::text[]) AND ${validOn(today)}) = ${kinds.length}`

/**
 * Whether user `userId` holds a valid check of `kind` on `today`, both SQL expressions (docs/api/visits.md › Needs and matching:
 * the driving check), so that a statement kept as text can pass its parameters by number. `kind` is a literal of CHECK_KINDS.
 */
export const holdsCheckOn = (userId: Sql, kind: CheckKind, today: Sql): Sql => sql`EXISTS (SELECT 1 FROM user_checks c
  WHERE c.user_id = ${userId} AND c.kind = ${raw(`'${kind}'`)} AND ${validOnDate(today)})`

export interface NewCheck {
  userId: number
  kind: CheckKind
  note: string | null
  validUntil: string | null
  verifiedBy: number
  at: Date
}

export function insertCheck (db: Queryable, check: NewCheck): Promise<CheckRow> {
  return one<CheckRow>(db, sql`
    INSERT INTO user_checks (user_id, kind, note, valid_until, verified_by, verified_at)
    VALUES (${check.userId}, ${check.kind}, ${check.note}, ${check.validUntil}::date, ${check.verifiedBy}, ${check.at})
    RETURNING ${CHECK_COLUMNS}`)
}

/** Every check of the user, revoked and expired ones too, newest first. */
export function listChecks (db: Queryable, userId: number): Promise<CheckRow[]> {
  return db.query<CheckRow>(sql`SELECT ${CHECK_COLUMNS} FROM user_checks WHERE user_id = ${userId} ORDER BY verified_at DESC, id DESC`)
}

/** Stamps the check revoked unless it is already (idempotent: the first time stays); undefined when the user has no such check. */
export function revokeCheck (db: Queryable, userId: number, checkId: number, at: Date): Promise<CheckRow | undefined> {
  return maybeOne<CheckRow>(db, sql`
    UPDATE user_checks SET revoked_at = coalesce(revoked_at, ${at}::timestamptz)
    WHERE id = ${checkId} AND user_id = ${userId}
    RETURNING ${CHECK_COLUMNS}`)
}

/** POST /admin/users/{id}/unverify: every valid identity check of the user is revoked. */
export async function revokeValidIdentityChecks (db: Queryable, userId: number, today: string, at: Date): Promise<void> {
  await db.query(sql`
    UPDATE user_checks c SET revoked_at = ${at}::timestamptz
    WHERE c.user_id = ${userId} AND c.kind = 'identity' AND ${validOn(today)}`)
}

/** Whether the user holds a valid identity check without end date (what POST /admin/users/{id}/verify records). */
export async function holdsLastingIdentityCheck (db: Queryable, userId: number): Promise<boolean> {
  const row = await maybeOne(db, sql`
    SELECT 1 FROM user_checks WHERE user_id = ${userId} AND kind = 'identity' AND revoked_at IS NULL AND valid_until IS NULL LIMIT 1`)
  return row !== undefined
}

/** A check whose end is near, with who is to be told. */
export interface ExpiringCheck { id: number, user_id: number, kind: CheckKind, valid_until: string }

/**
 * Valid checks that end within `days` days of `today` and were never notified, claimed for this
 * transaction (SKIP LOCKED: a second instance running the job at the same moment passes over them).
 */
export function claimExpiringChecks (tx: Queryable, today: string, days: number, limit: number): Promise<ExpiringCheck[]> {
  return tx.query<ExpiringCheck>(sql`
    SELECT c.id, c.user_id, c.kind, to_char(c.valid_until, 'YYYY-MM-DD') AS valid_until
    FROM user_checks c
    WHERE c.revoked_at IS NULL AND c.valid_until IS NOT NULL AND c.expiry_notified_at IS NULL
      AND c.valid_until >= ${today}::date AND c.valid_until <= ${today}::date + ${days}::int
    ORDER BY c.valid_until, c.id
    LIMIT ${limit}
    FOR UPDATE SKIP LOCKED`)
}

export async function markExpiryNotified (tx: Queryable, ids: readonly number[], at: Date): Promise<void> {
  await tx.query(sql`UPDATE user_checks SET expiry_notified_at = ${at}::timestamptz WHERE id = ANY (${ids}::bigint[])`)
}

/** Who holds the admin role now (every admin is told of an expiring check). */
export async function adminIds (db: Queryable): Promise<number[]> {
  const rows = await db.query<{ user_id: number }>(sql`
    SELECT ur.user_id FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE r.name = 'admin' ORDER BY ur.user_id`)
  return rows.map((row) => Number(row.user_id))
}

/**
 * Erasure (docs/privacy.md › Checks): the rows stay as the record that the account was vetted, by whom
 * and when, but they stop counting and lose their notes, the only free text in them.
 */
export async function eraseChecksOf (db: Queryable, userId: number, at: Date): Promise<void> {
  await db.query(sql`UPDATE user_checks SET note = NULL, revoked_at = coalesce(revoked_at, ${at}::timestamptz) WHERE user_id = ${userId}`)
}

/** Whether the user holds a valid check of every kind in `kinds` (VOLUNTEER_CHECKS) on `today`. */
export async function holdsRequiredChecks (db: Queryable, userId: number, kinds: readonly CheckKind[], today: string): Promise<boolean> {
  if (kinds.length === 0) return true
  const row = await one<{ holds: boolean }>(db, sql`SELECT ${holdsChecks(sql`${userId}::bigint`, kinds, today)} AS holds`)
  return row.holds
}

/** Whether the account exists at all (a check may be revoked on an erased account, never recorded for one). */
export async function userExists (db: Queryable, id: number): Promise<boolean> {
  return (await maybeOne(db, sql`SELECT 1 FROM users WHERE id = ${id}`)) !== undefined
}

/** The account exists and has not been erased. */
export async function isActiveUser (db: Queryable, id: number): Promise<boolean> {
  return (await maybeOne(db, sql`SELECT 1 FROM users WHERE id = ${id} AND erased_at IS NULL`)) !== undefined
}
