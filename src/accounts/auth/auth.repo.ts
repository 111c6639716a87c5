import { maybeOne, type Queryable } from '../../db/database.js'
import { sql } from '../../db/sql.js'
import type { CodePurpose } from '../../lib/codes.js'
import type { UserInfoRow } from '../users/users.repo.js'

/** 'password': a password reset or change ended the account's other sessions (docs/api/accounts.md › Getting back in). */
export type RevokedReason = 'rotated' | 'logout' | 'reuse' | 'blocked' | 'erased' | 'password'

/** `now`: the service's clock (src/lib/clock.ts), which also judges the expiry in rotateRefreshToken. */
export async function insertRefreshToken (db: Queryable, userId: number, tokenHash: string, ttlDays: number, now: Date): Promise<void> {
  await db.query(sql`
    INSERT INTO refresh_tokens (user_id, token_hash, expires_at)
    VALUES (${userId}, ${tokenHash}, ${now}::timestamptz + make_interval(days => ${ttlDays}))`)
}

/**
 * Uses up a live token: marks it rotated and returns its user. A conditional update, so of two
 * refreshes racing with one token exactly one gets the user (and the other is seen as reuse).
 */
export function rotateRefreshToken (db: Queryable, tokenHash: string, now: Date): Promise<(UserInfoRow & { is_blocked: boolean }) | undefined> {
  return maybeOne(db, sql`
    UPDATE refresh_tokens t SET revoked_at = now(), revoked_reason = 'rotated'
    FROM users u
    WHERE t.token_hash = ${tokenHash} AND t.revoked_at IS NULL AND t.expires_at > ${now}::timestamptz AND u.id = t.user_id
    RETURNING u.id, u.email, u.first_name, u.last_name, u.email_verified, u.is_blocked`)
}

export function findRefreshToken (db: Queryable, tokenHash: string): Promise<{ user_id: number, revoked_reason: RevokedReason | null, is_blocked: boolean } | undefined> {
  return maybeOne(db, sql`
    SELECT t.user_id, t.revoked_reason, u.is_blocked
    FROM refresh_tokens t JOIN users u ON u.id = t.user_id
    WHERE t.token_hash = ${tokenHash}`)
}

export async function revokeRefreshTokens (db: Queryable, userId: number, reason: RevokedReason): Promise<void> {
  await db.query(sql`
    UPDATE refresh_tokens SET revoked_at = now(), revoked_reason = ${reason}
    WHERE user_id = ${userId} AND revoked_at IS NULL`)
}

/** Ends one session: the caller's own live token of that hash (a token of someone else's is left alone). */
export async function revokeRefreshToken (db: Queryable, userId: number, tokenHash: string, reason: RevokedReason): Promise<void> {
  await db.query(sql`
    UPDATE refresh_tokens SET revoked_at = now(), revoked_reason = ${reason}
    WHERE token_hash = ${tokenHash} AND user_id = ${userId} AND revoked_at IS NULL`)
}

// docs/api/accounts.md › Getting back in codes: one live code per person and purpose, stored only as its keyed hash (src/lib/codes.ts).

/** A new code replaces the earlier one of its purpose, which is thereby void, with a fresh count of wrong tries. */
export async function replaceCode (db: Queryable, userId: number, purpose: CodePurpose, codeHash: string, now: Date, expiresAt: Date): Promise<void> {
  await db.query(sql`
    INSERT INTO auth_codes (user_id, purpose, code_hash, failed_tries, created_at, expires_at)
    VALUES (${userId}, ${purpose}, ${codeHash}, 0, ${now}, ${expiresAt})
    ON CONFLICT (user_id, purpose) DO UPDATE
    SET code_hash = EXCLUDED.code_hash, failed_tries = 0, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at`)
}

/** `expired`: judged at `now`, the service's clock. */
export interface CodeRow { code_hash: string, failed_tries: number, expired: boolean }

/**
 * The code, locked until the transaction ends: of two tries racing with one code one waits for the
 * other, so a code is used once and every wrong try is counted.
 */
export function lockCode (tx: Queryable, userId: number, purpose: CodePurpose, now: Date): Promise<CodeRow | undefined> {
  return maybeOne(tx, sql`
    SELECT code_hash, failed_tries, expires_at <= ${now}::timestamptz AS expired FROM auth_codes
    WHERE user_id = ${userId} AND purpose = ${purpose}
    FOR UPDATE`)
}

/** Used, expired, or tried wrongly too often: gone. */
export async function deleteCode (db: Queryable, userId: number, purpose: CodePurpose): Promise<void> {
  await db.query(sql`DELETE FROM auth_codes WHERE user_id = ${userId} AND purpose = ${purpose}`)
}

export async function countWrongTry (db: Queryable, userId: number, purpose: CodePurpose): Promise<void> {
  await db.query(sql`UPDATE auth_codes SET failed_tries = failed_tries + 1 WHERE user_id = ${userId} AND purpose = ${purpose}`)
}

/** Erasure: no code of the account outlives it. */
export async function deleteCodes (db: Queryable, userId: number): Promise<void> {
  await db.query(sql`DELETE FROM auth_codes WHERE user_id = ${userId}`)
}
