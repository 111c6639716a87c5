import type { Queryable } from '../../db/database.js'
import { sql } from '../../db/sql.js'

/** A request type as read. */
export interface RequestTypeRow { id: number, name: string, description: string | null, icon: string | null, is_active: boolean }

/** Every type with its is_active flag, in id order. */
export function listRequestTypes (db: Queryable): Promise<RequestTypeRow[]> {
  return db.query<RequestTypeRow>(sql`SELECT id, name, description, icon, is_active FROM request_types ORDER BY id`)
}
