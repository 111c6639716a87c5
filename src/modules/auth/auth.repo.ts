import { maybeOne, type Queryable } from '../../db/database.js'
import { sql } from '../../db/sql.js'
import type { UserInfoRow } from '../users/users.repo.js'

export type RevokedReason = 'rotated' | 'logout' | 'reuse' | 'blocked' | 'erased'

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
