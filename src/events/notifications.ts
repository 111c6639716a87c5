/**
 * What a change, or a reaction to it, may notify (events.md § 4): the dispatcher collects these and has
 * them written once per transaction (dispatcher.ts); the notifications module stores and serves them.
 */
export const NOTIFICATION_TYPES = [
  'request_alert', 'request_alert_closed', 'request_approved', 'request_rejected', 'response_received',
  'response_withdrawn', 'response_accepted', 'response_rejected', 'request_cancelled', 'request_completed',
  'check_expiring', 'concern_raised', 'concern_resolved',
  // schedule.md § 2 and § 3.
  'series_invitation', 'confirm_needed', 'volunteer_confirmed', 'confirmation_missed', 'reminder', 'request_expired',
  'still_needed', 'please_complete',
  // behalf.md § 2.
  'trust_invitation', 'request_created_for_you',
] as const
export type NotificationType = typeof NOTIFICATION_TYPES[number]

/** One notification to write: to `userId`, about `requestId` (null for one about no request: trust.md), with the type's `data` (events.md § 4). */
export interface NewNotification {
  userId: number
  type: NotificationType
  requestId: number | null
  data: Record<string, unknown>
}

/** The account e-mails of reach.md § 2: never switched off, never in the inbox. */
export const ACCOUNT_MESSAGES = ['sign_in_code', 'password_reset_code', 'verify_email_code', 'email_verified', 'password_changed'] as const
export type AccountMessage = typeof ACCOUNT_MESSAGES[number]
