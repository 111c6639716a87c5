import { maybeOne, type Queryable } from '../../db/database.js'
import { sql } from '../../db/sql.js'

/** What a request asked for a client takes from the client's record when the coordinator leaves it out (behalf.md § 1). */
export interface ClientDefaults {
  id: number
  phone: string | null
  address: string | null
  city: string | null
  latitude: number | null
  longitude: number | null
}

export function findClientDefaults (db: Queryable, id: number): Promise<ClientDefaults | undefined> {
  return maybeOne<ClientDefaults>(db, sql`SELECT id, phone, address, city, latitude, longitude FROM clients WHERE id = ${id}`)
}
