import type { Database } from '../../db/database.js'
import type { Changes } from '../../events/dispatcher.js'
import { badRequest, notFound, REQUEST_NOT_FOUND } from '../../lib/errors.js'
import type { Page } from '../../lib/page.js'
import type { Principal } from '../../lib/principal.js'
import { toListItem, type Disclosure, type DisclosurePolicy } from '../requests/disclosure.js'
import { actingAsModerator } from '../requests/acting.js'
import * as requests from '../requests/requests.repo.js'
import { findRequestParties } from '../requests/requests.reads.js'
import * as moderation from './moderation.repo.js'
import { COMMENT_REQUIRED, type ModerationItem } from './moderation.schemas.js'

/** Callers are moderators or admins: the routes let no one else in (docs/api/accounts.md › Roles and permissions). */
export class ModerationService {
  constructor (private readonly db: Database, private readonly changes: Changes, private readonly disclosure: Disclosure) {}

  /**
   * pending_moderation → approved/rejected, recording who, when and why (docs/api/help.md › Volunteer responses, completion and ratings).
   * A rejection needs a reason; nobody moderates their own request.
   */
  async decide (moderator: Principal, id: number, action: 'approve' | 'reject', comment: string | null | undefined): Promise<'approved' | 'rejected'> {
    const reason = comment?.trim() ? comment : null
    if (action === 'reject' && reason === null) throw badRequest(COMMENT_REQUIRED)
    const status = action === 'approve' ? 'approved' : 'rejected'
    // An approval's reactions start alert rounds in its transaction: a committed approval always has its first round due.
    const decided = await this.changes.run(actingAsModerator(moderator), async (tx, change) => {
      const requesterId = await requests.moderateRequest(tx, id, moderator.id, status, reason)
      if (requesterId === undefined) return false
      change.record(status === 'approved'
        ? { type: 'request_approved', requestId: id, requesterId }
        : { type: 'request_rejected', requestId: id, requesterId, comment: reason })
      return true
    })
    if (decided) return status
    // The update changed nothing: say why.
    const request = await findRequestParties(this.db, id, moderator.id)
    if (request === undefined) throw notFound(REQUEST_NOT_FOUND)
    if (request.requester_id === moderator.id) throw badRequest('cannot moderate own request')
    throw badRequest('request is not in pending_moderation status')
  }

  /** Requests awaiting a decision the caller may take: most urgent, then oldest, first. */
  async pending (moderator: Principal, page: Page): Promise<ModerationItem[]> {
    const rows = await moderation.listPending(this.db, moderator.id, page)
    return await this.disclosure.list(moderator, rows, toModerationItem)
  }

  /** The caller's decisions, most recent first. */
  async moderatedBy (moderator: Principal, page: Page): Promise<ModerationItem[]> {
    const rows = await moderation.listModeratedBy(this.db, moderator.id, page)
    return await this.disclosure.list(moderator, rows, toModerationItem)
  }
}

function toModerationItem (viewer: Principal, row: moderation.ModerationRow, policy: DisclosurePolicy): ModerationItem {
  return { ...toListItem(viewer, row, policy), desired_completion_date: row.desired_completion_date }
}
