import { useQuery } from '@tanstack/react-query'
import { Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { behalfApi, shortName } from '../../api/clients'
import { unwrap } from '../../api/errors'
import { requestKey } from '../../api/keys'
import { Page } from '../../components/page'
import { serverProblem } from '../../i18n/server-errors'
import { formatWhen } from '../../lib/format'
import { requestStatus } from '../../i18n/labels'
import { whatToTell } from './tell'
import { CoordinatorPages } from './workspace'
import '../../components/journeys.css'
import './coordinator.css'

export const COORDINATED_KEY = ['get', '/api/v1/requests/coordinated'] as const

/** An item of GET /requests/coordinated: a request's list item; the client and volunteer where the list carries them. */
interface Coordinated {
  id: number
  title: string
  status: string
  cancel_reason?: string | null
  window_start: string | null
  desired_completion_date?: string | null
  client_id?: number | null
  client?: { id: number, first_name: string, last_name: string } | null
  assigned_volunteer?: { first_name: string, last_name: string } | null
}

/**
 * One client's request: for whom, when it is needed, its status, and what to tell the client. What the list does
 * not carry (the client's name, the volunteer, the wanted-by date) comes from the request itself, through the cache
 * the request's page shares.
 */
function CoordinatedCard ({ item }: { item: Coordinated }) {
  const { t, i18n } = useTranslation()
  const complete = item.client !== undefined && item.assigned_volunteer !== undefined && item.desired_completion_date !== undefined
  const detail = useQuery({
    queryKey: requestKey(item.id),
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/requests/{id}', { params: { path: { id: item.id } }, signal })),
    enabled: !complete,
    staleTime: 60_000,
  })
  const known = detail.data as (typeof detail.data & { client?: Coordinated['client'] }) | undefined
  const client = item.client ?? known?.client ?? null
  const volunteer = item.assigned_volunteer ?? known?.assigned_volunteer ?? null
  const wanted = item.desired_completion_date ?? known?.desired_completion_date ?? null
  const when = item.window_start ?? wanted
  const name = client !== null ? shortName(client) : t('coordinator.requests.erased')
  if (!complete && detail.isPending) return <li className='card'><h2>{item.title}</h2><p>{t('common.loading')}</p></li>
  return (
    <li className='card'>
      <h2><Link href={`/requests/${item.id}`}>{item.title}</Link></h2>
      <dl className='facts'>
        <div><dt>{t('coordinator.requests.for')}</dt><dd>{name}</dd></div>
        <div><dt>{t('coordinator.requests.needed')}</dt><dd>{when !== null ? formatWhen(when, i18n.language) : t('coordinator.requests.noDate')}</dd></div>
        <div><dt>{t('coordinator.requests.status')}</dt><dd>{requestStatus(t, item.status)}</dd></div>
      </dl>
      <p className='tell'>
        {whatToTell(t, i18n.language, client?.first_name ?? name, { ...item, desired_completion_date: wanted, volunteer })}
      </p>
    </li>
  )
}

/** Every client's request, soonest needed first (GET /requests/coordinated), each with what to tell the client. */
export function CoordinatedRequestsPage () {
  const { t } = useTranslation()
  const list = useQuery({
    queryKey: COORDINATED_KEY,
    queryFn: ({ signal }) => unwrap(behalfApi.GET('/api/v1/requests/coordinated', { params: { query: { limit: '100' } }, signal })) as Promise<Coordinated[]>,
  })
  return (
    <Page title={t('coordinator.requests.title')}>
      <CoordinatorPages />
      <p>{t('coordinator.requests.intro')}</p>
      {list.isPending
        ? <p>{t('common.loading')}</p>
        : list.isError
          ? <p className='error-text' role='alert'>{serverProblem(list.error, t).message}</p>
          : list.data.length === 0
            ? <p>{t('coordinator.requests.none')}</p>
            : <ul className='cards'>{list.data.map((item) => <CoordinatedCard key={item.id} item={item} />)}</ul>}
    </Page>
  )
}
