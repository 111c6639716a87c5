import { createContext, useContext } from 'react'
import { useLocation } from 'react-router'
import { useStoredAnswers, type AnswersStore as StoredAnswers } from '../../../components/stored-answers'
// Shared with the profile's home location; the lead moves it to a shared place at merge.
import { parseCoordinate } from '../../../lib/coordinates'

/** How the person says where help is needed; each way but two leads to its own page. */
export const PLACES = ['home', 'here', 'map', 'search', 'coordinates'] as const
export type PlaceWay = typeof PLACES[number]

/**
 * The answers so far, as typed. A missing answer is a question not yet answered; an optional question
 * that was answered with nothing is ''. Strings throughout, so a half-typed answer survives Back.
 */
export interface Answers {
  kind?: string
  title?: string
  description?: string
  place?: PlaceWay
  latitude?: string
  longitude?: string
  address?: string
  city?: string
  when?: string
  urgency?: string
  phone?: string
  notes?: string
}

export type Step = 'kind' | 'title' | 'description' | 'where' | 'map' | 'coordinates' | 'address' | 'when' | 'urgency' | 'contact' | 'check'

/** The pages in order for these answers: the map or the coordinates only when chosen as the way. */
export function stepsFor (answers: Answers): Step[] {
  const placeStep: Step[] = answers.place === 'map' ? ['map'] : answers.place === 'coordinates' ? ['coordinates'] : []
  return ['kind', 'title', 'description', 'where', ...placeStep, 'address', 'when', 'urgency', 'contact', 'check']
}

/** A typed point, when both halves are coordinates in range. */
export function pointOf (answers: Answers): { lat: number, lon: number } | undefined {
  const lat = parseCoordinate(answers.latitude ?? '', 90)
  const lon = parseCoordinate(answers.longitude ?? '', 180)
  return lat !== undefined && lon !== undefined ? { lat, lon } : undefined
}

/** A typed date and time, or undefined when it is not one. */
export const parseWhen = (text: string): Date | undefined => {
  const date = new Date(text)
  return text.trim() !== '' && !Number.isNaN(date.getTime()) ? date : undefined
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
  when: (a) => a.when !== undefined && (a.when.trim() === '' || parseWhen(a.when) !== undefined),
  urgency: (a) => a.urgency !== undefined,
  contact: (a) => a.phone !== undefined,
}

export function firstUnanswered (answers: Answers): Step | undefined {
  return stepsFor(answers).find((step) => step !== 'check' && !ANSWERED[step](answers))
}

export const stepPath = (step: Step, change = false): string => `/ask/${step}${change ? '?change' : ''}`

/**
 * Where Continue and Back lead. Coming from "Change" on the check page, Continue returns there, except
 * that a new way of giving the place goes on through its own pages (the map, the address) first.
 */
export function nextPath (step: Step, answers: Answers, change: boolean): string {
  const steps = stepsFor(answers)
  const following = steps[steps.indexOf(step) + 1] ?? 'check'
  if (change && ['where', 'map', 'coordinates'].includes(step)) return stepPath(following, following !== 'check')
  return change ? stepPath('check') : stepPath(following)
}

export function backPath (step: Step, answers: Answers, change: boolean): string {
  if (change && step !== 'map' && step !== 'coordinates') return stepPath('check')
  const steps = stepsFor(answers)
  const previous = steps[steps.indexOf(step) - 1]
  if (previous === undefined) return '/'
  return stepPath(previous, change && previous !== 'check')
}

type AnswersStore = StoredAnswers<Answers>
export const AnswersContext = createContext<AnswersStore>({ answers: {}, update: () => {}, clear: () => {} })

/** The answers of "Ask for help", under the signed-in person's id (components/stored-answers.ts). */
export function useAnswersStore (userId: number | undefined): AnswersStore {
  return useStoredAnswers<Answers>(`ask-answers:${userId ?? 'none'}`)
}

/** This page's answers, whether it was opened from the check page, and where Continue and Back lead. */
export function useStep (step: Step) {
  const { answers, update, clear } = useContext(AnswersContext)
  const change = new URLSearchParams(useLocation().search).has('change')
  return { answers, update, clear, change, next: (after: Answers) => nextPath(step, after, change), back: backPath(step, answers, change) }
}
