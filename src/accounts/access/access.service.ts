import type { Database } from '../../db/database.js'
import type { Page } from '../../lib/page.js'
import type { Principal } from '../../lib/principal.js'
import * as access from './access.repo.js'
import type { ProfileAccessRecord } from './access.schemas.js'

/** The log of who has been shown a person's profile details (a request's log is the requests service's; docs/privacy.md › Access records). */
export class AccessService {
  constructor (private readonly db: Database) {}

  /** The caller's own profile's log. */
  async profileLog (user: Principal, page: Page): Promise<ProfileAccessRecord[]> {
    // A profile's records never say `coordinator` or `carer`: those roles are recorded only for a request's details.
    return await access.listProfileRecords(this.db, user.id, page) as ProfileAccessRecord[]
  }
}
