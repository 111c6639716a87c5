import type { Queryable } from '../../db/database.js'

export interface RequestTypeRow { id: number, name: string, description: string | null, icon: string | null, is_active: boolean }

export function listRequestTypes (db: Queryable): Promise<RequestTypeRow[]> {
  return db.query<RequestTypeRow>('SELECT id, name, description, icon, is_active FROM request_types ORDER BY id')
}
