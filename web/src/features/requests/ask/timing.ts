import { localInstant, minutesOf, readClock, readDate } from '../../../lib/schedule.js'

/**
 * When help once is needed (docs/web/help.md › Asking for help): at a set time, as a window from a start to an end
 * (docs/api/schedule.md › A time window on a request), so that an appointment is said as one everywhere; by a day,
 * as `desired_completion_date`; or any time. Answers are kept as typed; these read them.
 */
export const TIMINGS = ['at', 'by', 'any'] as const
export type Timing = typeof TIMINGS[number]

/** An hour is planned when no end is given: a lift or a visit rarely takes less. */
const PLANNED_MINUTES = 60

/** `onDay` as the date fields give it ("2027-5-3"); `startsAt`, `endsAt` and `byTime` as typed ("9.30"). */
export interface TimingAnswers { timing?: Timing, onDay?: string, startsAt?: string, endsAt?: string, byTime?: string }

export type TimingProblem = 'onDay' | 'past' | 'startsAt' | 'endsAt' | 'byTime'

/** The window of a set time, or what is wrong with the answers: the end after the start, on the same day. */
export function windowOf (answers: TimingAnswers, now = new Date()): { start: Date, end: Date } | TimingProblem {
  const day = readDate(answers.onDay ?? '')
  if (day === undefined) return 'onDay'
  const from = readClock(answers.startsAt ?? '')
  if (from === undefined) return 'startsAt'
  const untilText = (answers.endsAt ?? '').trim()
  const until = untilText === '' ? undefined : readClock(untilText)
  if (untilText !== '' && (until === undefined || minutesOf(until) <= minutesOf(from))) return 'endsAt'
  const start = localInstant(day, from)
  if (start.getTime() <= now.getTime()) return 'past'
  const end = until !== undefined ? localInstant(day, until) : new Date(start.getTime() + PLANNED_MINUTES * 60_000)
  return { start, end }
}

/** The moment help by a day is wanted by: that day's time when given, else the day's end (23:59). */
export function deadlineOf (answers: TimingAnswers, now = new Date()): Date | TimingProblem {
  const day = readDate(answers.onDay ?? '')
  if (day === undefined) return 'onDay'
  const timeText = (answers.byTime ?? '').trim()
  const time = timeText === '' ? '23:59' : readClock(timeText)
  if (time === undefined) return 'byTime'
  const at = localInstant(day, time)
  return at.getTime() <= now.getTime() ? 'past' : at
}

/** The answered time of help once: a window for a set time, a deadline for a day, undefined for any time (or an answer not valid). */
export function timeOf (answers: TimingAnswers): { start: Date, end: Date } | Date | undefined {
  const time = answers.timing === 'at' ? windowOf(answers) : answers.timing === 'by' ? deadlineOf(answers) : undefined
  return typeof time === 'string' ? undefined : time
}
