/**
 * What a change, or a reaction to it, may notify (docs/api/messaging.md › Notifications): the dispatcher collects these and has
 * them written once per transaction (dispatcher.ts); the notifications module stores and serves them.
 */
export const NOTIFICATION_TYPES = [
  'request_alert', 'request_alert_closed', 'request_approved', 'request_rejected', 'response_received',
  'response_withdrawn', 'response_accepted', 'response_rejected', 'request_cancelled', 'request_completed',
  'check_expiring', 'concern_raised', 'concern_resolved',
  // docs/api/schedule.md › Series, › Confirmation, reminders, expiry.
  'series_invitation', 'confirm_needed', 'volunteer_confirmed', 'confirmation_missed', 'reminder', 'request_expired',
  'still_needed', 'please_complete',
  // docs/api/on-behalf.md › Carers.
  'trust_invitation', 'request_created_for_you',
  // docs/api/visit-checks.md.
  'visit_not_started', 'visit_overdue',
  // docs/api/messaging.md › Texts › Replies: a client replied NO to a text about their request.
  'client_says_not_needed',
] as const
export type NotificationType = typeof NOTIFICATION_TYPES[number]

/** One notification to write: to `userId`, about `requestId` (null for one about no request: docs/privacy.md), with the type's `data` (docs/api/messaging.md › Notifications). */
export interface NewNotification {
  userId: number
  type: NotificationType
  requestId: number | null
  data: Record<string, unknown>
}

/** The account e-mails of docs/api/accounts.md › Getting back in: never switched off, never in the inbox. */
export const ACCOUNT_MESSAGES = [
  'sign_in_code', 'password_reset_code', 'verify_email_code', 'email_verified', 'password_changed', 'verify_phone_code',
  'sms_stopped', 'sms_started', 'sms_help', 'sms_sorry', 'sms_answer',
] as const
export type AccountMessage = typeof ACCOUNT_MESSAGES[number]
/** The account message that confirms a phone, texted to it (docs/api/messaging.md › Texts). */
export const PHONE_CODE_MESSAGE = 'verify_phone_code'
/**
 * The answers to STOP, START and HELP (docs/api/messaging.md › Texts › Replies), and to a text not understood (› The
 * inbox: at most once a day per number), texted to the number that sent them.
 */
export const REPLY_ANSWERS = ['sms_stopped', 'sms_started', 'sms_help', 'sms_sorry'] as const
export type ReplyAnswer = typeof REPLY_ANSWERS[number]
/** The answer to a reply with a code (YES, OK, NO), saying what came of it (REPLY_OUTCOMES). */
export const CODE_ANSWER_MESSAGE = 'sms_answer'
/**
 * What came of a reply with a code (docs/api/messaging.md › Texts › Replies): done (an offer made, a visit confirmed, a
 * request cancelled), or why not, in words its answer says.
 */
export const REPLY_OUTCOMES = ['offered', 'confirmed', 'cancelled', 'not_open', 'already_offered', 'checks', 'not_assigned', 'cannot'] as const
export type ReplyOutcome = typeof REPLY_OUTCOMES[number]
/** The account messages that go by text; every other goes by e-mail. */
export const TEXT_ACCOUNT_MESSAGES: readonly AccountMessage[] = [PHONE_CODE_MESSAGE, ...REPLY_ANSWERS, CODE_ANSWER_MESSAGE]
export type EmailAccountMessage = Exclude<AccountMessage, typeof PHONE_CODE_MESSAGE | ReplyAnswer | typeof CODE_ANSWER_MESSAGE>

export const isEmailAccountMessage = (message: AccountMessage): message is EmailAccountMessage => !TEXT_ACCOUNT_MESSAGES.includes(message)
