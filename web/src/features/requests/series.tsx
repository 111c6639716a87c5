import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { ComponentType } from 'react'
import { Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { api } from '../../api/client'
import { ApiError, unwrap } from '../../api/errors'
import type { paths } from '../../api/schema'
import { SERIES_LISTS } from '../../api/series'
import { ConfirmedAction } from '../../components/confirmed-action'
import { OfflineNotice } from '../../components/offline-notice'
import { Page } from '../../components/page'
import { serverProblem } from '../../i18n/server-errors'
import { SeriesList } from '../../components/series-list'
import { seriesSummary } from '../../lib/schedule'
import { ComingDates } from './series-dates'
import { useSeriesStanding } from './series-standing'
import { MY_REQUESTS } from '../../api/keys'
import '../../components/journeys.css'

export const MY_SERIES = SERIES_LISTS
export const seriesKey = (id: number) => ['get', '/api/v1/request-series/{id}', id] as const

/** The requester's regular help, for "Your requests": each with its summary in words and a link to its page. */
export function MySeries () {
  const { t } = useTranslation()
  return <SeriesList of={undefined} heading={t('regular.mine')} />
}

/** "Stop this regular help" asks first, as cancelling a request does; dates to come are cancelled by the API. */
function Stop ({ id, forName }: { id: number, forName?: string }) {
  const { t } = useTranslation()
  const client = useQueryClient()
  const done = forName !== undefined ? t('regular.for.stopped', { name: forName }) : t('regular.stopped')
  const words = { open: t('regular.stop'), title: t('regular.stopTitle'), text: t('regular.stopText'), confirm: t('regular.stopConfirm'), keep: t('regular.stopKeep'), done }
  return (
    <section aria-labelledby='stop-heading'>
      <h2 id='stop-heading'>{t('regular.stop')}</h2>
      <p>{t('regular.stopIntro')}</p>
      <ConfirmedAction
        words={words}
        run={() => unwrap(api.POST('/api/v1/request-series/{id}/end', { params: { path: { id } } }))}
        onDone={async (ended) => {
          client.setQueryData(seriesKey(id), ended)
          await Promise.all([MY_SERIES, MY_REQUESTS, ['get', '/api/v1/requests/coordinated']].map((queryKey) => client.invalidateQueries({ queryKey })))
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
  const { t } = useTranslation()
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
  return <OneSeries item={series.data} updatedAt={series.dataUpdatedAt} Decision={Decision} />
}

type Series = paths['/api/v1/request-series/{id}']['get']['responses'][200]['content']['application/json']

function OneSeries ({ item, updatedAt, Decision }: { item: Series, updatedAt: number, Decision?: DecisionOn }) {
  const { t, i18n } = useTranslation()
  const client = useQueryClient()
  const standing = useSeriesStanding(item)
  // No h1 until it is known for whom: the focus after navigation waits for the page's own.
  if (standing === undefined) return <p>{t('common.loading')}</p>
  const open = item.status === 'pending_moderation' || item.status === 'active'
  const caption = standing.forName !== undefined ? t('regular.for.caption', { name: standing.forName }) : t('regular.title')
  return (
    <Page title={item.template.title} before={<p className='caption'>{caption}</p>}>
      <OfflineNotice updatedAt={updatedAt} />
      <p className={`status status-${item.status}`}>{t('request.statusLine', { status: t(`regular.status.${item.status}`) })}</p>
      <p className='inset-text'>{seriesSummary(item, t, i18n.language)}</p>
      {item.status === 'pending_moderation' ? <p>{t('regular.pendingText')}</p> : null}
      <p className='pre-line'>{item.template.description}</p>
      {Decision !== undefined ? <Decision series={item} onDecided={(changed) => client.setQueryData(seriesKey(item.id), changed)} /> : null}
      {open && standing.change ? <p><Link href={`/series/${item.id}/change`}>{t('regular.change.open')}</Link></p> : null}
      {/* The dates are read from the requests of the series' side: a moderator has none of them to list. */}
      {standing.dates !== undefined ? <ComingDates seriesId={item.id} from={standing.dates} skip={standing.skip} /> : null}
      {open && standing.stop ? <Stop id={item.id} forName={standing.forName} /> : null}
      <p><Link href='/calendar'>{t('calendar.title')}</Link></p>
      <p><Link href={standing.back.href}>{standing.back.label}</Link></p>
    </Page>
  )
}
