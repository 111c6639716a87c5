/**
 * The settings of docs/api/visit-checks.md (a visit checked in and out; hours and mileage), spread into config.ts's
 * SETTINGS; kept here so that file stays readable. Each leaf works as config.ts describes.
 */
import { Type } from 'typebox'

const whole = (env: string, minimum: number, maximum: number, fallback: number, description: string) =>
  Type.Integer({ env, minimum, maximum, default: fallback, description })

/** MILEAGE_RATE's text: a decimal with up to two places. */
const RATE_PATTERN = '^\\d{1,4}(\\.\\d{1,2})?$'

/** The rate as whole cents, so the amounts are exact (no binary fractions): "0.30" → 30, "1.5" → 150. */
export function rateCents (text: string): number {
  const [units = '0', fraction = ''] = text.split('.')
  return Number(units) * 100 + Number(fraction.padEnd(2, '0'))
}

export const VISIT_SETTINGS = {
  visits: Type.Object({
    checks: Type.Enum(['off', 'on'] as const, {
      env: 'VISIT_CHECKS',
      default: 'off',
      description: '`on`: the assigned volunteer checks a visit in and out, the requester is asked when it does not start, the volunteer when it runs long, and moderators get an urgent concern when they do not answer (docs/api/visit-checks.md); the request pages then offer "I have arrived" and "My helper has left" (docs/web/visits.md); `off`: those routes answer 404',
    }),
    startGraceMinutes: whole('VISIT_START_GRACE_MINUTES', 1, 240, 30, 'minutes after a visit\'s time (its window\'s start, else its date) without a check-in before the requester gets `visit_not_started`'),
    overdueMinutes: whole('VISIT_OVERDUE_MINUTES', 1, 720, 120, 'minutes after a check-in without a check-out (or 60 minutes after the window\'s end, if later) before the volunteer gets `visit_overdue`'),
    escalateMinutes: whole('VISIT_ESCALATE_MINUTES', 1, 120, 15, 'minutes after `visit_overdue`, still not checked out, before an urgent concern is raised for the moderators'),
    mileageRateCents: Type.Codec(Type.String({
      env: 'MILEAGE_RATE',
      default: '0.30',
      pattern: RATE_PATTERN,
      must: 'be an amount with at most two decimal places, such as 0.30',
      description: 'the amount per kilometre in the volunteers CSV (`GET /reports/volunteers.csv`), in the operator\'s currency',
    })).Decode(rateCents).Encode((cents) => (cents / 100).toFixed(2)),
  }),
}
