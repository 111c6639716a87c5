import type { Queryable } from '../../db/database.js'
import { listRequestTypes } from './request-types.repo.js'
import type { RequestType } from './request-types.schemas.js'

/** The kinds of help one can ask for: read-only, the migrations seed them (docs/api/help.md). */
export class RequestTypesService {
  constructor (private readonly db: Queryable) {}

  list (): Promise<RequestType[]> {
    return listRequestTypes(this.db)
  }
}
