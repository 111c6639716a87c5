import type { TFunction } from 'i18next'
import { localeOf } from './format.js'

/** The days of a series, in week order, as the API names them (docs/api/schedule.md › Series). */
export const WEEK_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const
export type WeekDay = typeof WEEK_DAYS[number]

/** "07:30", and what people type for it ("7:30", "07.30"), to HH:MM; undefined when it is no time of day. */
export function readClock (text: string): string | undefined {
  const match = /^(\d{1,2})[:.](\d{2})$/.exec(text.trim())
  if (match === null) return undefined
  const [hours, minutes] = [Number(match[1]), Number(match[2])]
  if (hours > 23 || minutes > 59) return undefined
  return `${String(hours).padStart(2, '0')}:${match[2]}`
}

/**
 * A date typed in GOV.UK's three fields, kept as "year-month-day" as typed ("2027-5-3"), as YYYY-MM-DD when it is a
 * day of the calendar (not 31 April) with a four-digit year; else undefined.
 */
export function readDate (text: string): string | undefined {
  const match = /^\s*(\d{4})\s*-\s*(\d{1,2})\s*-\s*(\d{1,2})\s*$/.exec(text)
  if (match === null) return undefined
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined
  return `${match[1]}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}

/** The instant of a YYYY-MM-DD day at HH:MM on this device's clock. */
export const localInstant = (isoDay: string, clock: string): Date =>
  new Date(Number(isoDay.slice(0, 4)), Number(isoDay.slice(5, 7)) - 1, Number(isoDay.slice(8, 10)), Number(clock.slice(0, 2)), Number(clock.slice(3, 5)))

/** Minutes since midnight of HH:MM. */
export const minutesOf = (clock: string): number => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5))

/** HH:MM of minutes since midnight (within the day). */
export const clockOf = (minutes: number): string => `${String(Math.floor(minutes / 60) % 24).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`

/** The day's name in the page's language ("Tuesday", "Dienstag"): 1 January 2024 was a Monday. */
export function dayName (day: WeekDay, language: string): string {
  return new Intl.DateTimeFormat(localeOf(language), { weekday: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2024, 0, 1 + WEEK_DAYS.indexOf(day))))
}

/** A calendar date (YYYY-MM-DD) as said aloud: "1 December", with the year only when it is not this year's. */
export function sayDay (day: string, language: string): string {
  const [year, month, date] = day.split('-').map(Number)
  const withYear = year !== new Date().getFullYear()
  return new Intl.DateTimeFormat(localeOf(language), { day: 'numeric', month: 'long', ...(withYear ? { year: 'numeric' } : {}), timeZone: 'UTC' })
    .format(new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, date ?? 1)))
}

export interface Pattern {
  days: readonly WeekDay[]
  start_time: string
  duration_minutes: number
  every_weeks?: number
  return_time?: string | null
  starts_on: string
  ends_on?: string | null
}

/**
 * A series in plain words, as the requester checks it and reads it later (docs/web/schedule.md): "Every Tuesday and
 * Thursday, 07:30 to 10:30, and back at 12:00, from 1 December". Times are the series' own local times.
 */
export function seriesSummary (pattern: Pattern, t: TFunction, language: string): string {
  const parts = seriesParts(pattern, t, language)
  return t('regular.words.summary', { days: parts.days, times: parts.times, back: parts.back === undefined ? '' : t('regular.words.back', { time: parts.back }), dates: parts.dates })
}

/** The parts of the summary, each as the check page's rows show it. */
export function seriesParts (pattern: Pattern, t: TFunction, language: string): { days: string, times: string, back?: string, dates: string } {
  const ordered = WEEK_DAYS.filter((day) => pattern.days.includes(day))
  const names = new Intl.ListFormat(localeOf(language), { type: 'conjunction' }).format(ordered.map((day) => dayName(day, language)))
  const weeks = pattern.every_weeks ?? 1
  const days = ordered.length === 7 && weeks === 1 ? t('regular.words.everyDay') : weeks > 1 ? t('regular.words.everyWeeks', { count: weeks, days: names }) : t('regular.words.every', { days: names })
  const end = clockOf(minutesOf(pattern.start_time) + pattern.duration_minutes)
  const times = t('regular.words.times', { start: pattern.start_time.slice(0, 5), end })
  const back = pattern.return_time !== null && pattern.return_time !== undefined ? pattern.return_time.slice(0, 5) : undefined
  const dates = pattern.ends_on !== null && pattern.ends_on !== undefined
    ? t('regular.words.fromUntil', { from: sayDay(pattern.starts_on, language), until: sayDay(pattern.ends_on, language) })
    : t('regular.words.from', { from: sayDay(pattern.starts_on, language) })
  return { days, times, back, dates }
}

/**
 * A window in words in the page's language and the device's zone: "Tuesday 1 December, 07:30–10:30"; one that
 * ends on another day names both days ("Sunday 29 November, 23:05 – Monday 30 November, 00:05"), where the
 * times' own range would fall back to numeric dates.
 */
export function sayWindow (start: string, end: string | null, language: string): string {
  const locale = localeOf(language)
  const dayFormat = new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long' })
  const clock = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
  const [from, to] = [new Date(start), end === null ? null : new Date(end)]
  const day = dayFormat.format(from)
  if (to === null) return `${day}, ${clock.format(from)}`
  const sameDay = new Intl.DateTimeFormat('en-CA').format(from) === new Intl.DateTimeFormat('en-CA').format(to)
  return sameDay ? `${day}, ${clock.formatRange(from, to)}` : `${day}, ${clock.format(from)} – ${dayFormat.format(to)}, ${clock.format(to)}`
}

/** The browser's own time zone: a series is set up in the zone of the person setting it up. */
export const deviceZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone
