import type { Database } from '../../db/database.js'
import type { Principal } from '../../lib/principal.js'
import * as notifications from './notifications.repo.js'
import { toNotification, type InboxQuery, type Notification } from './notifications.schemas.js'

const DEFAULT_LIMIT = 50
const MAX_LIMIT = 100

function wholeNumber (raw: string | string[] | undefined): number | undefined {
  if (typeof raw !== 'string' || !/^\s*\d+\s*$/.test(raw)) return undefined
  const value = Number(raw)
  return Number.isSafeInteger(value) ? value : undefined
}

/** Clamping as 1.0.1's limit/offset: a value out of range or not a number means the default. */
export function parseInboxQuery (query: InboxQuery): notifications.InboxQuery {
  const limit = wholeNumber(query.limit)
  const before = wholeNumber(query.before)
  return {
    limit: limit !== undefined && limit >= 1 && limit <= MAX_LIMIT ? limit : DEFAULT_LIMIT,
    before: before !== undefined && before >= 1 ? before : undefined,
    unreadOnly: typeof query.unread_only === 'string' && query.unread_only.trim().toLowerCase() === 'true',
  }
}

// Where the stream hub has always found it.
export { toNotification }

/** The caller's own inbox only (docs/api/messaging.md › Notifications). */
export class NotificationsService {
  constructor (private readonly db: Database) {}

  async list (user: Principal, query: InboxQuery): Promise<Notification[]> {
    return (await notifications.listNotifications(this.db, user.id, parseInboxQuery(query))).map(toNotification)
  }

  async unreadCount (user: Principal): Promise<{ count: number }> {
    return { count: await notifications.countUnread(this.db, user.id) }
  }

  async markRead (user: Principal, upTo: number): Promise<{ updated: number }> {
    return { updated: await notifications.markRead(this.db, user.id, upTo) }
  }
}
