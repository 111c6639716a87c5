import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Button, Form } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { requestKey } from '../../api/keys'
import { useAnnounce } from '../../components/announcer'
import { ErrorSummary } from '../../components/error-summary'
import { TextInput } from '../../components/fields'
import { focusPageHeading } from '../../components/page'
import { useSuccess } from '../../components/success-banner'
import { useFormProblems } from '../../components/use-form-problems'
import { serverProblem } from '../../i18n/server-errors'
import { today } from '../../lib/format'
import type { paths } from '../../api/schema'
import { MY_REQUESTS } from '../../api/keys'

type Detail = paths['/api/v1/requests/{id}']['get']['responses'][200]['content']['application/json']
type NewRequest = paths['/api/v1/requests']['post']['requestBody']['content']['application/json']
const URGENCIES = ['low', 'medium', 'high', 'urgent'] as const

/** YYYY-MM-DD of a moment in this device's zone. */
const localDay = (date: Date): string => `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`

/** The same weekday as `start`, the first one after today: the suggested day to ask again for. */
function nextSameWeekday (start: Date): string {
  const day = new Date()
  day.setDate(day.getDate() + 1)
  while (day.getDay() !== start.getDay()) day.setDate(day.getDate() + 1)
  return localDay(day)
}

/** The request's own fields again (docs/api/schedule.md › Confirmation, reminders, expiry "ask again"): a windowed one on `day` at the same local times. */
function againOf (item: Detail, day: string | undefined): NewRequest {
  const optional = (name: 'city' | 'contact_phone' | 'contact_notes', value: string | null) => value === null || value === '' ? {} : { [name]: value }
  const urgency = URGENCIES.find((value) => value === item.urgency) ?? 'medium'
  const body: NewRequest = {
    request_type_id: item.request_type_id,
    title: item.title,
    description: item.description,
    address: item.address,
    latitude: item.location.latitude,
    longitude: item.location.longitude,
    urgency,
    ...optional('city', item.city),
    ...optional('contact_phone', item.contact_phone),
    ...optional('contact_notes', item.contact_notes),
  }
  if (day === undefined || item.window_start === null || item.window_end === null) return body
  const start = new Date(item.window_start)
  const moved = new Date(`${day}T${String(start.getHours()).padStart(2, '0')}:${String(start.getMinutes()).padStart(2, '0')}`)
  const end = new Date(moved.getTime() + Date.parse(item.window_end) - start.getTime())
  return { ...body, window_start: moved.toISOString(), window_end: end.toISOString() }
}

/**
 * A request cancelled because nobody could help in time (`cancel_reason` expired): "Ask again" sends the same
 * request once more. One without a window is sent at once (its old date has passed, so none is given); one with
 * a window asks first for the day, at the same times (docs/web/schedule.md).
 */
export function AskAgain ({ item }: { item: Detail }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const success = useSuccess()
  const client = useQueryClient()
  const windowed = item.window_start !== null
  const [day, setDay] = useState(() => windowed ? nextSameWeekday(new Date(item.window_start ?? '')) : '')
  const form = useFormProblems(['day', 'window_start'])
  const again = useMutation({
    mutationFn: (body: NewRequest) => unwrap(api.POST('/api/v1/requests', { body })),
    onSuccess: async (created) => {
      await client.invalidateQueries({ queryKey: MY_REQUESTS })
      success(t('schedule.askedAgain'), `/requests/${created.id}`)
      void navigate(`/requests/${created.id}`)
    },
    onError: form.fail,
  })
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (again.isPending) return
    if (windowed && (!/^\d{4}-\d{2}-\d{2}$/.test(day) || day < today())) return form.show([{ field: 'day', message: t('schedule.errors.day') }])
    form.clear()
    again.mutate(againOf(item, windowed ? day : undefined))
  }
  return (
    <section aria-labelledby='expired-heading'>
      <h2 id='expired-heading'>{t('schedule.expired')}</h2>
      <p>{t('schedule.expiredText')}</p>
      <ErrorSummary problems={form.problems} attempt={form.attempt} />
      <Form validationBehavior='aria' validationErrors={form.validationErrors} onSubmit={submit} className='stack'>
        {windowed ? <TextInput name='day' type='date' label={t('schedule.againDay')} hint={t('schedule.againDayHint')} value={day} onChange={setDay} /> : null}
        <Button type='submit' className='button'>{t('schedule.askAgain')}</Button>
      </Form>
    </section>
  )
}

/**
 * "Still needed?": an approved request with neither a window nor a date is asked after a while and closed when
 * nobody answers (docs/api/schedule.md › Confirmation, reminders, expiry); the requester can say so here at any time, which answers the question.
 */
export function StillNeeded ({ id }: { id: number }) {
  const { t } = useTranslation()
  const client = useQueryClient()
  const success = useSuccess()
  const announce = useAnnounce()
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const keep = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/requests/{id}/still-needed', { params: { path: { id } } })),
    onSuccess: (detail) => {
      setProblem(undefined)
      client.setQueryData(requestKey(id), detail)
      success(t('schedule.kept'))
      focusPageHeading()
    },
    onError: (error) => {
      const message = serverProblem(error, t).message
      setProblem(message)
      announce(message)
    },
  })
  return (
    <section aria-labelledby='still-heading'>
      <h2 id='still-heading'>{t('schedule.stillNeeded')}</h2>
      <p>{t('schedule.stillNeededText')}</p>
      {problem !== undefined ? <p className='error-text' role='alert'>{problem}</p> : null}
      <Button className='button secondary' onPress={() => { if (!keep.isPending) keep.mutate() }}>{t('schedule.yesStillNeeded')}</Button>
    </section>
  )
}
