import { maybeOne, type Queryable } from '../../db/database.js'
import { sql } from '../../db/sql.js'

/** behalf.md § 2: what a carer may do for a person. `follow` is always granted. */
export const CARER_CAN = ['create', 'follow', 'accept', 'cancel', 'complete'] as const
export type CarerCan = typeof CARER_CAN[number]

/**
 * What the carer may do for the owner by an accepted invitation, read in the caller's transaction so that a
 * revocation or a decline holds at once on every instance; undefined when nothing is granted.
 */
export async function findGrant (db: Queryable, ownerId: number, carerId: number): Promise<readonly CarerCan[] | undefined> {
  const row = await maybeOne<{ can: CarerCan[] }>(db, sql`
    SELECT can FROM trusted_people WHERE owner_id = ${ownerId} AND carer_id = ${carerId} AND status = 'accepted'
    ORDER BY id DESC LIMIT 1`)
  return row?.can
}
