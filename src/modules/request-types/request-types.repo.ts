import type { Queryable } from '../../db/database.js'
import type { RequestType } from './request-types.schemas.js'

/** Every type with its is_active flag, in id order. */
export function listRequestTypes (db: Queryable): Promise<RequestType[]> {
  return db.query<RequestType>('SELECT id, name, description, icon, is_active FROM request_types ORDER BY id')
}
