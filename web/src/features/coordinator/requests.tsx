import { useQuery } from '@tanstack/react-query'
import { Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import type { paths } from '../../api/schema'
import { Page } from '../../components/page'
import { serverProblem } from '../../i18n/server-errors'
import { formatDate, formatWhen } from '../../lib/format'
import { requestStatus } from '../../i18n/labels'
import { whatToTell } from './tell'
import { CoordinatorPages } from './workspace'
import '../../components/journeys.css'
import './coordinator.css'

export const COORDINATED_KEY = ['get', '/api/v1/requests/coordinated'] as const

/** An item of GET /requests/coordinated: a request's list item with its client's id and short name ("Erna S."; null once erased). */
type Coordinated = paths['/api/v1/requests/coordinated']['get']['responses'][200]['content']['application/json'][number]

/** One client's request: for whom, when it is needed, its status, and what to tell the client, all from the list's item. */
function CoordinatedCard ({ item }: { item: Coordinated }) {
  const { t, i18n } = useTranslation()
  const name = item.client_name ?? t('coordinator.requests.erased')
  // "Erna S." → "Erna": the client is told by first name.
  const first = item.client_name?.replace(/\s+\S+$/, '') ?? name
  const when = item.window_start ?? item.desired_completion_date ?? null
  const volunteer = item.volunteer_first_name === null ? null : { first_name: item.volunteer_first_name }
  return (
    <li className='card'>
      <h2><Link href={`/requests/${item.id}`}>{item.title}</Link></h2>
      <dl className='facts'>
        <div><dt>{t('coordinator.requests.for')}</dt><dd>{item.client_id !== null && item.client_name !== null ? <Link href={`/clients/${item.client_id}`}>{name}</Link> : name}</dd></div>
        <div><dt>{t('coordinator.requests.needed')}</dt><dd>{when !== null ? formatWhen(when, i18n.language) : t('coordinator.requests.noDate')}</dd></div>
        <div><dt>{t('coordinator.requests.status')}</dt><dd>{requestStatus(t, item.status)}</dd></div>
        {item.client_texts.length > 0
          ? (
            <div>
              <dt>{t('coordinator.requests.texts')}</dt>
              <dd>
                <ul>
                  {item.client_texts.map((text, index) => (
                    <li key={`${text.at}-${index}`}>
                      {t(`coordinator.requests.textTypes.${text.type}`, { defaultValue: text.type })}: {t(`coordinator.requests.textStatus.${text.status}`, { defaultValue: text.status })}, <time dateTime={text.at}>{formatDate(text.at, i18n.language)}</time>
                    </li>
                  ))}
                </ul>
              </dd>
            </div>
            )
          : null}
      </dl>
      <p className='tell'>
        {whatToTell(t, i18n.language, first, { status: item.status, cancel_reason: item.cancel_reason, window_start: item.window_start, desired_completion_date: item.desired_completion_date, volunteer })}
      </p>
    </li>
  )
}

/** Every client's request, soonest needed first (GET /requests/coordinated), each with what to tell the client. */
export function CoordinatedRequestsPage () {
  const { t } = useTranslation()
  const list = useQuery({
    queryKey: COORDINATED_KEY,
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/requests/coordinated', { params: { query: { limit: '100' } }, signal })),
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
