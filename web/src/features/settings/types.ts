/** The types of docs/api/messaging.md › Notifications a person may choose, in the order a person meets them (asking, then helping, then trust). */
export const CHOOSABLE_TYPES = [
  'request_approved', 'request_rejected', 'response_received', 'response_withdrawn', 'request_alert', 'request_alert_closed',
  'response_accepted', 'response_rejected', 'request_cancelled', 'request_completed', 'check_expiring', 'concern_raised',
  'concern_resolved', 'volunteer_confirmed', 'request_expired', 'still_needed', 'please_complete', 'series_invitation', 'confirm_needed',
  'confirmation_missed', 'reminder', 'visit_not_started', 'visit_overdue', 'client_says_not_needed',
] as const

/**
 * The types that can go by text (docs/api/messaging.md › Texts: the service's SMS_TYPES, src/messaging/sms/sms-texts.ts;
 * any other is 400 `invalid type`), in the order of the page's other lists. test/unit/web-sms-types.test.ts holds the two
 * lists to each other.
 */
export const TEXT_TYPES = CHOOSABLE_TYPES.filter((type) => [
  'request_alert', 'request_approved', 'request_rejected', 'response_received', 'response_withdrawn', 'response_accepted',
  'request_cancelled', 'request_completed', 'series_invitation', 'confirm_needed', 'volunteer_confirmed', 'confirmation_missed',
  'reminder', 'request_expired', 'still_needed',
].includes(type))
