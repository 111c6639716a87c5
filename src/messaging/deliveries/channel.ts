import type { AccountMessage, NotificationType, ReplyOutcome } from '../../events/notifications.js'

/**
 * A delivery as the sending loop hands it to its channel (docs/api/messaging.md › Deliveries and e-mail): claimed, outside any
 * transaction, with everything the channel needs to write the message in the recipient's language.
 */
export interface OutgoingDelivery {
  id: number
  userId: number
  locale: 'en' | 'de'
  /** The recipient's time zone (their notification settings, else TIME_ZONE): dates in texts are said in it. */
  timeZone: string
  /** A notification's delivery (its request's title when it names one), or null for an account message. */
  notification: { id: number, type: NotificationType, requestId: number | null, requestTitle: string | null, requestWindowStart?: string | null, data: Record<string, unknown> } | null
  /** An account message (docs/api/accounts.md › Getting back in), with its code (unsealed) when it carries one. */
  account: { message: AccountMessage, code: string | null } | null
  /** The answer to a reply with a code (the sms channel): what came of it, and its request's title. */
  reply?: { outcome: ReplyOutcome, title: string | null } | null
  /** An invitation to help the inviter (docs/api.md › Carers), sent to an address without an account, in the inviter's language. */
  invitation: { inviterName: string, can: readonly string[] } | null
  /** The recipient's address (the e-mail channel). */
  email: string
  /** The phone as the profile holds it, and whether it is confirmed (the sms channel); null when there is none. */
  phone?: { number: string, confirmed: boolean } | null
  /**
   * A coordinator's client's text (docs/api/on-behalf.md › Texts to a client): `phone`, `locale` and `timeZone` are
   * then the client's (TIME_ZONE), the words the client's; `helperName` the volunteer's first name for `response_accepted`.
   */
  client?: { id: number, helperName: string | null } | null
  /** The device (the push channel). */
  subscription: { id: number, endpoint: string, p256dh: string, auth: string } | null
  /** 1 on the first try. */
  attempt: number
}

/**
 * What became of one try: `sent`; `retry` later (the server is down, busy or refused for now); `gone`:
 * it can never be sent (a push service's 404 or 410 removes the subscription; the delivery is dropped).
 * `reason` is shown to the owner as `last_error`, so it never holds a secret.
 */
export type SendOutcome = { outcome: 'sent' } | { outcome: 'retry', reason: string } | { outcome: 'gone', reason: string }

/** One way out: e-mail (SMTP or MAIL_DIR), Web Push or a text (SMPP or SMS_DIR). Never called on a request's path. */
export interface Channel {
  send (delivery: OutgoingDelivery): Promise<SendOutcome>
  close (): Promise<void>
}
