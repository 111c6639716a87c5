import { createContext, useContext } from 'react'
import { useLocation } from 'react-router'
import type { Client } from '../../../api/clients'
import { useStoredAnswers, type AnswersStore as StoredAnswers } from '../../../components/stored-answers'
// Shared with the profile's home location.
import { parseCoordinate } from '../../../lib/coordinates'
import { minutesOf, readClock, readDate, type WeekDay } from '../../../lib/schedule'
import { today } from '../../../lib/format'
import { deadlineOf, windowOf, type TimingAnswers } from './timing'

/** How the person says where help is needed; each way but two leads to its own page. */
export const PLACES = ['home', 'here', 'map', 'search', 'coordinates'] as const
export type PlaceWay = typeof PLACES[number]

/**
 * The answers so far, as typed. A missing answer is a question not yet answered; an optional question
 * that was answered with nothing is ''. Strings throughout, so a half-typed answer survives Back.
 */
export interface Answers extends TimingAnswers {
  kind?: string
  title?: string
  description?: string
  place?: PlaceWay
  latitude?: string
  longitude?: string
  address?: string
  city?: string
  /** Once (at a set time, by a day or any time: timing.ts) or regularly (a series, docs/api/schedule.md › Series): the pages that follow differ. */
  often?: 'once' | 'regular'
  days?: WeekDay[]
  start?: string
  end?: string
  returnTrip?: 'no' | 'yes'
  back?: string
  from?: string
  until?: string
  urgency?: string
  phone?: string
  notes?: string
  /** Asking for someone who made the signed-in person their carer (docs/api/on-behalf.md › Carers): their user id and name. */
  forUser?: number
  forName?: string
}

/**
 * For whom the questions are asked: the signed-in person (at /ask), or a coordinator's client (at /clients/:id/ask,
 * docs/api/on-behalf.md › Coordinators and clients), whose home, address and phone are the answers' defaults as the profile's are for oneself.
 * `leave` is where Back leads from the first question.
 */
export interface AskingFor { base: string, leave: string, client?: Client }
export const AskingForContext = createContext<AskingFor>({ base: '/ask', leave: '/' })
export const useAskingFor = (): AskingFor => useContext(AskingForContext)

export const URGENCIES = ['low', 'medium', 'high', 'urgent'] as const

/**
 * The urgencies offered: all for help once; for regular help (booked ahead, its dates made weeks before) all
 * but `urgent` ("today"). The API takes any for a series; its dates go out at the urgent pace anyway when a
 * helper does not confirm in time.
 */
export function urgenciesFor (answers: Answers): ReadonlyArray<typeof URGENCIES[number]> {
  return answers.often === 'regular' && stepsFor(answers).includes('days') ? URGENCIES.filter((value) => value !== 'urgent') : URGENCIES
}

export type Step = 'kind' | 'title' | 'description' | 'where' | 'map' | 'coordinates' | 'address' | 'often' | 'when' | 'at' | 'by' | 'days' | 'times' | 'return' | 'dates' | 'urgency' | 'contact' | 'check'

/** The questions of regular help, in place of "when" (one question a page). */
export const REGULAR_STEPS = ['days', 'times', 'return', 'dates'] as const

/** The pages in order for these answers: the map or the coordinates only when chosen as the way; the days and times only for regular help. */
export function stepsFor (answers: Answers): Step[] {
  const placeStep: Step[] = answers.place === 'map' ? ['map'] : answers.place === 'coordinates' ? ['coordinates'] : []
  // The same for oneself, a client and a carer's person: both POST /requests and POST /request-series take `on_behalf_of`.
  const onceSteps: Step[] = ['when', ...(answers.timing === 'at' ? ['at' as const] : answers.timing === 'by' ? ['by' as const] : [])]
  const timeSteps: Step[] = answers.often === 'regular' ? [...REGULAR_STEPS] : onceSteps
  return ['kind', 'title', 'description', 'where', ...placeStep, 'address', 'often', ...timeSteps, 'urgency', 'contact', 'check']
}

/** The outbound window of regular help in minutes, when both times are times and it lasts 15 minutes to 12 hours the same day. */
export function durationOf (answers: Answers): number | undefined {
  const start = readClock(answers.start ?? '')
  const end = readClock(answers.end ?? '')
  if (start === undefined || end === undefined) return undefined
  const minutes = minutesOf(end) - minutesOf(start)
  return minutes >= 15 && minutes <= 720 ? minutes : undefined
}

/** The way back: at or after the way there ends, and over by midnight (docs/api/schedule.md › Series, return_time). */
export function backFits (answers: Answers): boolean {
  const back = readClock(answers.back ?? '')
  const duration = durationOf(answers)
  const end = readClock(answers.end ?? '')
  return back !== undefined && duration !== undefined && end !== undefined && minutesOf(back) >= minutesOf(end) && minutesOf(back) + duration <= 24 * 60
}

/** A date left empty in GOV.UK's three fields ("--" once typed in and cleared). */
export const blankDate = (text: string | undefined): boolean => (text ?? '').replace(/-/g, '').trim() === ''

/** The last day may be left out; given, it comes after the first and at most two years later. */
export function datesProblem (answers: Answers): 'from' | 'until' | undefined {
  const from = readDate(answers.from ?? '')
  if (from === undefined || from < today()) return 'from'
  if (blankDate(answers.until)) return undefined
  const until = readDate(answers.until ?? '')
  const [year, rest] = [Number(from.slice(0, 4)), from.slice(4)]
  return until !== undefined && until > from && until <= `${year + 2}${rest}` ? undefined : 'until'
}

/** A typed point, when both halves are coordinates in range. */
export function pointOf (answers: Answers): { lat: number, lon: number } | undefined {
  const lat = parseCoordinate(answers.latitude ?? '', 90)
  const lon = parseCoordinate(answers.longitude ?? '', 180)
  return lat !== undefined && lon !== undefined ? { lat, lon } : undefined
}

/**
 * Whether each page holds a valid answer. Answers are kept as typed (so Back keeps a half-typed one);
 * the check page sends the person to the first page whose answer would not pass its own Continue.
 */
const ANSWERED: Record<Exclude<Step, 'check'>, (answers: Answers) => boolean> = {
  kind: (a) => a.kind !== undefined,
  title: (a) => (a.title ?? '').trim().length >= 5,
  description: (a) => (a.description ?? '').trim().length >= 10,
  where: (a) => a.place !== undefined && (a.place !== 'home' && a.place !== 'here' ? true : pointOf(a) !== undefined),
  map: (a) => pointOf(a) !== undefined,
  coordinates: (a) => pointOf(a) !== undefined,
  address: (a) => (a.address ?? '').trim() !== '' && pointOf(a) !== undefined,
  often: (a) => a.often !== undefined,
  when: (a) => a.timing !== undefined,
  at: (a) => typeof windowOf(a) !== 'string',
  by: (a) => typeof deadlineOf(a) !== 'string',
  days: (a) => (a.days?.length ?? 0) > 0,
  times: (a) => durationOf(a) !== undefined,
  return: (a) => a.returnTrip === 'no' || (a.returnTrip === 'yes' && backFits(a)),
  dates: (a) => datesProblem(a) === undefined,
  urgency: (a) => urgenciesFor(a).some((value) => value === a.urgency),
  contact: (a) => a.phone !== undefined,
}

export function firstUnanswered (answers: Answers): Step | undefined {
  return stepsFor(answers).find((step) => step !== 'check' && !ANSWERED[step](answers))
}

export const stepPath = (step: Step, change = false, base = '/ask'): string => `${base}/${step}${change ? '?change' : ''}`

const stepAt = (step: Step, change: boolean, base: string): string => stepPath(step, change, base)

/**
 * Where Continue and Back lead. Coming from "Change" on the check page, Continue returns there, except
 * that a new way of giving the place goes on through its own pages (the map, the address) first.
 */
export function nextPath (step: Step, answers: Answers, change: boolean, base = '/ask'): string {
  const stepPath = (to: Step, changing = false) => stepAt(to, changing, base)
  const steps = stepsFor(answers)
  const following = steps[steps.indexOf(step) + 1] ?? 'check'
  if (change && ['where', 'map', 'coordinates'].includes(step)) return stepPath(following, following !== 'check')
  // A change of how often, or of the times, may leave a later answer unanswered or no longer fitting: that page next.
  if (change && ['often', 'when', ...REGULAR_STEPS].includes(step)) {
    const missing = firstUnanswered(answers)
    return missing !== undefined ? stepPath(missing, true) : stepPath('check')
  }
  return change ? stepPath('check') : stepPath(following)
}

export function backPath (step: Step, answers: Answers, change: boolean, base = '/ask', leave = '/'): string {
  const stepPath = (to: Step, changing = false) => stepAt(to, changing, base)
  if (change && step !== 'map' && step !== 'coordinates') return stepPath('check')
  const steps = stepsFor(answers)
  const previous = steps[steps.indexOf(step) - 1]
  if (previous === undefined) return answers.forUser !== undefined ? `/people-i-help/${answers.forUser}` : leave
  return stepPath(previous, change && previous !== 'check')
}

type AnswersStore = StoredAnswers<Answers>
export const AnswersContext = createContext<AnswersStore>({ answers: {}, update: () => {}, clear: () => {} })

/** The answers of "Ask for help", under the signed-in person's id (components/stored-answers.ts). */
export function useAnswersStore (userId: number | string | undefined): AnswersStore {
  return useStoredAnswers<Answers>(`ask-answers:${userId ?? 'none'}`)
}

/** This page's answers, whether it was opened from the check page, and where Continue and Back lead. */
export function useStep (step: Step) {
  const { answers, update, clear } = useContext(AnswersContext)
  const { base, leave } = useAskingFor()
  const change = new URLSearchParams(useLocation().search).has('change')
  return { answers, update, clear, change, base, next: (after: Answers) => nextPath(step, after, change, base), back: backPath(step, answers, change, base, leave) }
}
