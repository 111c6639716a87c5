import { Temporal } from 'temporal-polyfill'
import { badRequest } from '../../lib/errors.js'
import { isCalendarDate } from '../../lib/values.js'

/** docs/api/on-behalf.md › Reports for funders: no report covers more than this many years (a 5-year range from Jan 1 ends Dec 31). */
export const MAX_RANGE_YEARS = 5

export type PeriodKind = 'month' | 'week'

/** The dates a report covers, both inclusive, in TIME_ZONE, and the instants where that range starts and ends. */
export interface DateRange {
  from: string
  to: string
  /** The first instant of `from` in TIME_ZONE. */
  start: Date
  /** The first instant of the day after `to`: the range is start <= t < end. */
  end: Date
}

/** One period of a summary: its first counted day (`from` for the first), and its instants [start, end). */
export interface Period { date: string, start: Date, end: Date }

const startOfDay = (date: Temporal.PlainDate, zone: string): Date =>
  new Date(date.toZonedDateTime({ timeZone: zone }).epochMilliseconds)

function parseDate (text: string | undefined, name: 'from' | 'to'): Temporal.PlainDate | undefined {
  if (text === undefined) return undefined
  if (!isCalendarDate(text)) throw badRequest(name === 'from' ? 'invalid from' : 'invalid to')
  return Temporal.PlainDate.from(text)
}

/**
 * The range a report asks for. `to` defaults to today (the app's clock, in TIME_ZONE); `from` to the first
 * day of the month eleven months before `to`'s month, so the default summary has 12 months. A range of
 * 5 years or more (to on or after from + 5 years) is too long.
 */
export function dateRange (query: { from?: string, to?: string }, now: Date, zone: string): DateRange {
  const givenFrom = parseDate(query.from, 'from')
  const to = parseDate(query.to, 'to') ??
    Temporal.Instant.fromEpochMilliseconds(now.getTime()).toZonedDateTimeISO(zone).toPlainDate()
  const from = givenFrom ?? to.with({ day: 1 }).subtract({ months: 11 })
  if (Temporal.PlainDate.compare(from, to) > 0) throw badRequest('invalid from')
  if (Temporal.PlainDate.compare(to, from.add({ years: MAX_RANGE_YEARS })) >= 0) throw badRequest('range is too long')
  return { from: from.toString(), to: to.toString(), start: startOfDay(from, zone), end: startOfDay(to.add({ days: 1 }), zone) }
}

export function periodKind (by: string | undefined): PeriodKind {
  if (by === undefined || by === 'month') return 'month'
  if (by === 'week') return 'week'
  throw badRequest('invalid by')
}

/**
 * The range cut into calendar months or weeks (Monday to Sunday) in TIME_ZONE. The first period starts at
 * `from` and the last ends with `to`, so a period at either edge may be shorter than a month or a week.
 */
export function periodsOf (range: DateRange, kind: PeriodKind, zone: string): Period[] {
  const last = Temporal.PlainDate.from(range.to)
  const periods: Period[] = []
  let date = Temporal.PlainDate.from(range.from)
  while (Temporal.PlainDate.compare(date, last) <= 0) {
    const next = kind === 'month'
      ? date.with({ day: 1 }).add({ months: 1 })
      : date.add({ days: 8 - date.dayOfWeek })
    const end = Temporal.PlainDate.compare(next, last) > 0 ? last.add({ days: 1 }) : next
    periods.push({ date: date.toString(), start: startOfDay(date, zone), end: startOfDay(end, zone) })
    date = next
  }
  return periods
}
