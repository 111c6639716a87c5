import type { Database, Queryable } from '../../db/database.js'
import { sql } from '../../db/sql.js'

/**
 * Owns `sms_numbers` (a number's STOP) and `sms_budget` (texts counted per day) (docs/api/messaging.md › Texts).
 * The sms channel's columns of `deliveries` are written by deliveries.repo.ts.
 */

/** The key of the whole service's count in sms_budget. */
const WHOLE_SERVICE = '*'

/** Whether the number (E.164) replied STOP and has not replied START since. */
export async function isStopped (db: Queryable, e164: string): Promise<boolean> {
  const rows = await db.query<{ stopped: boolean }>(sql`SELECT stopped_at IS NOT NULL AS stopped FROM sms_numbers WHERE e164 = ${e164}`)
  return rows[0]?.stopped === true
}

/** STOP (true) or START (false) for a number, whoever holds it. */
export async function setStopped (db: Queryable, e164: string, stopped: boolean, now: Date): Promise<void> {
  await db.query(sql`
    INSERT INTO sms_numbers (e164, stopped_at, updated_at) VALUES (${e164}, ${stopped ? now : null}, ${now})
    ON CONFLICT (e164) DO UPDATE SET stopped_at = excluded.stopped_at, updated_at = excluded.updated_at`)
}

export interface Budget { perNumber: number, total: number, timeZone: string }

/** A text counted against today's budgets: the day it was counted on, to give it back on. */
export interface Taken { day: string, e164: string }

/**
 * Counts one text to `e164` today (in the budget's zone) against both budgets, in one transaction: a text
 * over either is not counted and the answer is undefined. `code`: a phone's code, which the per-number
 * budget can refuse (it protects the number from being flooded) but the service-wide one never does; it
 * still counts toward it. The rows of days before yesterday go as the counting goes.
 */
export async function takeBudget (db: Database, e164: string, budget: Budget, now: Date, code: boolean): Promise<Taken | undefined> {
  const refused = new Error('over budget')
  try {
    return await db.transaction(async (tx) => {
      const [today] = await tx.query<{ day: string }>(sql`SELECT to_char((${now}::timestamptz AT TIME ZONE ${budget.timeZone})::date, 'YYYY-MM-DD') AS day`)
      const day = today!.day
      const count = async (number: string, limit: number | null) => (await tx.query<{ texts: number }>(sql`
        INSERT INTO sms_budget (day, number, texts) VALUES (${day}::date, ${number}, 1)
        ON CONFLICT (day, number) DO UPDATE SET texts = sms_budget.texts + 1
        WHERE ${limit}::int IS NULL OR sms_budget.texts < ${limit}::int
        RETURNING texts`)).length > 0
      if (!await count(e164, budget.perNumber)) throw refused
      if (!await count(WHOLE_SERVICE, code ? null : budget.total)) throw refused
      await tx.query(sql`DELETE FROM sms_budget WHERE day < ${day}::date - 1`)
      return { day, e164 }
    })
  } catch (error) {
    if (error === refused) return undefined
    throw error
  }
}

/** A counted text that did not go (the gateway was down): the budgets get it back. */
export async function giveBack (db: Queryable, taken: Taken): Promise<void> {
  await db.query(sql`
    UPDATE sms_budget SET texts = greatest(texts - 1, 0)
    WHERE day = ${taken.day}::date AND number IN (${taken.e164}, ${WHOLE_SERVICE})`)
}

/**
 * Marks the incoming text `gatewayId` as taken, in the transaction that acts on it: false when it was taken
 * before (the gateway handed it over again), so it is acted on once. Ids older than two days go as it writes:
 * an SMPP text's id names its day, so no repeat can match them.
 */
export async function takeIncoming (tx: Queryable, gatewayId: string, now: Date): Promise<boolean> {
  const rows = await tx.query(sql`INSERT INTO sms_received (gateway_id, received_at) VALUES (${gatewayId}, ${now}) ON CONFLICT DO NOTHING RETURNING 1`)
  await tx.query(sql`DELETE FROM sms_received WHERE received_at < ${now}::timestamptz - interval '2 days'`)
  return rows.length > 0
}

/** The person who confirmed this number (in any of the forms a profile holds it), the longest-standing first; undefined when nobody did. */
export async function confirmedHolder (db: Queryable, forms: readonly string[]): Promise<number | undefined> {
  const rows = await db.query<{ id: number }>(sql`
    SELECT id FROM users WHERE phone = ANY (${forms}::text[]) AND phone_verified_at IS NOT NULL ORDER BY phone_verified_at, id LIMIT 1`)
  return rows[0] === undefined ? undefined : Number(rows[0].id)
}
