import type { Queryable } from '../../db/database.js'
import { sql } from '../../db/sql.js'

/**
 * Owns `sms_codes`: the 4-digit code of each text that takes an answer (docs/api/messaging.md › Texts › Replies), kept
 * as a MAC (src/lib/reply-codes.ts) with the salt that makes it, for at most 48 hours.
 */

/** What a code answers: YES to an alert, OK to a request to confirm, NO to the requester's text about her request. */
export type CodeAnswer = 'yes' | 'ok' | 'no'

/** How long a code stands at most; what it answers must also still be open. */
const CODE_HOURS = 48

/** The salt of the delivery's code, when it has one already (the text is sent again after a crash). */
export async function codeSaltOf (db: Queryable, deliveryId: number): Promise<number | undefined> {
  const rows = await db.query<{ salt: number }>(sql`SELECT salt FROM sms_codes WHERE delivery_id = ${deliveryId}`)
  return rows[0]?.salt
}

/**
 * Whether the request is still what a text's answer would act on, for the delivery's recipient: an approved request
 * to offer on (YES), her assignment to confirm (OK), the recipient's own request still open (NO); for a coordinator's
 * client (`clientId`), the client's request still open (NO).
 */
export async function isAnswerable (db: Queryable, requestId: number, recipient: { userId: number, clientId: number | null }, answer: CodeAnswer): Promise<boolean> {
  const { userId, clientId } = recipient
  const rows = await db.query(sql`
    SELECT 1 FROM requests r WHERE r.id = ${requestId} AND CASE
      WHEN ${clientId}::bigint IS NOT NULL THEN ${answer}::text = 'no' AND r.status IN ('pending', 'approved', 'in_progress') AND r.client_id = ${clientId}::bigint
      WHEN ${answer}::text = 'yes' THEN r.status = 'approved' AND r.requester_id <> ${userId}
      WHEN ${answer}::text = 'ok' THEN r.status = 'in_progress' AND r.assigned_volunteer_id = ${userId}
      ELSE r.status IN ('pending', 'approved', 'in_progress') AND r.requester_id = ${userId}
    END`)
  return rows.length > 0
}

/**
 * Writes the delivery's code; false when this number already holds a code with the same MAC (the caller tries
 * the next salt). The number's codes past 48 hours go first, so a number never runs out of codes.
 */
export async function insertCode (db: Queryable, code: { deliveryId: number, e164: string, mac: string, salt: number, answer: CodeAnswer, requestId: number }, now: Date): Promise<boolean> {
  await db.query(sql`DELETE FROM sms_codes WHERE e164 = ${code.e164} AND created_at < ${now}::timestamptz - make_interval(hours => ${CODE_HOURS})`)
  const rows = await db.query(sql`
    INSERT INTO sms_codes (delivery_id, e164, code_mac, salt, answer, request_id, created_at)
    VALUES (${code.deliveryId}, ${code.e164}, ${code.mac}, ${code.salt}, ${code.answer}, ${code.requestId}, ${now})
    ON CONFLICT DO NOTHING RETURNING 1`)
  return rows.length > 0
}

/** A code as a reply finds it: what it answers, about which request, for whom (a coordinator's client: `clientId`, the row being a coordinator's). */
export interface FoundCode { deliveryId: number, answer: CodeAnswer, requestId: number, userId: number, clientId: number | null }

/** The number's unused code with this MAC, written in the last 48 hours; undefined for a wrong, used or old one. */
export async function findCode (db: Queryable, e164: string, mac: string, now: Date): Promise<FoundCode | undefined> {
  const rows = await db.query<{ delivery_id: number, answer: CodeAnswer, request_id: number, user_id: number, client_id: number | null }>(sql`
    SELECT c.delivery_id, c.answer, c.request_id, d.user_id, d.client_id FROM sms_codes c JOIN deliveries d ON d.id = c.delivery_id
    WHERE c.e164 = ${e164} AND c.code_mac = ${mac} AND c.used_at IS NULL
      AND c.created_at > ${now}::timestamptz - make_interval(hours => ${CODE_HOURS})`)
  const row = rows[0]
  if (row === undefined) return undefined
  return { deliveryId: Number(row.delivery_id), answer: row.answer, requestId: Number(row.request_id), userId: Number(row.user_id), clientId: row.client_id === null ? null : Number(row.client_id) }
}

/** The request of the number's code with this MAC, used or not (the inbox names it for a reply that did not act). */
export async function requestOfCode (db: Queryable, e164: string, mac: string): Promise<number | undefined> {
  const rows = await db.query<{ request_id: number }>(sql`SELECT request_id FROM sms_codes WHERE e164 = ${e164} AND code_mac = ${mac}`)
  return rows[0] === undefined ? undefined : Number(rows[0].request_id)
}

/** Whether the client's record holds this number (in any of `forms`) and their consent to texts still stands. */
export async function clientTakesTexts (db: Queryable, clientId: number, forms: readonly string[]): Promise<boolean> {
  const rows = await db.query(sql`SELECT 1 FROM clients WHERE id = ${clientId} AND phone = ANY (${forms}::text[]) AND texts_how IS NOT NULL`)
  return rows.length > 0
}

/** Who asked for the client's request, while it is still open: the coordinator its notifications go to (and through her, to its other coordinators). */
export async function openClientRequester (db: Queryable, requestId: number, clientId: number): Promise<number | undefined> {
  const rows = await db.query<{ requester_id: number }>(sql`
    SELECT requester_id FROM requests WHERE id = ${requestId} AND client_id = ${clientId} AND status IN ('pending', 'approved', 'in_progress')`)
  return rows[0] === undefined ? undefined : Number(rows[0].requester_id)
}

/** Wrong codes a number may send a day (in TIME_ZONE) before no code from it acts until the next: a guess is then 5 in 10,000. */
export const MAX_CODE_MISSES = 5

/** Whether the number sent MAX_CODE_MISSES wrong codes today. */
export async function outOfCodeTries (db: Queryable, e164: string, now: Date, timeZone: string): Promise<boolean> {
  const rows = await db.query(sql`
    SELECT 1 FROM sms_code_misses WHERE e164 = ${e164} AND day = (${now}::timestamptz AT TIME ZONE ${timeZone})::date AND misses >= ${MAX_CODE_MISSES}`)
  return rows.length > 0
}

/** One more wrong code from the number today, in the transaction that takes the reply. */
export async function countCodeMiss (tx: Queryable, e164: string, now: Date, timeZone: string): Promise<void> {
  await tx.query(sql`
    INSERT INTO sms_code_misses (e164, day, misses) VALUES (${e164}, (${now}::timestamptz AT TIME ZONE ${timeZone})::date, 1)
    ON CONFLICT (e164, day) DO UPDATE SET misses = sms_code_misses.misses + 1`)
  await tx.query(sql`DELETE FROM sms_code_misses WHERE day < (${now}::timestamptz AT TIME ZONE ${timeZone})::date - 1`)
}

/** Marks the code used, in the transaction that acts on it: false when another reply used it first. */
export async function useCode (tx: Queryable, deliveryId: number, now: Date): Promise<boolean> {
  const rows = await tx.query(sql`UPDATE sms_codes SET used_at = ${now} WHERE delivery_id = ${deliveryId} AND used_at IS NULL RETURNING 1`)
  return rows.length > 0
}
