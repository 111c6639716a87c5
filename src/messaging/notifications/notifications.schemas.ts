import { Type, type Static } from 'typebox'
import { FallbackText } from '../../http/pagination.js'
import { DateTime, NullableDateTime } from '../../http/schemas.js'
import { NOTIFICATION_TYPES, type NotificationType } from '../../events/notifications.js'
import type { NotificationRow } from './notifications.repo.js'

export const Notification = Type.Object({
  id: Type.Integer({ description: 'increasing in commit order within one recipient\'s inbox' }),
  type: Type.Unsafe<NotificationType>({ type: 'string', enum: [...NOTIFICATION_TYPES] }),
  request_id: Type.Union([Type.Integer(), Type.Null()], { description: 'the request it is about; null for a check or a concern about no request (docs/privacy.md)' }),
  data: Type.Record(Type.String(), Type.Unknown(), { description: 'by type (docs/api/messaging.md); never contact details or an address' }),
  created_at: DateTime,
  read_at: NullableDateTime,
})
export type Notification = Static<typeof Notification>

/** Declared as text: a bad value falls back to its default, never a 400 (like 1.0.1's limit/offset). */
export const InboxQuery = Type.Object({
  limit: FallbackText('integer 1..100, default 50; anything else means 50'),
  before: FallbackText('a notification id: only older ones (exclusive); anything else is ignored'),
  unread_only: FallbackText('`true` for unread ones only; anything else means false'),
})
export type InboxQuery = Static<typeof InboxQuery>

export const UnreadCount = Type.Object({ count: Type.Integer() })

export const MarkReadInput = Type.Object({ up_to_id: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }) })
export type MarkReadInput = Static<typeof MarkReadInput>
export const MARK_READ_MESSAGES = { up_to_id: 'invalid up_to_id', 'up_to_id:required': 'invalid up_to_id', '': 'invalid up_to_id' }

export const MarkReadResult = Type.Object({ updated: Type.Integer() })

/** A stored notification as the inbox, the event stream and the data export show it. */
export function toNotification (row: NotificationRow): Notification {
  return { id: Number(row.id), type: row.type, request_id: row.request_id === null ? null : Number(row.request_id), data: row.data, created_at: row.created_at, read_at: row.read_at }
}
