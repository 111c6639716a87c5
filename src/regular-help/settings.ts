/**
 * The settings of docs/api/schedule.md (series, confirmation, reminders, expiry), spread into config.ts's SETTINGS;
 * kept here so that file stays readable. Each leaf works as config.ts describes.
 */
import { Type } from 'typebox'

const whole = (env: string, minimum: number, maximum: number, fallback: number, description: string) =>
  Type.Integer({ env, minimum, maximum, default: fallback, description })

export const SCHEDULE_SETTINGS = {
  schedule: Type.Object({
    horizonDays: whole('SERIES_HORIZON_DAYS', 7, 90, 28, 'how far ahead the occurrences of a series are created (docs/api/schedule.md)'),
    preferredHoldHours: whole('PREFERRED_HOLD_HOURS', 0, 168, 24, 'how long a new occurrence is offered to the series\' preferred volunteer alone before alert rounds start'),
    confirmBeforeHours: whole('CONFIRM_BEFORE_HOURS', 2, 72, 24, 'hours before a window\'s start the assigned volunteer is asked to confirm (docs/api/schedule.md)'),
    confirmDeadlineHours: whole('CONFIRM_DEADLINE_HOURS', 1, 48, 12, 'hours before a window\'s start an unconfirmed volunteer is withdrawn and urgent alert rounds start; less than CONFIRM_BEFORE_HOURS'),
    remindBeforeMinutes: whole('REMIND_BEFORE_MINUTES', 15, 1440, 120, 'minutes before a window\'s start the requester and the assigned volunteer are reminded'),
    staleAfterDays: whole('STALE_AFTER_DAYS', 1, 365, 14, 'days after which an approved request with neither window nor date asks its requester "still needed?"'),
  }),
}
