import type { Queryable } from '../../db/database.js'
import { sql } from '../../db/sql.js'

/**
 * The sms channel's writes of `deliveries` (docs/api/messaging.md › Texts), beside deliveries.repo.ts, which would
 * pass 300 lines with them: a submitted text's gateway id, and the receipt that moves it on.
 */

/** The gateway's id for a submitted text, written as soon as it is known, so the receipt finds its delivery. */
export async function recordSubmitted (db: Queryable, deliveryId: number, messageId: string, segments: number): Promise<void> {
  await db.query(sql`UPDATE deliveries SET gateway_message_id = ${messageId}, segments = ${segments} WHERE id = ${deliveryId}`)
}

/**
 * A final receipt: the text's delivery moves from sent (or pending, when the receipt overtook the record of
 * the send) to delivered, or to undeliverable with the receipt's stat as last_error. A repeat changes nothing.
 */
export async function recordReceipt (db: Queryable, messageId: string, delivered: boolean, stat: string, now: Date): Promise<number> {
  const rows = await db.query<{ id: number }>(sql`
    UPDATE deliveries SET status = ${delivered ? 'delivered' : 'undeliverable'}, last_error = ${delivered ? null : stat},
      sent_at = coalesce(sent_at, ${now}), leased_until = NULL, secret = NULL
    WHERE gateway_message_id = ${messageId} AND channel = 'sms' AND status IN ('pending', 'sent')
    RETURNING id`)
  return rows.length
}
