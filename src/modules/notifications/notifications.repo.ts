import type { Queryable } from '../../db/database.js'

export const NOTIFICATION_TYPES = [
  'request_alert', 'request_alert_closed', 'request_approved', 'request_rejected', 'response_received',
  'response_withdrawn', 'response_accepted', 'response_rejected', 'request_cancelled', 'request_completed',
] as const
export type NotificationType = typeof NOTIFICATION_TYPES[number]

/** One notification to write: to `userId`, about `requestId`, with the type's `data` (events.md § 4). */
export interface NewNotification {
  userId: number
  type: NotificationType
  requestId: number
  data: Record<string, unknown>
}

export interface NotificationRow {
  id: number
  user_id: number
  type: NotificationType
  request_id: number
  data: Record<string, unknown>
  created_at: Date
  read_at: Date | null
}

/** The channel whose payloads wake streams: recipients' user ids, comma-separated (ids only, never content). */
export const NOTIFY_CHANNEL = 'vcs_notifications'

/** Advisory-lock class of recipients' inboxes (two-int form: never collides with one-bigint-key locks). */
const INBOX_LOCK_CLASS = 0x4e4f5449
/** NOTIFY payloads must stay under 8000 bytes: user ids are at most 16 digits and a comma. */
const IDS_PER_NOTIFY = 400

/**
 * Writes notifications inside the caller's transaction (`tx`), so they commit or roll back with the
 * change that caused them (events.md § 2), and wakes the streams of their recipients on commit: NOTIFY
 * inside a transaction is delivered only when it commits, and never when it rolls back.
 *
 * Ids increase in commit order within each recipient's inbox. An identity value is allocated when the
 * row is inserted, not when it commits, so two transactions notifying one user could otherwise commit
 * out of id order and a stream tailing `id > last seen` would skip the smaller id. So the transaction
 * first takes each recipient's inbox lock (a transaction-scoped advisory lock, held until commit or
 * rollback) and only then allocates ids: a second transaction for the same recipient waits for the
 * first to end before it takes its id, which is therefore larger and committed later.
 *
 * Locks are taken one recipient at a time in ascending user id, so two transactions cannot deadlock on
 * them; for that to hold, it is called once per transaction with all of its notifications (two calls
 * could take two sets of locks in opposite orders): by src/events/dispatcher.ts, its one caller in src/ (lint). Notifying is the last thing a transaction does,
 * so the locks are held only for its commit.
 */
export async function insertNotifications (tx: Queryable, notifications: readonly NewNotification[]): Promise<void> {
  if (notifications.length === 0) return
  const recipients = [...new Set(notifications.map((n) => n.userId))].sort((a, b) => a - b)
  for (const userId of recipients) {
    // Ids past 2^31 share a lock with another user: only more waiting, never a wrong order.
    await tx.query('SELECT pg_advisory_xact_lock($1, ($2::bigint % 2147483647)::int)', [INBOX_LOCK_CLASS, userId])
  }
  await tx.query(/* sql */ `
    INSERT INTO notifications (user_id, type, request_id, data)
    SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::jsonb[])`,
  [notifications.map((n) => n.userId), notifications.map((n) => n.type), notifications.map((n) => n.requestId),
    notifications.map((n) => JSON.stringify(n.data))])
  for (let i = 0; i < recipients.length; i += IDS_PER_NOTIFY) {
    await tx.query('SELECT pg_notify($1, $2)', [NOTIFY_CHANNEL, recipients.slice(i, i + IDS_PER_NOTIFY).join(',')])
  }
}

export interface InboxQuery { limit: number, before: number | undefined, unreadOnly: boolean }

/** The user's notifications, newest first. */
export function listNotifications (db: Queryable, userId: number, query: InboxQuery): Promise<NotificationRow[]> {
  return db.query<NotificationRow>(/* sql */ `
    SELECT id, user_id, type, request_id, data, created_at, read_at FROM notifications
    WHERE user_id = $1 AND ($2::bigint IS NULL OR id < $2) AND (NOT $3::boolean OR read_at IS NULL)
    ORDER BY id DESC
    LIMIT $4`, [userId, query.before ?? null, query.unreadOnly, query.limit])
}

export async function countUnread (db: Queryable, userId: number): Promise<number> {
  const rows = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM notifications WHERE user_id = $1 AND read_at IS NULL', [userId])
  return rows[0]?.count ?? 0
}

/** Marks the user's unread notifications with id ≤ upTo read; how many. */
export async function markRead (db: Queryable, userId: number, upTo: number): Promise<number> {
  const rows = await db.query(/* sql */ `
    UPDATE notifications SET read_at = now() WHERE user_id = $1 AND id <= $2 AND read_at IS NULL RETURNING id`, [userId, upTo])
  return rows.length
}

/**
 * Erasure (privacy.md §3): the user's own inbox is deleted, being their data. Notifications to others
 * about the user's requests stay: they are the recipients' inboxes.
 */
export async function deleteNotificationsOf (tx: Queryable, userId: number): Promise<void> {
  await tx.query('DELETE FROM notifications WHERE user_id = $1', [userId])
}

/** The user's newest notification id (0 when none): where a stream without Last-Event-ID starts. */
export async function lastNotificationId (db: Queryable, userId: number): Promise<number> {
  const rows = await db.query<{ id: number }>(
    'SELECT coalesce(max(id), 0) AS id FROM notifications WHERE user_id = $1', [userId])
  return Number(rows[0]?.id ?? 0)
}

/** One stream's position: its user, and the last notification id it has sent. */
export interface Cursor { userId: number, after: number }

/**
 * For many streams at once, each one's next notifications (id > its cursor, oldest first, at most
 * `perCursor`), tagged with the cursor's index: one query per batch instead of one per stream.
 */
export function notificationsAfter (db: Queryable, cursors: readonly Cursor[], perCursor: number): Promise<Array<NotificationRow & { i: number }>> {
  return db.query(/* sql */ `
    SELECT c.i::int AS i, n.id, n.user_id, n.type, n.request_id, n.data, n.created_at, n.read_at
    FROM unnest($1::bigint[], $2::bigint[]) WITH ORDINALITY AS c (user_id, after, i)
    CROSS JOIN LATERAL (
      SELECT * FROM notifications WHERE user_id = c.user_id AND id > c.after ORDER BY id LIMIT $3
    ) n
    ORDER BY c.i, n.id`, [cursors.map((c) => c.userId), cursors.map((c) => c.after), perCursor])
}

/** Of these users, the ones that exist and are not blocked (streams of the others are ended). */
export async function activeUsers (db: Queryable, ids: readonly number[]): Promise<Set<number>> {
  const rows = await db.query<{ id: number }>('SELECT id FROM users WHERE id = ANY($1::bigint[]) AND NOT is_blocked', [ids])
  return new Set(rows.map((row) => Number(row.id)))
}

/**
 * Deletes up to `limit` notifications older than `days` days (events.md § 2 allows it after 90), oldest
 * first, passing over rows another transaction holds; returns how many. Reads notifications_by_time.
 */
export async function deleteOldNotifications (tx: Queryable, days: number, limit: number, now: Date): Promise<number> {
  const rows = await tx.query(/* sql */ `
    DELETE FROM notifications WHERE id IN (
      SELECT id FROM notifications WHERE created_at < $3::timestamptz - make_interval(days => $1)
      ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)
    RETURNING id`, [days, limit, now])
  return rows.length
}
