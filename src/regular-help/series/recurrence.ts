import { Temporal } from 'temporal-polyfill'
import { isTimeZone } from '../../lib/values.js'
import { badRequest } from '../../lib/errors.js'

/**
 * The calendar of a series (docs/api/schedule.md › Series), pure: which days and local times it falls on, checked and
 * worked out in the series' own IANA zone with Temporal, so "07:30 every Tuesday" stays 07:30 local across
 * daylight-saving changes. A local time that a spring change skips (02:30) becomes the time after the gap.
 */

export const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const
export type Day = typeof DAYS[number]

/** When a series' occurrences fall: the fields of docs/api/schedule.md › Series that make its calendar. */
export interface Pattern {
  days: readonly Day[]
  start_time: string
  duration_minutes: number
  every_weeks: number
  starts_on: string
  ends_on: string | null
  return_time: string | null
  time_zone: string
}

/** One occurrence to create: its window, and for a return trip the start of its outbound trip. */
export interface Planned {
  start: Date
  end: Date
  /** The outbound trip's start, for a return trip; null for an outbound one. */
  returnOf: Date | null
}

const MINUTE_MS = 60_000
const DAY_MINUTES = 24 * 60
/** docs/api/schedule.md › Series: ends_on at most this many years after starts_on. */
const MAX_YEARS = 2

/** The days in week order, each once (answers keep this order whatever order they were sent in). */
export const inWeekOrder = (days: readonly Day[]): Day[] => DAYS.filter((day) => days.includes(day))

const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))

/** Today's date in `zone` at the instant `now`. */
export function todayIn (now: Date, zone: string): Temporal.PlainDate {
  return Temporal.Instant.fromEpochMilliseconds(now.getTime()).toZonedDateTimeISO(zone).toPlainDate()
}

/** The local date (YYYY-MM-DD) of an instant in `zone`. */
export const localDate = (at: Date, zone: string): string => todayIn(at, zone).toString()

/**
 * The checks of docs/api/schedule.md › Series that the schema cannot make, with its texts: the zone, starts_on (today in
 * the series' zone or later: only on creation, `now` undefined on a change), ends_on and return_time.
 */
export function checkPattern (pattern: Pattern, now: Date | undefined): void {
  if (!isTimeZone(pattern.time_zone)) throw badRequest('invalid time_zone')
  const startsOn = Temporal.PlainDate.from(pattern.starts_on)
  if (now !== undefined && Temporal.PlainDate.compare(startsOn, todayIn(now, pattern.time_zone)) < 0) throw badRequest('invalid starts_on')
  if (pattern.ends_on !== null) {
    const endsOn = Temporal.PlainDate.from(pattern.ends_on)
    if (Temporal.PlainDate.compare(endsOn, startsOn) <= 0 || Temporal.PlainDate.compare(endsOn, startsOn.add({ years: MAX_YEARS })) > 0) {
      throw badRequest('invalid ends_on')
    }
  }
  if (pattern.return_time !== null) {
    // The same day, starting at or after the outbound window's end and ending by midnight.
    const back = minutesOf(pattern.return_time)
    if (back < minutesOf(pattern.start_time) + pattern.duration_minutes || back + pattern.duration_minutes > DAY_MINUTES) {
      throw badRequest('invalid return_time')
    }
  }
}

/** The instant of a local date and time in `zone`. */
function instantOf (date: Temporal.PlainDate, time: string, zone: string): Date {
  return new Date(date.toZonedDateTime({ timeZone: zone, plainTime: Temporal.PlainTime.from(time) }).epochMilliseconds)
}

/**
 * The outbound occurrences whose window starts after `from` and before `until`, in order of start: on the
 * pattern's days from starts_on through ends_on, in every `every_weeks`-th week counted from the
 * Monday-to-Sunday week of starts_on; each lasting duration_minutes; each followed by its return trip the
 * same day at return_time, even when that starts at or after `until`, so the two are always made together.
 */
export function occurrencesBetween (pattern: Pattern, from: Date, until: Date): Planned[] {
  const zone = pattern.time_zone
  const startsOn = Temporal.PlainDate.from(pattern.starts_on)
  const firstMonday = startsOn.subtract({ days: startsOn.dayOfWeek - 1 })
  // A day either side: a window's local date may differ from the UTC date of `from` and `until`.
  let date = todayIn(from, zone).subtract({ days: 1 })
  if (Temporal.PlainDate.compare(date, startsOn) < 0) date = startsOn
  let last = todayIn(until, zone).add({ days: 1 })
  if (pattern.ends_on !== null && Temporal.PlainDate.compare(last, Temporal.PlainDate.from(pattern.ends_on)) > 0) last = Temporal.PlainDate.from(pattern.ends_on)
  const duration = pattern.duration_minutes * MINUTE_MS
  const inRange = (start: Date) => start > from && start < until
  const planned: Planned[] = []
  for (; Temporal.PlainDate.compare(date, last) <= 0; date = date.add({ days: 1 })) {
    if (!pattern.days.includes(DAYS[date.dayOfWeek - 1]!)) continue
    const week = Math.floor(date.since(firstMonday).days / 7)
    if (week % pattern.every_weeks !== 0) continue
    const start = instantOf(date, pattern.start_time, zone)
    if (!inRange(start)) continue
    planned.push({ start, end: new Date(start.getTime() + duration), returnOf: null })
    // A return trip comes with its outbound one, whichever side of `until` it starts: never one without the other.
    if (pattern.return_time !== null) {
      const back = instantOf(date, pattern.return_time, zone)
      planned.push({ start: back, end: new Date(back.getTime() + duration), returnOf: start })
    }
  }
  return planned
}

/**
 * The start of the first outbound occurrence at or after `at` (its return trip is made with it), or null
 * when the series has none left (ends_on passed). Every pattern has one within 5 weeks unless it has
 * ended: at most every 4th week, on at least one day.
 */
export function nextStart (pattern: Pattern, at: Date): Date | null {
  const day = DAY_MINUTES * MINUTE_MS
  // From a moment before `at`: occurrencesBetween takes starts after `from`, and one starting at `at` counts.
  const coming = occurrencesBetween(pattern, new Date(at.getTime() - 1), new Date(at.getTime() + 36 * day))
  return coming.find((planned) => planned.returnOf === null && planned.start >= at)?.start ?? null
}
