import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query'
import type { ComponentType } from 'react'
import { Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { api } from '../../api/client'
import { ApiError, unwrap } from '../../api/errors'
import { requestKey } from '../../api/keys'
import { useSession } from '../../api/use-session'
import { ConfirmedAction } from '../../components/confirmed-action'
import { OfflineNotice } from '../../components/offline-notice'
import { Page } from '../../components/page'
import { serverProblem } from '../../i18n/server-errors'
import { sayWindow, seriesSummary } from '../../lib/schedule'
import { statusLabel } from './labels'
import { MY_REQUESTS } from '../../api/keys'
import '../../components/journeys.css'

export const MY_SERIES = ['get', '/api/v1/request-series/mine'] as const
const seriesKey = (id: number) => ['get', '/api/v1/request-series/{id}', id] as const

/** The requester's regular help, for "Your requests": each with its summary in words and a link to its page. */
export function MySeries () {
  const { t, i18n } = useTranslation()
  const series = useQuery({ queryKey: MY_SERIES, queryFn: ({ signal }) => unwrap(api.GET('/api/v1/request-series/mine', { signal })) })
  if (series.data === undefined || series.data.length === 0) return null
  return (
    <section aria-labelledby='my-series-heading'>
      <h2 id='my-series-heading'>{t('regular.mine')}</h2>
      <ul className='cards'>
        {series.data.map((item) => (
          <li key={item.id} className='card'>
            <h3><Link href={`/series/${item.id}`}>{item.template.title}</Link></h3>
            <p>{seriesSummary(item, t, i18n.language)}</p>
            <p>{t('request.statusLine', { status: t(`regular.status.${item.status}`) })}</p>
          </li>
        ))}
      </ul>
    </section>
  )
}

/**
 * The coming dates of one series: its occurrences among the requester's requests (the API lists no occurrences
 * of its own), soonest first, each with who is helping (from the request's detail, for those with a helper).
 */
function ComingDates ({ seriesId }: { seriesId: number }) {
  const { t, i18n } = useTranslation()
  const mine = useQuery({ queryKey: [...MY_REQUESTS, 'series'], queryFn: ({ signal }) => unwrap(api.GET('/api/v1/requests/my', { params: { query: { limit: '100' } }, signal })) })
  // "Coming" as of when the list was read (a render must not read the clock).
  const now = mine.dataUpdatedAt
  const dates = (mine.data ?? [])
    .filter((item) => item.series_id === seriesId && item.window_start !== null && item.window_end !== null && Date.parse(item.window_end) > now && item.status !== 'cancelled')
    .sort((a, b) => Date.parse(a.window_start ?? '') - Date.parse(b.window_start ?? ''))
  const helped = dates.filter((item) => item.status === 'in_progress')
  const details = useQueries({
    queries: helped.map((item) => ({
      queryKey: requestKey(item.id),
      queryFn: ({ signal }: { signal: AbortSignal }) => unwrap(api.GET('/api/v1/requests/{id}', { params: { path: { id: item.id } }, signal })),
    })),
  })
  const helperOf = (id: number): string => {
    const detail = details.find((query) => query.data?.id === id)?.data
    const volunteer = detail?.assigned_volunteer
    if (volunteer === null || volunteer === undefined) return t('common.loading')
    const name = `${volunteer.first_name} ${volunteer.last_name}`
    return detail?.confirmed_at !== null ? t('regular.helperConfirmed', { name }) : t('regular.helper', { name })
  }
  return (
    <section aria-labelledby='coming-heading'>
      <h2 id='coming-heading' tabIndex={-1}>{t('regular.coming')}</h2>
      {mine.isPending
        ? <p>{t('common.loading')}</p>
        : mine.isError
          ? <p className='error-text' role='alert'>{serverProblem(mine.error, t).message}</p>
          : dates.length === 0
            ? <p>{t('regular.comingNone')}</p>
            : (
              <ul className='cards'>
                {dates.map((item) => (
                  <li key={item.id} className='card'>
                    <h3><Link href={`/requests/${item.id}`}>{sayWindow(item.window_start ?? '', item.window_end, i18n.language)}</Link></h3>
                    <p>{item.title}</p>
                    <p>{item.status === 'in_progress' ? helperOf(item.id) : item.status === 'approved' ? t('regular.nobodyYet') : statusLabel(t, item.status)}</p>
                  </li>
                ))}
              </ul>
              )}
    </section>
  )
}

/** "Stop this regular help" asks first, as cancelling a request does; dates to come are cancelled by the API. */
function Stop ({ id }: { id: number }) {
  const { t } = useTranslation()
  const client = useQueryClient()
  const words = { open: t('regular.stop'), title: t('regular.stopTitle'), text: t('regular.stopText'), confirm: t('regular.stopConfirm'), keep: t('regular.stopKeep'), done: t('regular.stopped') }
  return (
    <section aria-labelledby='stop-heading'>
      <h2 id='stop-heading'>{t('regular.stop')}</h2>
      <p>{t('regular.stopIntro')}</p>
      <ConfirmedAction
        words={words}
        run={() => unwrap(api.POST('/api/v1/request-series/{id}/end', { params: { path: { id } } }))}
        onDone={async (ended) => {
          client.setQueryData(seriesKey(id), ended)
          await Promise.all([client.invalidateQueries({ queryKey: MY_SERIES }), client.invalidateQueries({ queryKey: MY_REQUESTS })])
        }}
      />
    </section>
  )
}

/** The moderators' decision on a pending series (features/moderation), handed in by app.tsx. */
export type DecisionOn = ComponentType<{ series: { id: number, requester_id: number, status: string, template: { title: string } }, onDecided: (changed: unknown) => void }>

/**
 * One series (docs/web/schedule.md): its status, its plan in words, and for its requester its coming dates and
 * stopping it; for moderators and admins while it waits, the decision on it (`Decision`).
 */
export function SeriesPage ({ Decision }: { Decision?: DecisionOn }) {
  const { t, i18n } = useTranslation()
  const client = useQueryClient()
  const { user } = useSession()
  const id = Number(useParams().id)
  const valid = Number.isSafeInteger(id) && id > 0
  const series = useQuery({
    queryKey: seriesKey(id),
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/request-series/{id}', { params: { path: { id } }, signal })),
    enabled: valid,
  })
  if (!valid || (series.error instanceof ApiError && series.error.status === 404)) {
    return <Page title={t('regular.notFound')}><p>{t('series.errors.notFound')}</p><p><Link href='/requests/mine'>{t('mine.title')}</Link></p></Page>
  }
  if (series.isPending) return <p>{t('common.loading')}</p>
  if (series.isError) return <Page title={t('regular.title')}><p className='error-text' role='alert'>{serverProblem(series.error, t).message}</p></Page>
  const item = series.data
  const mine = user?.id === item.requester_id
  return (
    <Page title={item.template.title} before={<p className='caption'>{t('regular.title')}</p>}>
      <OfflineNotice updatedAt={series.dataUpdatedAt} />
      <p className={`status status-${item.status}`}>{t('request.statusLine', { status: t(`regular.status.${item.status}`) })}</p>
      <p className='inset-text'>{seriesSummary(item, t, i18n.language)}</p>
      {item.status === 'pending_moderation' ? <p>{t('regular.pendingText')}</p> : null}
      <p className='pre-line'>{item.template.description}</p>
      {Decision !== undefined ? <Decision series={item} onDecided={(changed) => client.setQueryData(seriesKey(id), changed)} /> : null}
      {/* The dates are read from the requester's own requests: a moderator's list has none of them. */}
      {mine ? <ComingDates seriesId={id} /> : null}
      {item.status === 'pending_moderation' || item.status === 'active' ? <Stop id={id} /> : null}
      <p><Link href='/calendar'>{t('calendar.title')}</Link></p>
      <p><Link href='/requests/mine'>{t('mine.title')}</Link></p>
    </Page>
  )
}
