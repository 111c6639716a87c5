import type { Queryable } from '../../db/database.js'
import { sql } from '../../db/sql.js'
import type { NotificationType } from '../../events/notifications.js'
import { CLIENT_TEXT_TYPES, isClientTextType } from '../sms/sms-texts.js'

/**
 * The outbox rows of texts to coordinators' clients (docs/api/on-behalf.md › Texts to a client), beside
 * deliveries.repo.ts, which would pass 300 lines with them. A client has no account: the row belongs to a
 * notification of the change about the client's request (`deliveries.client_id` says the text is the client's),
 * its recipient's other deliveries unchanged, and it is sent to the client's phone in the client's language.
 */

/** The reason a client's text not yet sent is dropped with, once the consent is withdrawn. */
export const CONSENT_WITHDRAWN = 'the client withdrew their consent to texts'

/**
 * In the notifications' transaction: one text per client, request and type among the notifications just
 * written, however many people were told (the coordinators, the volunteers), when the request is a client's
 * who consented to texts and has a phone. It hangs on the requester's notification when there is one (the
 * coordinator's), else on the first written (a volunteer's, for `response_accepted`). An expiry's
 * `request_cancelled` (to the volunteers whose offers it closed) is no text: the client is not told of an
 * expiry, as the coordinator is told `request_expired` instead; nor is an occurrence a series change replaced, which
 * it makes anew. No statement when none of the types is among them.
 */
export async function insertClientTexts (tx: Queryable, notifications: ReadonlyArray<{ id: number, user_id: number, type: NotificationType, request_id: number | null }>, now: Date): Promise<void> {
  const candidates = notifications.filter((n) => n.request_id !== null && isClientTextType(n.type))
  if (candidates.length === 0) return
  await tx.query(sql`
    INSERT INTO deliveries (user_id, notification_id, channel, client_id, due_at, created_at)
    SELECT DISTINCT ON (r.client_id, r.id, n.type) n.user_id, n.id, 'sms', r.client_id, ${now}::timestamptz, ${now}::timestamptz
    FROM unnest(${candidates.map((n) => n.id)}::bigint[], ${candidates.map((n) => n.user_id)}::bigint[], ${candidates.map((n) => n.type)}::text[],
      ${candidates.map((n) => n.request_id)}::bigint[]) AS n (id, user_id, type, request_id)
    JOIN requests r ON r.id = n.request_id
    JOIN clients c ON c.id = r.client_id
    WHERE n.type = ANY (${CLIENT_TEXT_TYPES}::text[]) AND c.texts_how IS NOT NULL AND c.phone IS NOT NULL
      AND NOT (n.type = 'request_cancelled' AND r.cancel_reason IN ('expired', 'series_changed'))
    ORDER BY r.client_id, r.id, n.type, (n.user_id = r.requester_id) DESC, n.id`)
}

/**
 * The sending loop's claim, first: a client's text whose consent was withdrawn since it was written is dropped,
 * never sent (SKIP LOCKED, as the claim's other drops).
 */
export async function dropWithdrawnClientTexts (tx: Queryable, now: Date): Promise<void> {
  await tx.query(sql`
    UPDATE deliveries SET status = 'dropped', last_error = ${CONSENT_WITHDRAWN}
    WHERE id IN (
      SELECT d.id FROM deliveries d JOIN clients c ON c.id = d.client_id
      WHERE d.status = 'pending' AND d.due_at <= ${now} AND (d.leased_until IS NULL OR d.leased_until <= ${now}) AND c.texts_how IS NULL
      FOR UPDATE OF d SKIP LOCKED)`)
}
