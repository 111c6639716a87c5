import type { Database } from '../../db/database.js'
import { badRequest, notFound, REQUEST_NOT_FOUND } from '../../lib/errors.js'
import type { Principal } from '../auth/principals.js'
import * as requests from '../requests/requests.repo.js'
import { COMMENT_REQUIRED } from './moderation.schemas.js'

export class ModerationService {
  constructor (private readonly db: Database) {}

  /**
   * pending_moderation → approved/rejected, recording who, when and why (rules.md › Request lifecycle).
   * A rejection needs a reason; nobody moderates their own request.
   */
  async decide (moderator: Principal, id: number, action: 'approve' | 'reject', comment: string | null | undefined): Promise<'approved' | 'rejected'> {
    const reason = comment?.trim() ? comment : null
    if (action === 'reject' && reason === null) throw badRequest(COMMENT_REQUIRED)
    const status = action === 'approve' ? 'approved' : 'rejected'
    if (await requests.moderateRequest(this.db, id, moderator.id, status, reason)) return status
    // The update changed nothing: say why.
    const request = await requests.findRequestParties(this.db, id)
    if (request === undefined) throw notFound(REQUEST_NOT_FOUND)
    if (request.requester_id === moderator.id) throw badRequest('cannot moderate own request')
    throw badRequest('request is not in pending_moderation status')
  }
}
