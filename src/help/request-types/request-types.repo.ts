import { maybeOne, type Queryable } from '../../db/database.js'
import { raw, sql } from '../../db/sql.js'
import type { NeedCode } from '../needs/needs.js'

/**
 * Owns the `request_types` table: the migrations seed the types; the one statement that changes them, an admin's
 * `default_needs` (docs/api/visits.md › Needs and matching), is here.
 */

/** A request type as read. */
export interface RequestTypeRow { id: number, name: string, description: string | null, icon: string | null, is_active: boolean, default_needs: NeedCode[] }

const COLUMNS = raw('id, name, description, icon, is_active, default_needs')

/** Every type with its is_active flag, in id order. */
export function listRequestTypes (db: Queryable): Promise<RequestTypeRow[]> {
  return db.query<RequestTypeRow>(sql`SELECT ${COLUMNS} FROM request_types ORDER BY id`)
}

/** Whether `id` names a type requests may be created with (a series' template is checked as a request is). */
export async function isActiveRequestType (db: Queryable, id: number): Promise<boolean> {
  const rows = await db.query<{ id: number }>(sql`SELECT id FROM request_types WHERE id = ${id} AND is_active`)
  return rows.length > 0
}

/** The type with its new defaults (already checked), or undefined when there is none with that id. */
export function setDefaultNeeds (db: Queryable, id: number, needs: readonly NeedCode[]): Promise<RequestTypeRow | undefined> {
  return maybeOne<RequestTypeRow>(db, sql`UPDATE request_types SET default_needs = ${[...needs]}::text[] WHERE id = ${id} RETURNING ${COLUMNS}`)
}
