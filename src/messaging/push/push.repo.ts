import { maybeOne, one, type Queryable, type Transaction } from '../../db/database.js'
import { sql } from '../../db/sql.js'

/**
 * Owns the table `push_subscriptions` (migrations/0017_reach.sql, docs/api/messaging.md › Deliveries and e-mail): every statement that
 * writes it is in this file. One row per endpoint, whoever sent it; at most MAX_PER_USER per person.
 */

export const MAX_PER_USER = 10

export interface SubscriptionRow {
  id: number
  endpoint: string
  created_at: Date
  last_success_at: Date | null
}

export interface NewSubscription {
  userId: number
  endpoint: string
  p256dh: string
  auth: string
  at: Date
}

/**
 * The endpoint's old row (anyone's) is replaced by a new one, so deliveries still waiting for the old
 * owner lose their device (subscription_id SET NULL) and never reach the new one; then the person's
 * oldest beyond MAX_PER_USER are dropped. Locking the person's rows first serialises two of their
 * subscribes whenever together they could pass the limit (it is only reachable with rows present).
 */
export async function replaceSubscription (tx: Transaction, subscription: NewSubscription): Promise<{ id: number, created_at: Date }> {
  await tx.query(sql`SELECT id FROM push_subscriptions WHERE user_id = ${subscription.userId} FOR UPDATE`)
  await tx.query(sql`DELETE FROM push_subscriptions WHERE endpoint = ${subscription.endpoint}`)
  // A concurrent subscribe of the same endpoint may have inserted it meanwhile: the later one wins.
  const row = await one<{ id: number, created_at: Date }>(tx, sql`
    INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, created_at)
    VALUES (${subscription.userId}, ${subscription.endpoint}, ${subscription.p256dh}, ${subscription.auth}, ${subscription.at})
    ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth,
      created_at = excluded.created_at, last_success_at = NULL
    RETURNING id, created_at`)
  await tx.query(sql`
    DELETE FROM push_subscriptions WHERE user_id = ${subscription.userId} AND id NOT IN (
      SELECT id FROM push_subscriptions WHERE user_id = ${subscription.userId} ORDER BY created_at DESC, id DESC LIMIT ${MAX_PER_USER})`)
  return row
}

/** The person's subscriptions, newest first. */
export function listSubscriptions (db: Queryable, userId: number): Promise<SubscriptionRow[]> {
  return db.query<SubscriptionRow>(sql`
    SELECT id, endpoint, created_at, last_success_at FROM push_subscriptions WHERE user_id = ${userId} ORDER BY created_at DESC, id DESC`)
}

/** Whether the person had that subscription (it is gone now). */
export async function deleteOwnSubscription (db: Queryable, userId: number, id: number): Promise<boolean> {
  return (await maybeOne(db, sql`DELETE FROM push_subscriptions WHERE id = ${id} AND user_id = ${userId} RETURNING id`)) !== undefined
}

/** A push service answered 404 or 410: the subscription is gone for good (docs/api/messaging.md › Deliveries and e-mail). */
export async function deleteSubscription (db: Queryable, id: number): Promise<void> {
  await db.query(sql`DELETE FROM push_subscriptions WHERE id = ${id}`)
}

export async function recordSuccess (db: Queryable, id: number, at: Date): Promise<void> {
  await db.query(sql`UPDATE push_subscriptions SET last_success_at = ${at} WHERE id = ${id}`)
}

/** Erasure: every device of the person. */
export async function deleteSubscriptionsOf (db: Queryable, userId: number): Promise<void> {
  await db.query(sql`DELETE FROM push_subscriptions WHERE user_id = ${userId}`)
}
