import { useMutation } from '@tanstack/react-query'
import { useEffect, type ReactNode } from 'react'
import { Button, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { Navigate, useNavigate } from 'react-router'
import { useAccountSettings } from '../../../api/account-settings'
import { api } from '../../../api/client'
import { unwrap } from '../../../api/errors'
import { useRequestTypes } from '../../../api/use-request-types'
import type { paths } from '../../../api/schema'
import { ErrorSummary } from '../../../components/error-summary'
import { useSuccess } from '../../../components/success-banner'
import { useFormProblems } from '../../../components/use-form-problems'
// The one date format of the app.
import { formatDate } from '../../../lib/format'
import { readPhone } from '../../../lib/phone'
import { deviceZone, minutesOf, readDate, sayWindow, seriesParts, seriesSummary, type Pattern, type WeekDay } from '../../../lib/schedule'
import { kindLabel } from '../labels'
import { blankDate, durationOf, firstUnanswered, pointOf, stepPath, URGENCIES, useAskingFor, useStep, type Answers, type Step } from './answers'
import { useAskWords, useJourneyName } from './step'
import { timeOf } from './timing'
import '../../../components/journeys.css'

type NewRequest = paths['/api/v1/requests']['post']['requestBody']['content']['application/json']
type NewSeries = paths['/api/v1/request-series']['post']['requestBody']['content']['application/json']

/** The days, times and dates of regular help from complete answers, as the API takes them (docs/api/schedule.md › Series). */
export function patternOf (answers: Answers): Omit<Pattern, 'days'> & { days: WeekDay[], return_time: string | null, ends_on: string | null } {
  const start = answers.start ?? '00:00'
  return {
    days: [...(answers.days ?? [])],
    start_time: start,
    duration_minutes: durationOf(answers) ?? minutesOf(answers.end ?? start) - minutesOf(start),
    return_time: answers.returnTrip === 'yes' && answers.back !== undefined && answers.back !== '' ? answers.back : null,
    starts_on: readDate(answers.from ?? '') ?? '',
    ends_on: blankDate(answers.until) ? null : readDate(answers.until ?? '') ?? null,
  }
}

/**
 * POST /request-series: the request's fields as the template (no date: the series gives each its window), in this device's
 * zone; for a client or a carer's person with `on_behalf_of` as a request (docs/api/on-behalf.md › Series for someone).
 */
function seriesOf (answers: Answers, point: { lat: number, lon: number }, clientId?: number): NewSeries {
  const { desired_completion_date: _none, window_start: _start, window_end: _end, ...template } = requestOf(answers, point, clientId)
  return { template, ...patternOf(answers), time_zone: deviceZone() }
}

/** When help once is needed, as POST /requests takes it: a window for a set time, a date for a day, nothing for any time. */
function whenOf (answers: Answers): Pick<NewRequest, 'window_start' | 'window_end' | 'desired_completion_date'> {
  const time = timeOf(answers)
  if (time instanceof Date) return { desired_completion_date: time.toISOString() }
  return time !== undefined ? { window_start: time.start.toISOString(), window_end: time.end.toISOString() } : {}
}

/** The body of POST /requests from complete answers: optional texts left out when empty. */
function requestOf (answers: Answers, point: { lat: number, lon: number }, clientId?: number): NewRequest {
  // docs/api/on-behalf.md: for a coordinator's client, or for the person who made the signed-in carer their carer.
  const forSomeone = clientId !== undefined ? { on_behalf_of: { client_id: clientId } } : answers.forUser !== undefined ? { on_behalf_of: { user_id: answers.forUser } } : {}
  const optional = (name: 'city' | 'contact_phone' | 'contact_notes', value: string | undefined) => value === undefined || value.trim() === '' ? {} : { [name]: value.trim() }
  return {
    request_type_id: Number(answers.kind),
    title: (answers.title ?? '').trim(),
    description: (answers.description ?? '').trim(),
    urgency: answers.urgency as typeof URGENCIES[number],
    address: (answers.address ?? '').trim(),
    latitude: point.lat,
    longitude: point.lon,
    ...optional('city', answers.city),
    ...optional('contact_phone', answers.phone),
    ...optional('contact_notes', answers.notes),
    ...whenOf(answers),
    ...forSomeone,
  }
}

/** The answer to "When do you need it?" in words: the window, "By …", or that any time will do. */
function WhenSaid ({ answers }: { answers: Answers }) {
  const { t, i18n } = useTranslation()
  const time = timeOf(answers)
  if (time instanceof Date) return <>{t('ask.check.by', { when: formatDate(time.toISOString(), i18n.language) })}</>
  return <>{time !== undefined ? sayWindow(time.start.toISOString(), time.end.toISOString(), i18n.language) : t('ask.timing.any')}</>
}

/** A part of the plan's sentence standing alone ("from 1 December" → "From 1 December"). */
const upperFirst = (text: string): string => text.charAt(0).toLocaleUpperCase() + text.slice(1)

/** One row of the summary list; "Change" names its row for screen readers (GOV.UK's hidden text). */
function Row ({ label, step, children }: { label: string, step: Step, children: ReactNode }) {
  const { t } = useTranslation()
  const { base } = useAskingFor()
  return (
    <div className='summary-row'>
      <dt>{label}</dt>
      <dd>{children}</dd>
      <dd className='summary-change'>
        <Link href={stepPath(step, true, base)}>{t('ask.check.change')}<span className='visually-hidden'> {label}</span></Link>
      </dd>
    </div>
  )
}

/** "Check your answers before sending your request": every answer, each with its Change link, then Send. */
export function CheckStep () {
  const { t, i18n } = useTranslation()
  const navigate = useNavigate()
  const success = useSuccess()
  const { answers, clear, base } = useStep('check')
  const { client } = useAskingFor()
  const journey = useJourneyName()
  const words = useAskWords()
  // Problems from the service are shown unlinked: their fields are on other pages, reached by Change.
  const form = useFormProblems([])
  const types = useRequestTypes()
  const regular = answers.often === 'regular'
  // The phone as typed ("0151 12345678") goes in E.164 (docs/web.md › Phone numbers); the contact step refused one that is none.
  const country = useAccountSettings().data?.phone_country
  const sent: Answers = { ...answers, phone: answers.phone !== undefined && answers.phone !== '' ? readPhone(answers.phone, country) ?? answers.phone : answers.phone }
  const create = useMutation({
    mutationFn: async (point: { lat: number, lon: number }) => regular
      ? { series: true, ...await unwrap(api.POST('/api/v1/request-series', { body: seriesOf(sent, point, client?.id) })) }
      : { series: false, ...await unwrap(api.POST('/api/v1/requests', { body: requestOf(sent, point, client?.id) })) },
    onSuccess: (created) => {
      // A request asked for someone: back to that person's page, where the carer follows their requests.
      if (answers.forUser !== undefined && !created.series) {
        const page = `/people-i-help/${answers.forUser}`
        success(t('carers.person.sent', { name: answers.forName ?? '' }), page)
        clear()
        void navigate(page)
        return
      }
      const page = created.series ? `/series/${created.id}` : `/requests/${created.id}`
      const forName = client?.first_name ?? answers.forName
      // "Sent, a moderator checks it" holds while the request waits: its page drops the banner once it is open (useSuccessHolds).
      const holds = created.series ? undefined : { key: `request:${created.id}`, value: created.status }
      success(created.series
        ? forName !== undefined ? t('regular.for.sent', { name: forName }) : t('regular.sent')
        : client !== undefined ? t('coordinator.ask.sent', { name: client.first_name }) : t('ask.sent'), page, holds)
      // Forgotten first: the request's page is what Back leads to, and a new request starts afresh.
      clear()
      void navigate(page)
    },
    onError: form.fail,
  })
  const hasErrors = form.problems.length > 0
  const heading = words('checkHeading')
  useEffect(() => {
    document.title = `${hasErrors ? `${t('errors.titlePrefix')} ` : ''}${heading} – ${journey} – ${t('app.name')}`
  }, [heading, hasErrors, journey, t])

  const missing = firstUnanswered(answers)
  const point = pointOf(answers)
  // Unanswered questions (a new request, or one already sent) start at the first of them.
  if ((missing !== undefined || point === undefined) && !create.isSuccess) return <Navigate to={stepPath(missing ?? 'where', false, base)} replace />
  if (point === undefined) return null
  const type = types.data?.find((item) => String(item.id) === answers.kind)
  const locale = i18n.language === 'de' ? 'de-DE' : 'en-GB'
  const number = (value: number) => new Intl.NumberFormat(locale, { maximumFractionDigits: 6 }).format(value)
  const none = t('ask.check.none')
  const parts = regular ? seriesParts(patternOf(answers), t, i18n.language) : undefined
  return (
    <div className='ask-step'>
      <Link href={stepPath('contact', false, base)} className='back-link'><span>{t('ask.back')}</span></Link>
      <ErrorSummary problems={form.problems} attempt={form.attempt} />
      <p className='caption'>{journey}</p>
      <h1 tabIndex={-1}>{heading}</h1>
      {/* The whole plan in one sentence first (docs/web/schedule.md), then each answer with its Change link. */}
      {parts !== undefined ? <p className='inset-text'>{t('regular.check.summary', { summary: seriesSummary(patternOf(answers), t, i18n.language) })}</p> : null}
      {answers.forName !== undefined ? <p className='inset-text'>{t('carers.person.checkFor', { name: answers.forName })}</p> : null}
      <dl className='summary-list'>
        {/* For whom: not changed here (another client is asked for from the coordinator's pages). */}
        {client !== undefined
          ? <div className='summary-row'><dt>{t('coordinator.ask.for')}</dt><dd>{`${client.first_name} ${client.last_name}`}</dd><dd className='summary-change' /></div>
          : null}
        <Row label={t('request.kind')} step='kind'>{type !== undefined ? kindLabel(t, type.id, type.name) : answers.kind}</Row>
        <Row label={t('ask.titleField')} step='title'>{answers.title}</Row>
        <Row label={words('checkDescription')} step='description'><span className='pre-line'>{answers.description}</span></Row>
        <Row label={t('ask.check.place')} step='where'>
          {answers.place === 'home' && client !== undefined ? t('coordinator.ask.home', { name: client.first_name }) : t(`ask.check.ways.${answers.place ?? 'coordinates'}`)}
          <br />
          {t('ask.check.point', { latitude: number(point.lat), longitude: number(point.lon) })}
        </Row>
        <Row label={t('profile.address')} step='address'>
          {answers.address}
          {answers.city !== undefined && answers.city !== '' ? <><br />{answers.city}</> : null}
        </Row>
        <Row label={t('regular.check.often')} step='often'>{t(regular ? 'regular.regular' : 'regular.once')}</Row>
        {parts !== undefined
          ? (
            <>
              <Row label={t('regular.check.days')} step='days'>{parts.days}</Row>
              <Row label={t('regular.check.time')} step='times'>{parts.times}</Row>
              <Row label={t('regular.check.return')} step='return'>{parts.back !== undefined ? t('regular.check.backAt', { time: parts.back }) : t('regular.check.noReturn')}</Row>
              <Row label={t('regular.check.dates')} step='dates'>{upperFirst(parts.dates)}{patternOf(answers).ends_on === null ? <><br />{t('regular.check.noEnd')}</> : null}</Row>
            </>
            )
          : <Row label={t('ask.check.when')} step='when'><WhenSaid answers={answers} /></Row>}
        <Row label={t('request.urgency')} step='urgency'>{t(`urgency.${answers.urgency ?? 'medium'}`)}</Row>
        <Row label={t('ask.phone')} step='contact'>{answers.phone !== undefined && answers.phone !== '' ? answers.phone : none}</Row>
        <Row label={t('ask.notes')} step='contact'><span className='pre-line'>{answers.notes !== undefined && answers.notes !== '' ? answers.notes : none}</span></Row>
      </dl>
      <h2>{t(regular ? 'regular.check.sendHeading' : 'ask.check.sendHeading')}</h2>
      <p>{regular ? t('regular.check.sendText') : client !== undefined ? t('coordinator.ask.sendText', { name: client.first_name }) : t('ask.check.sendText')}</p>
      <Button className='button' onPress={() => { if (!create.isPending) create.mutate(point) }}>{t(regular ? 'regular.send' : 'ask.send')}</Button>
    </div>
  )
}
