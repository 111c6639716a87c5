import type { Database } from '../../db/database.js'
import { notFound, REQUEST_NOT_FOUND } from '../../lib/errors.js'
import type { Page } from '../../lib/page.js'
import type { Principal } from '../../lib/principal.js'
import { findRequestParties } from '../requests/requests.reads.js'
import { seesAllResponses } from '../requests/visibility.js'
import * as access from './access.repo.js'
import type { ProfileAccessRecord, RequestAccessRecord } from './access.schemas.js'

/** docs/privacy.md › Access records: the logs of who has been shown someone's contact details. */
export class AccessService {
  constructor (private readonly db: Database) {}

  /** A request's log, for its requester, moderators and admins, and every coordinator on a client's request (docs/api/on-behalf.md › Coordinators and clients); to anyone else the request does not exist. */
  async requestLog (viewer: Principal, requestId: number, page: Page): Promise<RequestAccessRecord[]> {
    const request = await findRequestParties(this.db, requestId, viewer.id)
    if (request === undefined || !seesAllResponses(viewer, request)) throw notFound(REQUEST_NOT_FOUND)
    const rows = await access.listRequestRecords(this.db, { id: requestId, requester_id: request.requester_id }, page)
    return rows.map(({ request_id: _request, ...record }) => record as RequestAccessRecord)
  }

  /** The caller's own profile's log. */
  async profileLog (user: Principal, page: Page): Promise<ProfileAccessRecord[]> {
    // A profile's records never say `coordinator` or `carer`: those roles are recorded only for a request's details.
    return await access.listProfileRecords(this.db, user.id, page) as ProfileAccessRecord[]
  }
}
