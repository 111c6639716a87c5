/**
 * What a change, or a reaction to it, may notify (events.md § 4): the dispatcher collects these and has
 * them written once per transaction (dispatcher.ts); the notifications module stores and serves them.
 */
export const NOTIFICATION_TYPES = [
  'request_alert', 'request_alert_closed', 'request_approved', 'request_rejected', 'response_received',
  'response_withdrawn', 'response_accepted', 'response_rejected', 'request_cancelled', 'request_completed',
] as const
export type NotificationType = typeof NOTIFICATION_TYPES[number]

/** One notification to write: to `userId`, about `requestId`, with the type's `data` (events.md § 4). */
export interface NewNotification {
  userId: number
  type: NotificationType
  requestId: number
  data: Record<string, unknown>
}
