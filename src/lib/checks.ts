import type { Clock } from './clock.js'

/**
 * The kinds of check an organisation records about a person (docs/api/accounts.md › Checks that vet volunteers), in the order they are
 * listed wherever a user's checks are shown. `driving` (a licence and insurance seen) makes a volunteer's `car` and
 * `wheelchair_vehicle` count (docs/api/visits.md › Needs and matching).
 */
export const CHECK_KINDS = ['identity', 'background', 'training', 'reference', 'driving'] as const
export type CheckKind = typeof CHECK_KINDS[number]

/** The calendar date (YYYY-MM-DD) of the instant `at` in `timeZone`. */
export function dateIn (at: Date, timeZone: string): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at)
}

/**
 * The app's clock with "today" where the service runs (TIME_ZONE): a check is valid through the whole of
 * its valid_until day there, so every rule that asks whether a check is valid asks with today().
 */
export interface Calendar extends Clock {
  today(): string
  /** TIME_ZONE, the zone of `today()` (and of anyone's notifications who chose none). */
  readonly timeZone: string
}

export function calendarOf (clock: Clock, timeZone: string): Calendar {
  return { now: () => clock.now(), today: () => dateIn(clock.now(), timeZone), timeZone }
}

/** `date` (YYYY-MM-DD) moved by `days` calendar days. */
export function addDays (date: string, days: number): string {
  const moved = new Date(`${date}T00:00:00Z`)
  moved.setUTCDate(moved.getUTCDate() + days)
  return moved.toISOString().slice(0, 10)
}
