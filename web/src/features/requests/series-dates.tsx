import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { MY_REQUESTS, requestKey } from '../../api/keys'
import { ConfirmedAction } from '../../components/confirmed-action'
import { serverProblem } from '../../i18n/server-errors'
import { sayWindow } from '../../lib/schedule'
import { statusLabel } from './labels'
import type { SeriesStanding } from './series-standing'

const COORDINATED = ['get', '/api/v1/requests/coordinated'] as const

interface Dated { id: number, title: string, status: string, series_id: number | null, window_start: string | null, window_end: string | null }

/**
 * The requests a series' dates are among (the API lists no occurrences of a series): the requester's own, a carer's
 * person's (GET /requests/my?for_user_id), or, for a client's series, the coordinators' list of approved and taken
 * client requests (soonest first, so the coming ones are the first hundred of each).
 */
function useDatedRequests (from: NonNullable<SeriesStanding['dates']>) {
  const forClient = 'clientId' in from
  const clientLists = useQueries({
    queries: (['approved', 'in_progress'] as const).map((status) => ({
      queryKey: [...COORDINATED, { status, limit: '100' }],
      queryFn: ({ signal }: { signal: AbortSignal }) => unwrap(api.GET('/api/v1/requests/coordinated', { params: { query: { status, limit: '100' } }, signal })),
      enabled: forClient,
    })),
  })
  const own = useQuery({
    queryKey: 'forUserId' in from ? [...MY_REQUESTS, { for_user_id: from.forUserId }] : [...MY_REQUESTS, 'series'],
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/requests/my', { params: { query: { limit: '100', ...('forUserId' in from ? { for_user_id: String(from.forUserId) } : {}) } }, signal })),
    enabled: !forClient,
  })
  if (!forClient) return { data: own.data as Dated[] | undefined, error: own.error, updatedAt: own.dataUpdatedAt }
  const failed = clientLists.find((list) => list.isError)
  const done = clientLists.every((list) => list.data !== undefined)
  return {
    data: done ? clientLists.flatMap((list) => list.data ?? []) as Dated[] : undefined,
    error: failed?.error ?? null,
    updatedAt: Math.min(...clientLists.map((list) => list.dataUpdatedAt)),
  }
}

/** "Skip Tuesday 16 March, 07:30–09:30": one date cancelled as the request it is; the series goes on. */
function Skip ({ item, when }: { item: Dated, when: string }) {
  const { t } = useTranslation()
  const client = useQueryClient()
  const words = {
    open: t('regular.skip.open', { date: when }),
    title: t('regular.skip.title', { date: when }),
    text: t('regular.skip.text'),
    confirm: t('regular.skip.confirm'),
    keep: t('regular.skip.keep'),
    done: t('regular.skip.done', { date: when }),
  }
  return (
    <ConfirmedAction
      words={words}
      run={() => unwrap(api.POST('/api/v1/requests/{id}/cancel', { params: { path: { id: item.id } } }))}
      onDone={() => Promise.all([MY_REQUESTS, COORDINATED, requestKey(item.id)].map((queryKey) => client.invalidateQueries({ queryKey })))}
    />
  )
}

/**
 * The coming dates of one series, soonest first, each with who is helping (from the request's detail, for those with a
 * helper) and, for those who may, "Skip" for that date.
 */
export function ComingDates ({ seriesId, from, skip }: { seriesId: number, from: NonNullable<SeriesStanding['dates']>, skip: boolean }) {
  const { t, i18n } = useTranslation()
  const list = useDatedRequests(from)
  // "Coming" as of when the list was read (a render must not read the clock).
  const now = list.updatedAt
  const dates = (list.data ?? [])
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
      {list.error !== null
        ? <p className='error-text' role='alert'>{serverProblem(list.error, t).message}</p>
        : list.data === undefined
          ? <p>{t('common.loading')}</p>
          : dates.length === 0
            ? <p>{t('regular.comingNone')}</p>
            : (
              <ul className='cards'>
                {dates.map((item) => {
                  const when = sayWindow(item.window_start ?? '', item.window_end, i18n.language)
                  return (
                    <li key={item.id} className='card'>
                      <h3><Link href={`/requests/${item.id}`}>{when}</Link></h3>
                      <p>{item.title}</p>
                      <p>{item.status === 'in_progress' ? helperOf(item.id) : item.status === 'approved' ? t('regular.nobodyYet') : statusLabel(t, item.status)}</p>
                      {skip && (item.status === 'approved' || item.status === 'in_progress') ? <Skip item={item} when={when} /> : null}
                    </li>
                  )
                })}
              </ul>
              )}
    </section>
  )
}
