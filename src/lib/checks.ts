import type { Clock } from './clock.js'

/**
 * The kinds of check an organisation records about a person (docs/api/accounts.md › Checks that vet volunteers), in the order they are
 * listed wherever a user's checks are shown.
 */
export const CHECK_KINDS = ['identity', 'background', 'training', 'reference'] as const
export type CheckKind = typeof CHECK_KINDS[number]

/**
 * Whether `name` is a time zone of the IANA database (Europe/Berlin, UTC): a name Intl knows.
 */
export function isTimeZone (name: string): boolean {
  try {
    // eslint-disable-next-line no-new -- the constructor is the check
    new Intl.DateTimeFormat('en', { timeZone: name })
    // Newer ICU (Node 22) also takes offsets such as "+01:00", which PostgreSQL reads with the
    // opposite sign (POSIX), so only names are accepted.
    return /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)
  } catch {
    return false
  }
}

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

/** Whether `text` is a real calendar date written YYYY-MM-DD (2026-02-30 is not). */
export function isCalendarDate (text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false
  const date = new Date(`${text}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text
}

/** `date` (YYYY-MM-DD) moved by `days` calendar days. */
export function addDays (date: string, days: number): string {
  const moved = new Date(`${date}T00:00:00Z`)
  moved.setUTCDate(moved.getUTCDate() + days)
  return moved.toISOString().slice(0, 10)
}
