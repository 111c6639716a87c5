import type { Queryable } from '../../db/database.js'
import { notFound } from '../../lib/errors.js'
import { parseNeeds } from '../needs/needs.js'
import { listRequestTypes, setDefaultNeeds } from './request-types.repo.js'
import type { RequestType } from './request-types.schemas.js'

export const REQUEST_TYPE_NOT_FOUND = 'request type not found'

/** The kinds of help one can ask for: the migrations seed them (docs/api/help.md); admins set their default needs. */
export class RequestTypesService {
  constructor (private readonly db: Queryable) {}

  list (): Promise<RequestType[]> {
    return listRequestTypes(this.db)
  }

  /** docs/api/visits.md › Needs and matching: the needs the type's new requests get when the requester says nothing; stored in the table's order. */
  async setDefaultNeeds (id: number, given: readonly string[]): Promise<RequestType> {
    // The schema has refused unknown and repeated codes: parseNeeds only orders them.
    const updated = await setDefaultNeeds(this.db, id, parseNeeds(given) ?? [])
    if (updated === undefined) throw notFound(REQUEST_TYPE_NOT_FOUND)
    return updated
  }
}
