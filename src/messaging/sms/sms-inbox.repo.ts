import type { Queryable } from '../../db/database.js'
import { empty, sql } from '../../db/sql.js'
import type { Page } from '../../lib/page.js'

/**
 * Owns `sms_inbox` (the texts inbox), `sms_sorry` (the numbers answered "sorry" today) and `sms_counts` (texts counted,
 * not stored) (docs/api/messaging.md › Texts › The inbox). Messaging is the lowest area, so the names of senders are
 * read here by joins on `users` and `clients`, never through those modules.
 */

/** A text the service did not understand, for the inbox: from a person (`userId`) or a client (`clientId`), exactly one. */
export interface InboxItem {
  userId: number | null
  clientId: number | null
  text: string
  requestId: number | null
  at: Date
}

export interface InboxRow {
  id: number
  received_at: Date
  from: string
  text: string
  request_id: number | null
  handled_by: number | null
}

/** Which items a caller sees: coordinators the clients' only, moderators and admins all. */
export interface InboxView { clientsOnly: boolean }

/** In the transaction that takes the text (replies.ts), so it is stored once however often the gateway hands it over. */
export async function addToInbox (tx: Queryable, item: InboxItem): Promise<void> {
  await tx.query(sql`
    INSERT INTO sms_inbox (received_at, user_id, client_id, text, request_id)
    VALUES (${item.at}, ${item.userId}, ${item.clientId}, ${item.text}, ${item.requestId})`)
}

/**
 * Whether `e164` is due its "sorry" answer: true at most once per number per day in `timeZone`, and then recorded in
 * the same statement, so two texts at once cannot both be answered. The rows of days before today go as it writes.
 */
export async function sorryDue (tx: Queryable, e164: string, at: Date, timeZone: string): Promise<boolean> {
  const today = sql`(${at}::timestamptz AT TIME ZONE ${timeZone})::date`
  const rows = await tx.query(sql`
    INSERT INTO sms_sorry (e164, day) VALUES (${e164}, ${today})
    ON CONFLICT (e164) DO UPDATE SET day = excluded.day WHERE sms_sorry.day < excluded.day
    RETURNING 1`)
  await tx.query(sql`DELETE FROM sms_sorry WHERE day < ${today}`)
  return rows.length > 0
}

/** One more text from a number nobody confirmed: counted, for /metrics, never stored. */
export async function countUnknownNumber (tx: Queryable): Promise<void> {
  await tx.query(sql`
    INSERT INTO sms_counts (kind, texts) VALUES ('unknown_number', 1)
    ON CONFLICT (kind) DO UPDATE SET texts = sms_counts.texts + 1`)
}

/** A person's confirmed number is matched first (confirmedHolder in sms.repo.ts); else a client who agreed to texts, the longest-known first. */
export async function consentingClient (db: Queryable, forms: readonly string[]): Promise<number | undefined> {
  const rows = await db.query<{ id: number }>(sql`
    SELECT id FROM clients WHERE phone = ANY (${forms}::text[]) AND texts_how IS NOT NULL ORDER BY id LIMIT 1`)
  return rows[0] === undefined ? undefined : Number(rows[0].id)
}

const visible = (view: InboxView) => view.clientsOnly ? sql`AND i.client_id IS NOT NULL` : empty

/** The sender by name as the API names people elsewhere: "first_name last_name", of the account or of the client. */
const ITEM_SELECT = sql`
  SELECT i.id, i.received_at, coalesce(u.first_name || ' ' || u.last_name, c.first_name || ' ' || c.last_name) AS "from",
    i.text, i.request_id, i.handled_by
  FROM sms_inbox i
  LEFT JOIN users u ON u.id = i.user_id
  LEFT JOIN clients c ON c.id = i.client_id`

/** The inbox, newest first: what `view` may see. */
export function listInbox (db: Queryable, view: InboxView, page: Page): Promise<InboxRow[]> {
  return db.query<InboxRow>(sql`
    ${ITEM_SELECT}
    WHERE true ${visible(view)}
    ORDER BY i.received_at DESC, i.id DESC
    LIMIT ${page.limit} OFFSET ${page.offset}`)
}

/**
 * Marks the item dealt with by `userId`, unless someone did before (their name and time stay); undefined when there
 * is no such item or `view` may not see it.
 */
export async function markHandled (db: Queryable, id: number, view: InboxView, userId: number, at: Date): Promise<InboxRow | undefined> {
  await db.query(sql`
    UPDATE sms_inbox i SET handled_by = ${userId}, handled_at = ${at}
    WHERE i.id = ${id} AND i.handled_at IS NULL ${visible(view)}`)
  const rows = await db.query<InboxRow>(sql`${ITEM_SELECT} WHERE i.id = ${id} ${visible(view)}`)
  return rows[0]
}

/** docs/privacy.md › Erasure: the person's own texts go with the account. */
export async function deleteInboxOf (tx: Queryable, userId: number): Promise<void> {
  await tx.query(sql`DELETE FROM sms_inbox WHERE user_id = ${userId}`)
}

/** The retention job (docs/privacy.md › `NOTIFICATION_RETENTION_DAYS`): up to `limit` texts older than `days`, oldest first; how many went. */
export async function deleteOldTexts (tx: Queryable, days: number, limit: number, now: Date): Promise<number> {
  const rows = await tx.query(sql`
    DELETE FROM sms_inbox WHERE id IN (
      SELECT id FROM sms_inbox WHERE received_at < ${now}::timestamptz - make_interval(days => ${days})
      ORDER BY received_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING id`)
  return rows.length
}
