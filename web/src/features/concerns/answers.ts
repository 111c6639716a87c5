import { useQuery } from '@tanstack/react-query'
import type { TFunction } from 'i18next'
import { createContext, useContext } from 'react'
import { useLocation } from 'react-router'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { responsesKey } from '../../api/keys'
import { useRequest } from '../../api/use-request'
import type { AnswersStore } from '../../components/stored-answers'

/** What the concern is about, from the address of the journey (`?request=&person=`). */
export interface Subject { requestId?: number, personId?: number }

/** The answers as typed; `sent` once the concern has gone, for the confirmation page. */
export interface ConcernAnswers { text?: string, urgent?: 'yes' | 'no', sent?: { urgent: boolean } }

export type ConcernStep = 'what' | 'urgent' | 'check' | 'sent'

const id = (value: string | null): number | undefined => {
  const number = Number(value)
  return value !== null && Number.isSafeInteger(number) && number > 0 ? number : undefined
}

export function subjectOf (search: string): Subject {
  const query = new URLSearchParams(search)
  return { requestId: id(query.get('request')), personId: id(query.get('person')) }
}

/** The journey's pages keep the subject in their address, so Back, Change and a reload keep it. */
export function concernPath (step: ConcernStep, subject: Subject, change = false): string {
  const parts = [
    ...(subject.requestId !== undefined ? [`request=${subject.requestId}`] : []),
    ...(subject.personId !== undefined ? [`person=${subject.personId}`] : []),
    ...(change ? ['change'] : []),
  ]
  return `/concerns/new/${step}${parts.length > 0 ? `?${parts.join('&')}` : ''}`
}

/** Where the journey began: the request's page, or the start page when it is about no request. */
export const startOf = (subject: Subject): string => subject.requestId !== undefined ? `/requests/${subject.requestId}` : '/'

/** The answers of one concern: per person and subject, so two concerns begun in one tab stay apart. */
export const answersKey = (userId: number | undefined, subject: Subject): string => `concern-answers:${userId ?? 'none'}:${subject.requestId ?? ''}:${subject.personId ?? ''}`

export const ConcernContext = createContext<AnswersStore<ConcernAnswers> & { subject: Subject }>({ answers: {}, update: () => {}, clear: () => {}, subject: {} })

export const validText = (text: string | undefined): boolean => {
  const length = (text ?? '').trim().length
  return length >= 10 && length <= 2000
}

/** The first question not answered yet (the check page sends the person there). */
export function firstUnanswered (answers: ConcernAnswers): ConcernStep | undefined {
  if (!validText(answers.text)) return 'what'
  if (answers.urgent === undefined) return 'urgent'
  return undefined
}

/** This page's answers, whether it was opened by "Change" on the check page, and where Continue and Back lead. */
export function useConcernStep (step: 'what' | 'urgent') {
  const store = useContext(ConcernContext)
  const change = new URLSearchParams(useLocation().search).has('change')
  const next = change || step === 'urgent' ? concernPath('check', store.subject) : concernPath('urgent', store.subject)
  const back = change ? concernPath('check', store.subject) : step === 'urgent' ? concernPath('what', store.subject) : startOf(store.subject)
  return { ...store, next, back }
}

/**
 * The subject in words: the request by its title and the person by the name this page may already know
 * (the requester, the assigned volunteer, or the volunteer of an offer). Nothing else is asked for: looking
 * up a profile would be recorded as a view of that person's contact details (docs/privacy.md › Access records).
 */
export function useSubjectWords (subject: Subject, t: TFunction): string | undefined {
  const request = useRequest(subject.requestId ?? 0)
  const item = request.data
  const known = item === undefined || subject.personId === undefined
    ? undefined
    : subject.personId === item.requester.id
      ? `${item.requester.first_name} ${item.requester.last_name}`
      : subject.personId === item.assigned_volunteer?.id ? `${item.assigned_volunteer.first_name} ${item.assigned_volunteer.last_name}` : undefined
  const offers = useQuery({
    queryKey: responsesKey(subject.requestId ?? 0),
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/requests/{id}/responses', { params: { path: { id: subject.requestId ?? 0 } }, signal })),
    enabled: item !== undefined && subject.personId !== undefined && known === undefined,
  })
  const name = known ?? offers.data?.find((offer) => offer.volunteer_id === subject.personId)?.volunteer_name
  if (subject.requestId !== undefined && item === undefined) return request.isError ? t('concerns.about.someRequest') : undefined
  if (item !== undefined && subject.personId !== undefined) return t('concerns.about.personOnRequest', { name: name ?? t('concerns.about.somePerson'), title: item.title })
  if (item !== undefined) return t('concerns.about.request', { title: item.title })
  return t('concerns.about.somePerson')
}
