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
export const ACCOUNT_MESSAGES = ['sign_in_code', 'password_reset_code', 'verify_email_code', 'email_verified', 'password_changed', 'verify_phone_code'] as const
export type AccountMessage = typeof ACCOUNT_MESSAGES[number]
/** The one account message that goes by text, to the phone it confirms (docs/api/messaging.md › Texts); every other goes by e-mail. */
export const PHONE_CODE_MESSAGE = 'verify_phone_code'
export type EmailAccountMessage = Exclude<AccountMessage, typeof PHONE_CODE_MESSAGE>
