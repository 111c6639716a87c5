import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Button, Checkbox, CheckboxGroup, FieldError, Form, Label, Link, Text } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useNavigate, useParams } from 'react-router'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { MY_REQUESTS } from '../../api/keys'
import type { paths } from '../../api/schema'
import { SERIES_LISTS } from '../../api/series'
import { ErrorSummary, fieldId } from '../../components/error-summary'
import { TextInput } from '../../components/fields'
import { Page } from '../../components/page'
import { useSuccess } from '../../components/success-banner'
import { useFormProblems } from '../../components/use-form-problems'
import type { Problem } from '../../i18n/server-errors'
import { clockOf, dayName, minutesOf, readClock, WEEK_DAYS, type WeekDay } from '../../lib/schedule'
import { backFits, durationOf } from './ask/answers'
import { seriesKey } from './series'
import { useSeriesStanding } from './series-standing'
import '../../components/journeys.css'

type Series = paths['/api/v1/request-series/{id}']['get']['responses'][200]['content']['application/json']
const FIELDS = ['days', 'start_time', 'end_time', 'return_time', 'ends_on'] as const
interface Plan { days: WeekDay[], start: string, end: string, back: string, until: string }

/** A last day, when given: after the first day and at most two years later (the API's check). */
const untilFits = (until: string, from: string): boolean =>
  until === '' || (/^\d{4}-\d{2}-\d{2}$/.test(until) && until > from && until <= `${Number(from.slice(0, 4)) + 2}${from.slice(4)}`)

function problemsOf (plan: Plan, from: string, t: (key: string, options?: Record<string, string>) => string): Problem[] {
  const problems: Problem[] = []
  if (plan.days.length === 0) problems.push({ field: 'days', message: t('regular.errors.days') })
  if (readClock(plan.start) === undefined) problems.push({ field: 'start_time', message: t('regular.errors.start') })
  else if (readClock(plan.end) === undefined) problems.push({ field: 'end_time', message: t('regular.errors.end') })
  else if (durationOf(plan) === undefined) problems.push({ field: 'end_time', message: t('regular.errors.duration') })
  const back = readClock(plan.back)
  if (plan.back.trim() !== '' && durationOf(plan) !== undefined && (back === undefined || !backFits({ ...plan, back }))) {
    problems.push({ field: 'return_time', message: t('regular.errors.back', { end: readClock(plan.end) ?? plan.end }) })
  }
  if (!untilFits(plan.until.trim(), from)) problems.push({ field: 'ends_on', message: t('regular.errors.until') })
  return problems
}

/**
 * "Change the days and times" of a series (PATCH /request-series/{id}), one short form filled in from the series, for its
 * requester, a coordinator of its client and a carer with `create` (docs/api/on-behalf.md › Series for someone). Its
 * text is not changed here: that would send it back to moderation, and asking again is clearer.
 */
export function SeriesChangePage () {
  const { t } = useTranslation()
  const id = Number(useParams().id)
  const series = useQuery({
    queryKey: seriesKey(id),
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/request-series/{id}', { params: { path: { id } }, signal })),
    enabled: Number.isSafeInteger(id) && id > 0,
  })
  if (series.isError) return <Page title={t('regular.notFound')}><p><Link href='/requests/mine'>{t('mine.title')}</Link></p></Page>
  if (series.data === undefined) return <p>{t('common.loading')}</p>
  return <ChangeForm series={series.data} />
}

function ChangeForm ({ series }: { series: Series }) {
  const { t, i18n } = useTranslation()
  const navigate = useNavigate()
  const success = useSuccess()
  const queries = useQueryClient()
  const standing = useSeriesStanding(series)
  const form = useFormProblems(FIELDS)
  const [plan, setPlan] = useState<Plan>(() => ({
    days: series.days,
    start: series.start_time.slice(0, 5),
    end: clockOf(minutesOf(series.start_time) + series.duration_minutes),
    back: series.return_time?.slice(0, 5) ?? '',
    until: series.ends_on ?? '',
  }))
  const page = `/series/${series.id}`
  const change = useMutation({
    mutationFn: () => {
      const start = readClock(plan.start) ?? plan.start
      const back = readClock(plan.back)
      const body = { days: plan.days, start_time: start, duration_minutes: durationOf(plan) ?? series.duration_minutes, return_time: back ?? null, ends_on: plan.until.trim() === '' ? null : plan.until.trim() }
      return unwrap(api.PATCH('/api/v1/request-series/{id}', { params: { path: { id: series.id } }, body }))
    },
    onSuccess: async (changed) => {
      queries.setQueryData(seriesKey(series.id), changed)
      await Promise.all([SERIES_LISTS, MY_REQUESTS, ['get', '/api/v1/requests/coordinated']].map((queryKey) => queries.invalidateQueries({ queryKey })))
      success(t('regular.change.done'), page)
      void navigate(page)
    },
    onError: form.fail,
  })
  if (standing === undefined) return <p>{t('common.loading')}</p>
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const problems = problemsOf(plan, series.starts_on, t)
    if (problems.length > 0) return form.show(problems)
    form.clear()
    if (!change.isPending) change.mutate()
  }
  const set = (patch: Partial<Plan>) => setPlan((previous) => ({ ...previous, ...patch }))
  const caption = standing.forName !== undefined ? t('regular.for.caption', { name: standing.forName }) : t('regular.title')
  return (
    <Page title={t('regular.change.title')} hasErrors={form.problems.length > 0} before={<><ErrorSummary problems={form.problems} attempt={form.attempt} /><p className='caption'>{caption}: {series.template.title}</p></>}>
      <p>{t('regular.change.intro')}</p>
      <Form validationBehavior='aria' validationErrors={form.validationErrors} onSubmit={submit} className='stack'>
        <CheckboxGroup className='field choice' name='days' value={plan.days} onChange={(value) => set({ days: value as WeekDay[] })}>
          <Label className='label'>{t('regular.change.days')}</Label>
          <Text slot='description' className='hint'>{t('regular.daysHint')}</Text>
          <FieldError className='field-error' />
          {WEEK_DAYS.map((day, index) => (
            <Checkbox key={day} value={day} className='radio' id={index === 0 ? fieldId('days') : undefined}>
              <span className='checkbox-mark' aria-hidden='true' />
              <span>{dayName(day, i18n.language)}</span>
            </Checkbox>
          ))}
        </CheckboxGroup>
        <fieldset className='fieldset'>
          <legend>{t('regular.change.times')}</legend>
          <div className='stack'>
            <TextInput name='start_time' label={t('regular.start')} hint={t('regular.clockHint')} maxLength={5} value={plan.start} onChange={(value) => set({ start: value })} />
            <TextInput name='end_time' label={t('regular.end')} hint={t('regular.clockHint')} maxLength={5} value={plan.end} onChange={(value) => set({ end: value })} />
          </div>
        </fieldset>
        <TextInput name='return_time' label={t('regular.backTime')} hint={t('regular.change.backHint')} optional maxLength={5} value={plan.back} onChange={(value) => set({ back: value })} />
        <TextInput name='ends_on' type='date' label={t('regular.until')} hint={t('regular.change.untilHint')} optional value={plan.until} onChange={(value) => set({ until: value })} />
        <div className='actions'>
          <Button type='submit' className='button'>{t('regular.change.save')}</Button>
          <Link href={page}>{t('regular.change.cancel')}</Link>
        </div>
      </Form>
    </Page>
  )
}
