import { maybeOne, one, type Queryable } from '../../db/database.js'
import { raw, sql } from '../../db/sql.js'

/**
 * Owns `trusted_people` (docs/api/on-behalf.md › Carers): a person (owner) lets someone they trust (the carer) act for them.
 * A row is an invitation to an address; `carer_id` is the account of that address, found at the invitation
 * or when that account first looks at GET /users/me/acting-for or accepts. Only accepted rows grant anything.
 */

/** docs/api/on-behalf.md › Carers: what a carer may do for a person. `follow` is always granted. */
export const CARER_CAN = ['create', 'follow', 'accept', 'cancel', 'complete'] as const
export type CarerCan = typeof CARER_CAN[number]
export type InvitationStatus = 'invited' | 'accepted' | 'declined'

/**
 * What the carer may do for the owner by an accepted invitation, read in the caller's transaction so that a
 * revocation or a decline holds at once on every instance; undefined when nothing is granted. FOR SHARE: a
 * revocation (DELETE, a decline) waits for a change this grant allowed to commit, and a change that reads
 * after a committed revocation finds nothing, so no change is allowed after its revocation committed.
 */
export async function findGrant (db: Queryable, ownerId: number, carerId: number): Promise<readonly CarerCan[] | undefined> {
  const row = await maybeOne<{ can: CarerCan[] }>(db, sql`
    SELECT can FROM trusted_people WHERE owner_id = ${ownerId} AND carer_id = ${carerId} AND status = 'accepted'
    ORDER BY id DESC LIMIT 1 FOR SHARE`)
  return row?.can
}

/** An invitation as its owner sees it: `name` (the carer's) once accepted. */
export interface TrustedRow { id: number, email: string, name: string | null, can: CarerCan[], status: InvitationStatus, created_at: Date }
/** An invitation as the invited person sees it: the owner's id and name. */
export interface ActingForRow { id: number, user_id: number, name: string, can: CarerCan[], status: InvitationStatus }

const TRUSTED_COLUMNS = raw(`tp.id, tp.email, CASE WHEN tp.status = 'accepted' THEN c.first_name || ' ' || c.last_name END AS name,
  tp.can, tp.status, tp.created_at`)

/** The caller's address, to refuse inviting oneself. */
export async function emailOf (db: Queryable, userId: number): Promise<string> {
  return (await one<{ email: string }>(db, sql`SELECT email FROM users WHERE id = ${userId}`)).email
}

/**
 * One invitation per owner and address (docs/api/on-behalf.md › Carers): a new one, or the existing one with the new
 * `can` (a declined one invited again). `renewed`: the invited person should be told (a new invitation, or a
 * declined one renewed); `carerId`: the account of the address, null while it has none.
 */
export async function upsertInvitation (db: Queryable, ownerId: number, email: string, can: readonly CarerCan[], at: Date): Promise<{ row: TrustedRow, renewed: boolean, carerId: number | null }> {
  const written = await one<{ id: number, carer_id: number | null, renewed: boolean }>(db, sql`
    WITH previous AS (SELECT status FROM trusted_people WHERE owner_id = ${ownerId} AND lower(email) = lower(${email})),
    written AS (
      INSERT INTO trusted_people AS tp (owner_id, email, carer_id, can, status, created_at)
      VALUES (${ownerId}, ${email}, (SELECT id FROM users WHERE lower(email) = lower(${email}) AND erased_at IS NULL), ${can}::text[], 'invited', ${at})
      ON CONFLICT (owner_id, lower(email)) DO UPDATE SET can = EXCLUDED.can,
        carer_id = COALESCE(tp.carer_id, EXCLUDED.carer_id),
        status = CASE WHEN tp.status = 'declined' THEN 'invited' ELSE tp.status END,
        decided_at = CASE WHEN tp.status = 'declined' THEN NULL ELSE tp.decided_at END
      RETURNING tp.id, tp.carer_id)
    SELECT id, carer_id, COALESCE((SELECT status FROM previous), 'declined') = 'declined' AS renewed FROM written`)
  const row = await one<TrustedRow>(db, sql`
    SELECT ${TRUSTED_COLUMNS} FROM trusted_people tp LEFT JOIN users c ON c.id = tp.carer_id WHERE tp.id = ${written.id}`)
  return { row, renewed: written.renewed, carerId: written.carer_id === null ? null : Number(written.carer_id) }
}

/** The owner's invitations, newest first. */
export function listTrusted (db: Queryable, ownerId: number): Promise<TrustedRow[]> {
  return db.query<TrustedRow>(sql`
    SELECT ${TRUSTED_COLUMNS} FROM trusted_people tp LEFT JOIN users c ON c.id = tp.carer_id
    WHERE tp.owner_id = ${ownerId} ORDER BY tp.id DESC`)
}

/** Revokes the owner's invitation `id` (any status); false when it is not theirs. Waits for a change its grant allowed (findGrant). */
export async function deleteInvitation (db: Queryable, ownerId: number, id: number): Promise<boolean> {
  return (await db.query(sql`DELETE FROM trusted_people WHERE id = ${id} AND owner_id = ${ownerId} RETURNING id`)).length > 0
}

/**
 * The invitations to the caller: to their account, or to their address before it had an account (carer_id
 * still null). Declined ones only when `withDeclined` (the answer to a decline).
 */
const TO_CALLER = (carerId: number) => sql`(tp.carer_id = ${carerId} OR (tp.carer_id IS NULL AND lower(tp.email) = (SELECT lower(email) FROM users WHERE id = ${carerId})))`
const ACTING_FOR_COLUMNS = raw('tp.id, tp.owner_id AS user_id, o.first_name || \' \' || o.last_name AS name, tp.can, tp.status')

export function listActingFor (db: Queryable, carerId: number): Promise<ActingForRow[]> {
  return db.query<ActingForRow>(sql`
    SELECT ${ACTING_FOR_COLUMNS} FROM trusted_people tp JOIN users o ON o.id = tp.owner_id
    WHERE ${TO_CALLER(carerId)} AND tp.status IN ('invited', 'accepted') ORDER BY tp.id DESC`)
}

/**
 * The invited person accepts (`accepted`) or declines (`declined`: also to stop after accepting) invitation
 * `id`, which is linked to their account; undefined when it is not one of theirs, or already declined.
 * Accepting an accepted one changes nothing. The row lock waits for a change its grant allowed (findGrant).
 */
export async function decide (db: Queryable, carerId: number, id: number, status: 'accepted' | 'declined', at: Date): Promise<ActingForRow | undefined> {
  return await maybeOne<ActingForRow>(db, sql`
    UPDATE trusted_people tp SET carer_id = ${carerId}, status = ${status},
      decided_at = CASE WHEN tp.status = ${status} THEN tp.decided_at ELSE ${at} END
    FROM users o
    WHERE tp.id = ${id} AND o.id = tp.owner_id AND ${TO_CALLER(carerId)} AND tp.status IN ('invited', 'accepted')
    RETURNING ${ACTING_FOR_COLUMNS}`)
}

/** A person's name as a notification shows it. */
export async function nameOf (db: Queryable, userId: number): Promise<string> {
  return (await one<{ name: string }>(db, sql`SELECT first_name || ' ' || last_name AS name FROM users WHERE id = ${userId}`)).name
}

/**
 * docs/privacy.md › Erasure: an erased person's invitations go, both those they made and those naming them (by account,
 * or by their address before it had one). Run before the users reaction replaces the address.
 */
export async function deleteInvitationsOf (db: Queryable, userId: number): Promise<void> {
  await db.query(sql`DELETE FROM trusted_people tp WHERE tp.owner_id = ${userId} OR ${TO_CALLER(userId)}`)
}

/** docs/privacy.md › Erasure export: an invitation with the other person by id only (no address, no name). */
export interface ExportedInvitation { id: number, user_id: number | null, can: CarerCan[], status: InvitationStatus, created_at: Date, decided_at: Date | null }

/** The caller's invitations (`user_id`: the carer's account, null while the address has none), oldest first. */
export function exportTrusted (db: Queryable, ownerId: number): Promise<ExportedInvitation[]> {
  return db.query<ExportedInvitation>(sql`
    SELECT id, carer_id AS user_id, can, status, created_at, decided_at FROM trusted_people WHERE owner_id = ${ownerId} ORDER BY id`)
}

/** The invitations to the caller, any status (`user_id`: who invited them), oldest first. */
export function exportActingFor (db: Queryable, carerId: number): Promise<ExportedInvitation[]> {
  return db.query<ExportedInvitation>(sql`
    SELECT tp.id, tp.owner_id AS user_id, tp.can, tp.status, tp.created_at, tp.decided_at FROM trusted_people tp
    WHERE ${TO_CALLER(carerId)} ORDER BY tp.id`)
}
