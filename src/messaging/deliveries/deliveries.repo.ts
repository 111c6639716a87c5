import type { Queryable } from '../../db/database.js'
import { sql, type Sql } from '../../db/sql.js'
import { SMS_TYPES } from '../sms/sms-texts.js'
import { dropWithdrawnClientTexts } from './client-texts.repo.js'
import { CODE_ANSWER_MESSAGE, NOTIFICATION_TYPES, TEXT_ACCOUNT_MESSAGES, type AccountMessage, type NotificationType, type ReplyOutcome } from '../../events/notifications.js'

/**
 * The types e-mailed when a person has changed nothing (no notification_settings row; docs/api/messaging.md): the requester's,
 * an invitation to help someone, which the invited person may not otherwise see for days, the visit checks'
 * questions (docs/api/visit-checks.md), which are about someone's safety, and a client's NO, which a coordinator must act on.
 */
export const DEFAULT_EMAIL_TYPES: readonly NotificationType[] = [
  'request_approved', 'request_rejected', 'response_received', 'response_withdrawn', 'response_accepted', 'request_cancelled', 'request_completed',
  'trust_invitation', 'visit_not_started', 'visit_overdue', 'client_says_not_needed',
]

/** What the outbox needs to know when it is filled: the time, the deployment's zone, and whether push and texts are on. */
export interface OutboxSettings { now: Date, timeZone: string, push: boolean, sms?: boolean }

/**
 * When a delivery written at `now` may leave: `now`, or the end of the recipient's quiet hours in their
 * zone. Local wall-clock times are turned back into instants with `AT TIME ZONE`, which follows the zone's
 * daylight-saving rules, so "07:00" is 07:00 local on either side of a change. A window that crosses
 * midnight (22:00–07:00) ends tomorrow when we are past its start; start = end means no window.
 */
const dueAfterQuietHours = (at: Sql) => sql`
  CASE
    WHEN s.quiet_start IS NULL OR s.quiet_start = s.quiet_end THEN ${at}
    WHEN s.quiet_start < s.quiet_end AND s.local_time >= s.quiet_start AND s.local_time < s.quiet_end
      THEN (s.local_day + s.quiet_end) AT TIME ZONE s.tz
    WHEN s.quiet_start > s.quiet_end AND s.local_time >= s.quiet_start
      THEN (s.local_day + 1 + s.quiet_end) AT TIME ZONE s.tz
    WHEN s.quiet_start > s.quiet_end AND s.local_time < s.quiet_end
      THEN (s.local_day + s.quiet_end) AT TIME ZONE s.tz
    ELSE ${at}
  END`

/**
 * The outbox rows of notifications just written, in their transaction (docs/api/messaging.md › Deliveries and
 * e-mail): an e-mail when the recipient's settings (or, without a row, the defaults) switch it on
 * for the type, a push to each of their subscriptions when push is configured and switched on, and a text
 * (docs/api/messaging.md › Texts) when the person switched texts on for the type and confirmed their phone
 * (whether it is mobile and not stopped is checked when it is sent). All wait out the quiet hours.
 */
export async function insertNotificationDeliveries (tx: Queryable, notifications: ReadonlyArray<{ id: number, user_id: number, type: NotificationType }>, settings: OutboxSettings): Promise<void> {
  if (notifications.length === 0) return
  const { now } = settings
  await tx.query(sql`
    WITH n AS (
      SELECT * FROM unnest(${notifications.map((n) => n.id)}::bigint[], ${notifications.map((n) => n.user_id)}::bigint[], ${notifications.map((n) => n.type)}::text[]) AS n (id, user_id, type)
    ), s AS (
      SELECT n.id, n.user_id,
        coalesce(ns.email_enabled, true) AND n.type = ANY (coalesce(ns.email_types, ${DEFAULT_EMAIL_TYPES}::text[])) AS email,
        ${settings.push}::boolean AND coalesce(ns.push_enabled, true) AND n.type = ANY (coalesce(ns.push_types, ${NOTIFICATION_TYPES}::text[])) AS push,
        ${settings.sms ?? false}::boolean AND coalesce(ns.sms_enabled, false) AND n.type = ANY (ns.sms_types) AND n.type = ANY (${SMS_TYPES}::text[])
          AND EXISTS (SELECT 1 FROM users u WHERE u.id = n.user_id AND u.phone IS NOT NULL AND u.phone_verified_at IS NOT NULL) AS sms,
        ns.quiet_start::time AS quiet_start, ns.quiet_end::time AS quiet_end, z.tz,
        (${now}::timestamptz AT TIME ZONE z.tz)::time AS local_time, (${now}::timestamptz AT TIME ZONE z.tz)::date AS local_day
      FROM n
      LEFT JOIN notification_settings ns ON ns.user_id = n.user_id
      CROSS JOIN LATERAL (SELECT coalesce(ns.time_zone, ${settings.timeZone}) AS tz) z
    ), d AS (
      SELECT s.id, s.user_id, s.email, s.push, s.sms, ${dueAfterQuietHours(sql`${now}::timestamptz`)} AS due_at FROM s WHERE s.email OR s.push OR s.sms
    )
    INSERT INTO deliveries (user_id, notification_id, channel, subscription_id, due_at, created_at)
    SELECT d.user_id, d.id, 'email', NULL::bigint, d.due_at, ${now}::timestamptz FROM d WHERE d.email
    UNION ALL
    SELECT d.user_id, d.id, 'push', ps.id, d.due_at, ${now}::timestamptz FROM d JOIN push_subscriptions ps ON ps.user_id = d.user_id WHERE d.push
    UNION ALL
    SELECT d.user_id, d.id, 'sms', NULL::bigint, d.due_at, ${now}::timestamptz FROM d WHERE d.sms`)
}

/** An account e-mail of docs/api/accounts.md › Getting back in: always sent at once, whatever the preferences; `sealedCode` is cleared once sent or failed. */
export async function insertAccountDelivery (tx: Queryable, userId: number, message: AccountMessage, sealedCode: string | null, now: Date): Promise<void> {
  // The phone's code and the answers to replies go by text to the profile's phone (docs/api/messaging.md › Texts); every other by e-mail.
  const channel = TEXT_ACCOUNT_MESSAGES.includes(message) ? 'sms' : 'email'
  await tx.query(sql`
    INSERT INTO deliveries (user_id, account_message, channel, secret, due_at, created_at)
    VALUES (${userId}, ${message}, ${channel}, ${sealedCode}, ${now}, ${now})`)
}

/** The answer to a reply with a code, by text at once (docs/api/messaging.md › Texts › Replies): what came of it, about its request. */
export async function insertReplyAnswer (tx: Queryable, userId: number, requestId: number, outcome: ReplyOutcome, now: Date): Promise<void> {
  await tx.query(sql`
    INSERT INTO deliveries (user_id, account_message, channel, reply_request_id, reply_outcome, due_at, created_at)
    VALUES (${userId}, ${CODE_ANSWER_MESSAGE}, 'sms', ${requestId}, ${outcome}, ${now}, ${now})`)
}

/**
 * docs/api/on-behalf.md › Carers: the e-mail inviting an address without an account, sent at once; `inviterId` owns the row (its
 * language is the e-mail's), the address is the invitation's, read when it is sent (claimDueDeliveries).
 */
export async function insertInvitationDelivery (tx: Queryable, inviterId: number, invitationId: number, now: Date): Promise<void> {
  await tx.query(sql`
    INSERT INTO deliveries (user_id, invitation_id, channel, due_at, created_at)
    VALUES (${inviterId}, ${invitationId}, 'email', ${now}, ${now})`)
}

/** Erasure (docs/privacy.md › Erasure): the account's outbox goes with it, codes included. */
export async function deleteDeliveriesOf (tx: Queryable, userId: number): Promise<void> {
  await tx.query(sql`DELETE FROM deliveries WHERE user_id = ${userId}`)
}

/** A claimed delivery with everything its channel needs, read in the claim's statement. */
export interface ClaimedRow {
  id: number
  user_id: number
  notification_id: number | null
  account_message: AccountMessage | null
  channel: 'email' | 'push' | 'sms'
  secret: string | null
  attempts: number
  email: string
  locale: 'en' | 'de'
  /** The recipient's own zone (notification settings); null: the deployment's TIME_ZONE. */
  time_zone: string | null
  type: NotificationType | null
  request_id: number | null
  data: Record<string, unknown> | null
  request_title: string | null
  /** The request's start, which a text names when its notification's data does not. */
  request_window_start: Date | string | null
  /** The answer to a reply with a code: what came of it, and its request's title. */
  reply_outcome: ReplyOutcome | null
  reply_title: string | null
  /** The sms channel: the profile's phone and whether it is confirmed; for a client's text the client's, and their consent. */
  phone: string | null
  phone_confirmed: boolean
  /** A coordinator's client's text (docs/api/on-behalf.md › Texts to a client), and the first name of who will help them. */
  client_id: number | null
  helper_name: string | null
  subscription_id: number | null
  /** An invitation's e-mail (docs/api/on-behalf.md › Carers): what the inviter allows; `email` is then the invited address, `inviter_name` theirs. */
  invitation_id: number | null
  invitation_can: string[] | null
  inviter_name: string | null
  endpoint: string | null
  p256dh: string | null
  auth: string | null
}

/**
 * The sending loop's claim (docs/api/messaging.md › Deliveries and e-mail), in one short transaction: drops the due
 * alerts whose request has left `approved`, then takes up to `limit` due rows that no other instance
 * holds (SKIP LOCKED) and leases them: attempts + 1 and `leased_until`, which the sender renews while it
 * holds them (renewLeases). A process that dies after sending but before recording sends once more when its
 * lease ends, and never again after that.
 */
export async function claimDueDeliveries (tx: Queryable, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedRow[]> {
  await tx.query(sql`
    UPDATE deliveries SET status = 'dropped', secret = NULL, last_error = 'the request is no longer open'
    WHERE id IN (
      SELECT d.id FROM deliveries d
      JOIN notifications n ON n.id = d.notification_id
      JOIN requests r ON r.id = n.request_id
      WHERE d.status = 'pending' AND d.due_at <= ${now} AND ${unleased(sql`d`, now)} AND n.type = 'request_alert' AND r.status <> 'approved'
      FOR UPDATE OF d SKIP LOCKED)`)
  // An invitation answered before its e-mail left (the address registered and accepted or declined) needs none.
  await tx.query(sql`
    UPDATE deliveries SET status = 'dropped', last_error = 'the invitation was answered'
    WHERE id IN (
      SELECT d.id FROM deliveries d JOIN trusted_people tp ON tp.id = d.invitation_id
      WHERE d.status = 'pending' AND d.due_at <= ${now} AND tp.status <> 'invited'
      FOR UPDATE OF d SKIP LOCKED)`)
  await dropWithdrawnClientTexts(tx, now)
  return await tx.query<ClaimedRow>(sql`
    WITH claimed AS (
      UPDATE deliveries d SET attempts = d.attempts + 1, leased_until = ${leaseUntil}
      FROM (SELECT id FROM deliveries WHERE status = 'pending' AND due_at <= ${now} AND ${unleased(sql`deliveries`, now)} ORDER BY due_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED) due
      WHERE d.id = due.id
      RETURNING d.id, d.user_id, d.notification_id, d.account_message, d.invitation_id, d.client_id, d.channel, d.secret, d.attempts, d.subscription_id,
        d.reply_request_id, d.reply_outcome
    )
    SELECT c.id, c.user_id, c.notification_id, c.account_message, c.invitation_id, c.channel, c.secret, c.attempts, c.subscription_id,
      c.reply_outcome, rr.title AS reply_title,
      coalesce(tp.email, u.email) AS email, coalesce(cl.locale, u.locale) AS locale, n.type, n.request_id, n.data, r.title AS request_title,
      r.window_start AS request_window_start,
      -- A client's text: the client's phone and consent, in TIME_ZONE (null here), never the notified person's.
      CASE WHEN c.client_id IS NULL THEN ns.time_zone END AS time_zone, c.client_id,
      CASE WHEN c.client_id IS NULL THEN u.phone ELSE cl.phone END AS phone,
      CASE WHEN c.client_id IS NULL THEN u.phone_verified_at IS NOT NULL ELSE cl.texts_how IS NOT NULL END AS phone_confirmed,
      (SELECT vu.first_name FROM volunteer_responses vr JOIN users vu ON vu.id = vr.volunteer_id
        WHERE c.client_id IS NOT NULL AND n.type = 'response_accepted' AND vr.id = (n.data->>'response_id')::bigint) AS helper_name,
      tp.can AS invitation_can, CASE WHEN tp.id IS NOT NULL THEN u.first_name || ' ' || u.last_name END AS inviter_name,
      ps.endpoint, ps.p256dh, ps.auth
    FROM claimed c
    JOIN users u ON u.id = c.user_id
    LEFT JOIN clients cl ON cl.id = c.client_id
    LEFT JOIN trusted_people tp ON tp.id = c.invitation_id
    LEFT JOIN notification_settings ns ON ns.user_id = c.user_id
    LEFT JOIN notifications n ON n.id = c.notification_id
    LEFT JOIN requests r ON r.id = n.request_id
    LEFT JOIN requests rr ON rr.id = c.reply_request_id
    LEFT JOIN push_subscriptions ps ON ps.id = c.subscription_id
    ORDER BY c.id`)
}

/** A row no sender holds: never leased, its lease written off, or ended by `now`. */
const unleased = (table: Sql, now: Date) => sql`(${table}.leased_until IS NULL OR ${table}.leased_until <= ${now})`

/**
 * The embedded engine's one process, starting: no sender of its own is alive, so the leases its last run left
 * (a crash, or kill -9) are written off at once instead of waited out. Never with a server, where another
 * instance may be sending them.
 */
export async function releaseLeases (db: Queryable): Promise<number> {
  const rows = await db.query<{ id: number }>(sql`UPDATE deliveries SET leased_until = NULL WHERE leased_until IS NOT NULL AND status = 'pending' RETURNING id`)
  return rows.length
}

/**
 * A live sender's heartbeat: moves the lease of the rows it still holds to `until`. Only a row still under
 * the lease it was given (pending, the same try, the same `leased_until`) is renewed, so a row another instance
 * has taken over, one whose outcome is written, or an erased one stays as it is. Returns the renewed ids.
 */
export async function renewLeases (db: Queryable, leases: ReadonlyArray<{ id: number, attempt: number, until: Date }>, until: Date): Promise<number[]> {
  if (leases.length === 0) return []
  const rows = await db.query<{ id: number }>(sql`
    UPDATE deliveries d SET leased_until = ${until}
    FROM unnest(${leases.map((l) => l.id)}::bigint[], ${leases.map((l) => l.attempt)}::int[], ${leases.map((l) => l.until.toISOString())}::timestamptz[]) AS h (id, attempt, lease)
    WHERE d.id = h.id AND d.status = 'pending' AND d.attempts = h.attempt AND d.leased_until = h.lease
    RETURNING d.id`)
  return rows.map((row) => Number(row.id))
}

/**
 * What became of a claimed try. Each is recorded only while the row is still this try's (pending, same
 * attempt): a send slower than its lease, which another instance has since taken over, changes nothing.
 */
export type Recorded =
  | { id: number, attempt: number, status: 'sent', at: Date }
  | { id: number, attempt: number, status: 'retry', dueAt: Date, reason: string }
  | { id: number, attempt: number, status: 'failed' | 'dropped', reason: string }

/**
 * Several outcomes in one statement (the sending loop coalesces those that finish while a write is under
 * way), each applied only while its row is still that try's. A retry of a notification's delivery that
 * falls inside the recipient's quiet hours waits until they end, as a first try does.
 */
export async function recordDeliveries (db: Queryable, records: readonly Recorded[], timeZone: string): Promise<void> {
  if (records.length === 0) return
  const at = (r: Recorded) => (r.status === 'sent' ? r.at.toISOString() : null)
  const dueAt = (r: Recorded) => (r.status === 'retry' ? r.dueAt.toISOString() : null)
  const reason = (r: Recorded) => (r.status === 'sent' ? null : r.reason)
  await db.query(sql`
    UPDATE deliveries d SET
      status = CASE WHEN r.outcome = 'retry' THEN 'pending' ELSE r.outcome END,
      sent_at = CASE WHEN r.outcome = 'sent' THEN r.at ELSE d.sent_at END,
      due_at = CASE WHEN r.outcome <> 'retry' THEN d.due_at
        -- A client's text is not the notified person's: their quiet hours are not the client's.
        WHEN d.notification_id IS NULL OR d.client_id IS NOT NULL THEN r.due_at
        ELSE coalesce((
          SELECT ${dueAfterQuietHours(sql`r.due_at`)}
          FROM (SELECT ns.quiet_start::time AS quiet_start, ns.quiet_end::time AS quiet_end, z.tz,
              (r.due_at AT TIME ZONE z.tz)::time AS local_time, (r.due_at AT TIME ZONE z.tz)::date AS local_day
            FROM notification_settings ns CROSS JOIN LATERAL (SELECT coalesce(ns.time_zone, ${timeZone}) AS tz) z
            WHERE ns.user_id = d.user_id) s), r.due_at) END,
      secret = CASE WHEN r.outcome = 'retry' THEN d.secret END,
      leased_until = NULL,
      last_error = r.reason
    FROM unnest(${records.map((r) => r.id)}::bigint[], ${records.map((r) => r.attempt)}::int[], ${records.map((r) => r.status)}::text[],
      ${records.map(at)}::timestamptz[], ${records.map(dueAt)}::timestamptz[], ${records.map(reason)}::text[]) AS r (id, attempt, outcome, at, due_at, reason)
    WHERE d.id = r.id AND d.status = 'pending' AND d.attempts = r.attempt`)
}

export interface DeliveryListRow {
  notification_id: number | null
  account_message: AccountMessage | null
  channel: 'email' | 'push' | 'sms'
  status: 'pending' | 'sent' | 'delivered' | 'undeliverable' | 'failed' | 'dropped'
  attempts: number
  last_error: string | null
  sent_at: Date | null
  created_at: Date
}

/**
 * GET /users/me/deliveries: the person's deliveries, newest first (deliveries_by_user); not the e-mails of their
 * invitations, which went to someone else's address.
 */
export function listDeliveries (db: Queryable, userId: number, page: { limit: number, offset: number }): Promise<DeliveryListRow[]> {
  return db.query<DeliveryListRow>(sql`
    SELECT notification_id, account_message, channel, status, attempts, last_error, sent_at, created_at
    FROM deliveries WHERE user_id = ${userId} AND invitation_id IS NULL AND client_id IS NULL ORDER BY id DESC LIMIT ${page.limit} OFFSET ${page.offset}`)
}
