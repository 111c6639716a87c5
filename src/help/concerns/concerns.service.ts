import type { Database } from '../../db/database.js'
import type { Changes } from '../../events/dispatcher.js'
import { systemClock, type Clock } from '../../lib/clock.js'
import { AppError, badRequest, notFound, REQUEST_NOT_FOUND, USER_NOT_FOUND } from '../../lib/errors.js'
import type { Page } from '../../lib/page.js'
import type { Principal, PrincipalForgetter } from '../../lib/principal.js'
import { findRequestParties } from '../requests/requests.reads.js'
import { isVisibleTo } from '../requests/visibility.js'
import { lockUser, setFlag, userExists } from '../../accounts/users/users.repo.js'
import * as concerns from './concerns.repo.js'
import { TEXT_LENGTH, TEXT_MAX, TEXT_MIN, type ConcernOutcome, type ConcernStatus, type RaiseConcernInput } from './concerns.schemas.js'

/** docs/api/help.md › Concerns: at most this many concerns per reporter in any 24 hours. */
export const CONCERNS_PER_DAY = 10
const DAY_MS = 24 * 60 * 60 * 1000
export const CONCERN_NOT_FOUND = 'concern not found'

const viewerOf = (user: Principal): concerns.ConcernViewer => ({ id: user.id, isAdmin: user.roles.includes('admin') })

/**
 * Raising a concern (anyone signed in) and the moderators' side of it. Who may see a concern is one rule,
 * in concerns.repo.ts; the block outcome is the admin block's path (users.repo setFlag, `user_blocked`).
 */
export class ConcernsService {
  constructor (
    private readonly db: Database,
    private readonly changes: Changes,
    private readonly principals: PrincipalForgetter,
    private readonly clock: Clock = systemClock
  ) {}

  async raise (reporter: Principal, input: RaiseConcernInput): Promise<concerns.OwnConcernRow> {
    const subjectUserId = input.subject_user_id ?? null
    const requestId = input.request_id ?? null
    if (subjectUserId === null && requestId === null) throw badRequest('subject_user_id or request_id is required')
    // White space around the text does not count towards its length (the schema counted it).
    const text = input.text.trim()
    const length = [...text].length
    if (length < TEXT_MIN || length > TEXT_MAX) throw badRequest(TEXT_LENGTH)
    if (subjectUserId !== null && !await userExists(this.db, subjectUserId)) throw notFound(USER_NOT_FOUND)
    if (requestId !== null) {
      // The same rule as GET /requests/{id}: a request the caller may not know of is not found.
      const request = await findRequestParties(this.db, requestId, reporter.id)
      if (request === undefined || !isVisibleTo(reporter, request)) throw notFound(REQUEST_NOT_FOUND)
    }
    return await this.changes.run(reporter.id, async (tx, change) => {
      // The reporter's row serialises their concerns, so the limit holds across instances and racing calls.
      await lockUser(tx, reporter.id)
      const now = change.at
      const recent = await concerns.raisedSince(tx, reporter.id, new Date(now.getTime() - DAY_MS))
      if (recent.count >= CONCERNS_PER_DAY) {
        const freeAt = new Date(recent.oldest!).getTime() + DAY_MS
        throw new AppError(429, 'too many requests', { 'retry-after': String(Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000))) })
      }
      const { id } = await concerns.insertConcern(tx, { reporterId: reporter.id, subjectUserId, requestId, text, urgent: input.urgent ?? false, at: now })
      change.record({ type: 'concern_raised', concernId: id, requestId, urgent: input.urgent ?? false, recipientIds: await concerns.whoMaySee(tx, id) })
      return await concerns.findOwn(tx, id)
    })
  }

  /** The caller's own concerns, newest first, without the moderators' note. */
  mine (user: Principal): Promise<concerns.OwnConcernRow[]> {
    return concerns.listOwn(this.db, user.id)
  }

  /** Callers are moderators or admins (the routes let no one else in). */
  queue (moderator: Principal, status: ConcernStatus, page: Page): Promise<concerns.ConcernRow[]> {
    return concerns.listQueue(this.db, viewerOf(moderator), status, page)
  }

  /**
   * Resolves an open concern the caller may see. `blocked` blocks its subject in the same transaction,
   * exactly as the admin block does: the flag, then `user_blocked` (its reaction revokes the refresh
   * tokens); access tokens and event streams stop within the principal cache's TTL and the stream hub's check.
   */
  async resolve (moderator: Principal, id: number, outcome: ConcernOutcome, note: string): Promise<concerns.ConcernRow> {
    const viewer = viewerOf(moderator)
    const { resolved, blocked } = await this.changes.run(moderator.id, async (tx, change) => {
      const concern = await concerns.lockForResolution(tx, id, viewer)
      if (concern === undefined) throw notFound(CONCERN_NOT_FOUND)
      if (concern.status === 'resolved') throw badRequest('concern is already resolved')
      if (outcome === 'blocked' && concern.subject_user_id === null) throw badRequest('blocked needs a subject user')
      await concerns.resolveConcern(tx, id, outcome, note.trim(), moderator.id, change.at)
      if (outcome === 'blocked') {
        await setFlag(tx, concern.subject_user_id!, 'is_blocked', true)
        change.record({ type: 'user_blocked', userId: concern.subject_user_id! })
      }
      change.record({
        type: 'concern_resolved', concernId: id, requestId: concern.request_id, reporterId: concern.reporter_erased ? null : concern.reporter_id, outcome,
      })
      return { resolved: await concerns.findForViewer(tx, id, viewer), blocked: outcome === 'blocked' ? concern.subject_user_id : null }
    })
    if (blocked !== null) this.principals.forget(blocked)
    return resolved!
  }
}
