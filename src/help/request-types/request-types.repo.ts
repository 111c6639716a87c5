import type { Queryable } from '../../db/database.js'
import { sql } from '../../db/sql.js'

/** A request type as read. */
export interface RequestTypeRow { id: number, name: string, description: string | null, icon: string | null, is_active: boolean }

/** Every type with its is_active flag, in id order. */
export function listRequestTypes (db: Queryable): Promise<RequestTypeRow[]> {
  return db.query<RequestTypeRow>(sql`SELECT id, name, description, icon, is_active FROM request_types ORDER BY id`)
}

/** Whether `id` names a type requests may be created with (a series' template is checked as a request is). */
export async function isActiveRequestType (db: Queryable, id: number): Promise<boolean> {
  const rows = await db.query<{ id: number }>(sql`SELECT id FROM request_types WHERE id = ${id} AND is_active`)
  return rows.length > 0
}
