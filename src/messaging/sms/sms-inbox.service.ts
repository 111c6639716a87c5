import type { Database } from '../../db/database.js'
import type { Clock } from '../../lib/clock.js'
import { forbidden, notFound } from '../../lib/errors.js'
import type { Page } from '../../lib/page.js'
import { hasPermission, isModerator, type Principal } from '../../lib/principal.js'
import { listInbox, markHandled, type InboxView } from './sms-inbox.repo.js'
import type { InboxText } from './sms-inbox.schemas.js'

/** help/requests/acting.ts's text for the same rule, which messaging, the lowest area, cannot import. */
export const COORDINATOR_ROLE_REQUIRED = 'coordinator role required'
export const TEXT_NOT_FOUND = 'text not found'

/**
 * The texts inbox (docs/api/messaging.md › Texts › The inbox). Moderators and admins see every text; coordinators
 * (`coordinate_requests`) the texts of clients, whom all coordinators share; anyone else is refused.
 */
export class SmsInboxService {
  constructor (private readonly db: Database, private readonly clock: Clock) {}

  #viewOf (user: Principal): InboxView {
    if (isModerator(user)) return { clientsOnly: false }
    if (hasPermission(user, 'coordinate_requests')) return { clientsOnly: true }
    throw forbidden(COORDINATOR_ROLE_REQUIRED)
  }

  async list (user: Principal, page: Page): Promise<InboxText[]> {
    return await listInbox(this.db, this.#viewOf(user), page)
  }

  /** Marked dealt with by the caller; a text someone marked before keeps its first handler. */
  async handled (user: Principal, id: number): Promise<InboxText> {
    const item = await markHandled(this.db, id, this.#viewOf(user), user.id, this.clock.now())
    if (item === undefined) throw notFound(TEXT_NOT_FOUND)
    return item
  }
}
