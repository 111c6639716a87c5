import type { NewNotification, NotificationType } from '../../events/notifications.js'
import type { Queryable } from '../../db/database.js'
import { sql } from '../../db/sql.js'

export interface NotificationRow {
  id: number
  user_id: number
  type: NotificationType
  request_id: number | null
  data: Record<string, unknown>
  created_at: Date
  read_at: Date | null
}

/** A notification just written: what its deliveries are made from (deliveries.repo.ts). */
export interface InsertedNotification { id: number, user_id: number, type: NotificationType, request_id: number | null }

/** The channel whose payloads wake streams: recipients' user ids, comma-separated (ids only, never content). */
export const NOTIFY_CHANNEL = 'vcs_notifications'

/** Advisory-lock class of recipients' inboxes (two-int form: never collides with one-bigint-key locks). */
const INBOX_LOCK_CLASS = 0x4e4f5449
/** NOTIFY payloads must stay under 8000 bytes: user ids are at most 16 digits and a comma. */
const IDS_PER_NOTIFY = 400

/**
 * Writes notifications inside the caller's transaction (`tx`), so they commit or roll back with the
 * change that caused them (docs/api/messaging.md › Notifications), and wakes the streams of their recipients on commit: NOTIFY
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
export async function insertNotifications (tx: Queryable, notifications: readonly NewNotification[]): Promise<InsertedNotification[]> {
  if (notifications.length === 0) return []
  const recipients = [...new Set(notifications.map((n) => n.userId))].sort((a, b) => a - b)
  for (const userId of recipients) {
    // Ids past 2^31 share a lock with another user: only more waiting, never a wrong order.
    await tx.query(sql`SELECT pg_advisory_xact_lock(${INBOX_LOCK_CLASS}, (${userId}::bigint % 2147483647)::int)`)
  }
  const inserted = await tx.query<InsertedNotification>(sql`
    INSERT INTO notifications (user_id, type, request_id, data)
    SELECT * FROM unnest(${notifications.map((n) => n.userId)}::bigint[], ${notifications.map((n) => n.type)}::text[],
      ${notifications.map((n) => n.requestId)}::bigint[], ${notifications.map((n) => JSON.stringify(n.data))}::jsonb[])
    RETURNING id, user_id, type, request_id`)
  for (let i = 0; i < recipients.length; i += IDS_PER_NOTIFY) {
    await tx.query(sql`SELECT pg_notify(${NOTIFY_CHANNEL}, ${recipients.slice(i, i + IDS_PER_NOTIFY).join(',')})`)
  }
  return inserted.map((row) => ({ id: Number(row.id), user_id: Number(row.user_id), type: row.type, request_id: row.request_id === null ? null : Number(row.request_id) }))
}

/**
 * The types a request's requester is sent about it (docs/api/messaging.md › Notifications, docs/api/schedule.md › Confirmation, reminders, expiry): only these are routed by
 * withRequesterSide. Not alerts (volunteers'), nor concerns (the reporter's own), nor request_created_for_you
 * (the person's, about what a carer did).
 */
const REQUESTER_TYPES: ReadonlySet<NotificationType> = new Set<NotificationType>([
  'request_approved', 'request_rejected', 'response_received', 'response_withdrawn', 'request_cancelled', 'volunteer_confirmed',
  'confirmation_missed', 'reminder', 'request_expired', 'still_needed', 'please_complete', 'visit_not_started', 'client_says_not_needed',
])

/**
 * docs/api/on-behalf.md › Coordinators and clients, › Carers, in one place for every reaction that notifies "the requester": a notification to the
 * requester of a client's request also goes to every coordinator who has acted on it (its history's
 * coordinator entries, this change's included, while they still coordinate), and, through the channels,
 * nowhere else: the client has no account; one to a person about her own request also goes to each carer
 * with an accepted invitation (`follow` is always granted). `actorId`, who made the change, is not told of
 * it again. One statement when a notification of those types is among them, none otherwise (alert rounds).
 */
export async function withRequesterSide (db: Queryable, notifications: readonly NewNotification[], actorId: number | null): Promise<readonly NewNotification[]> {
  const candidates = notifications.filter((n) => n.requestId !== null && REQUESTER_TYPES.has(n.type))
  if (candidates.length === 0) return notifications
  const extra = await db.query<{ i: number, user_id: number }>(sql`
    SELECT c.i::int AS i, x.user_id
    FROM unnest(${candidates.map((n) => n.userId)}::bigint[], ${candidates.map((n) => n.requestId)}::bigint[]) WITH ORDINALITY AS c (user_id, request_id, i)
    JOIN requests r ON r.id = c.request_id AND r.requester_id = c.user_id
    CROSS JOIN LATERAL (
      SELECT h.actor_id AS user_id FROM request_history h
      WHERE r.client_id IS NOT NULL AND h.request_id = r.id AND h.actor_role = 'coordinator'
        AND EXISTS (SELECT 1 FROM user_roles ur JOIN role_permissions rp ON rp.role_id = ur.role_id JOIN permissions p ON p.id = rp.permission_id
          WHERE ur.user_id = h.actor_id AND p.name = 'coordinate_requests')
      UNION
      SELECT t.carer_id FROM trusted_people t
      WHERE r.client_id IS NULL AND t.owner_id = r.requester_id AND t.status = 'accepted' AND t.carer_id IS NOT NULL
    ) x
    WHERE x.user_id <> c.user_id AND x.user_id IS DISTINCT FROM ${actorId}::bigint
    ORDER BY c.i, x.user_id`)
  if (extra.length === 0) return notifications
  return [...notifications, ...extra.map((row) => ({ ...candidates[row.i - 1]!, userId: Number(row.user_id) }))]
}

export interface InboxQuery { limit: number, before: number | undefined, unreadOnly: boolean }

/** The user's notifications, newest first. */
export function listNotifications (db: Queryable, userId: number, query: InboxQuery): Promise<NotificationRow[]> {
  const before = query.before ?? null
  return db.query<NotificationRow>(sql`
    SELECT id, user_id, type, request_id, data, created_at, read_at FROM notifications
    WHERE user_id = ${userId} AND (${before}::bigint IS NULL OR id < ${before}) AND (NOT ${query.unreadOnly}::boolean OR read_at IS NULL)
    ORDER BY id DESC
    LIMIT ${query.limit}`)
}

export async function countUnread (db: Queryable, userId: number): Promise<number> {
  const rows = await db.query<{ count: number }>(
    sql`SELECT count(*)::int AS count FROM notifications WHERE user_id = ${userId} AND read_at IS NULL`)
  return rows[0]?.count ?? 0
}

/** Marks the user's unread notifications with id ≤ upTo read; how many. */
export async function markRead (db: Queryable, userId: number, upTo: number): Promise<number> {
  const rows = await db.query(sql`
    UPDATE notifications SET read_at = now() WHERE user_id = ${userId} AND id <= ${upTo} AND read_at IS NULL RETURNING id`)
  return rows.length
}

/**
 * Erasure (docs/privacy.md › Erasure): the user's own inbox is deleted, being their data. Notifications to others
 * about the user's requests stay: they are the recipients' inboxes.
 */
export async function deleteNotificationsOf (tx: Queryable, userId: number): Promise<void> {
  await tx.query(sql`DELETE FROM notifications WHERE user_id = ${userId}`)
}

/** The user's newest notification id (0 when none): where a stream without Last-Event-ID starts. */
export async function lastNotificationId (db: Queryable, userId: number): Promise<number> {
  const rows = await db.query<{ id: number }>(
    sql`SELECT coalesce(max(id), 0) AS id FROM notifications WHERE user_id = ${userId}`)
  return Number(rows[0]?.id ?? 0)
}

/** One stream's position: its user, and the last notification id it has sent. */
export interface Cursor { userId: number, after: number }

/**
 * For many streams at once, each one's next notifications (id > its cursor, oldest first, at most
 * `perCursor`), tagged with the cursor's index: one query per batch instead of one per stream.
 */
export function notificationsAfter (db: Queryable, cursors: readonly Cursor[], perCursor: number): Promise<Array<NotificationRow & { i: number }>> {
  return db.query(sql`
    SELECT c.i::int AS i, n.id, n.user_id, n.type, n.request_id, n.data, n.created_at, n.read_at
    FROM unnest(${cursors.map((c) => c.userId)}::bigint[], ${cursors.map((c) => c.after)}::bigint[]) WITH ORDINALITY AS c (user_id, after, i)
    CROSS JOIN LATERAL (
      SELECT * FROM notifications WHERE user_id = c.user_id AND id > c.after ORDER BY id LIMIT ${perCursor}
    ) n
    ORDER BY c.i, n.id`)
}

/** Of these users, the ones that exist and are not blocked (streams of the others are ended). */
export async function activeUsers (db: Queryable, ids: readonly number[]): Promise<Set<number>> {
  const rows = await db.query<{ id: number }>(sql`SELECT id FROM users WHERE id = ANY(${ids}::bigint[]) AND NOT is_blocked`)
  return new Set(rows.map((row) => Number(row.id)))
}

/**
 * Deletes up to `limit` notifications older than `days` days (docs/api/messaging.md › Notifications: at least 90), oldest
 * first, passing over rows another transaction holds; returns how many. Reads notifications_by_time.
 */
export async function deleteOldNotifications (tx: Queryable, days: number, limit: number, now: Date): Promise<number> {
  const rows = await tx.query(sql`
    DELETE FROM notifications WHERE id IN (
      SELECT id FROM notifications WHERE created_at < ${now}::timestamptz - make_interval(days => ${days})
      ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING id`)
  return rows.length
}
