import type { ReactNode } from 'react'
import { Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { useClient, type Client } from '../../api/clients'
import { ApiError } from '../../api/errors'
import { Page } from '../../components/page'
import { PhoneLink } from '../../components/phone'
import { SeriesList } from '../../components/series-list'
import { serverProblem } from '../../i18n/server-errors'
import { formatDate } from '../../lib/format'
import { TextsSummary } from './client-texts'
import { EraseClient } from './erase-client'
import { CoordinatorPages } from './workspace'
import '../../components/journeys.css'

/**
 * The client of the address (/clients/:id…), loaded, for `children`; "not found" (also once erased) with the way
 * back to the search, or the failure in words under `title`.
 */
export function WithClient ({ title, children }: { title: string, children: (client: Client) => ReactNode }) {
  const { t } = useTranslation()
  const id = Number(useParams().id)
  const client = useClient(id)
  if (!Number.isSafeInteger(id) || id <= 0 || (client.error instanceof ApiError && client.error.status === 404)) {
    return <Page title={t('coordinator.client.notFound')}><p><Link href='/clients'>{t('coordinator.client.back')}</Link></p></Page>
  }
  // No h1 while loading: focus after navigation waits for the page's own h1.
  if (client.isPending) return <p>{t('common.loading')}</p>
  if (client.isError) return <Page title={title}><p className='error-text' role='alert'>{serverProblem(client.error, t).message}</p></Page>
  return children(client.data)
}

/**
 * One client: what a coordinator needs on the phone, the consent on record, "Ask for help for Erna", "Set up regular
 * help for Erna" and her regular help, "Change details", their texts and erasing the record.
 */
export function ClientPage () {
  const { t } = useTranslation()
  return <WithClient title={t('coordinator.find.title')}>{(item) => <ClientRecord item={item} />}</WithClient>
}

function ClientRecord ({ item }: { item: Client }) {
  const { t, i18n } = useTranslation()
  const none = t('coordinator.client.none')
  return (
    <Page title={`${item.first_name} ${item.last_name}`}>
      <CoordinatorPages />
      <dl className='facts'>
        <div><dt>{t('coordinator.client.phone')}</dt><dd>{item.phone !== null ? <PhoneLink phone={item.phone} /> : none}</dd></div>
        <div><dt>{t('coordinator.client.address')}</dt><dd>{[item.address, item.city].filter(Boolean).join(', ') || none}</dd></div>
        <div><dt>{t('coordinator.client.needs')}</dt><dd className='pre-line'>{item.needs ?? none}</dd></div>
        <div>
          <dt>{t('coordinator.client.consent')}</dt>
          <dd>{t('coordinator.client.consentGiven', { how: t(`coordinator.consent.${item.consent.how}`), when: formatDate(item.consent.recorded_at, i18n.language) })}</dd>
        </div>
      </dl>
      <p><Link href={`/clients/${item.id}/change`}>{t('coordinator.change.open')}</Link></p>
      <div className='actions'>
        <Link href={`/clients/${item.id}/ask`} className='button'>{t('coordinator.client.ask', { name: item.first_name })}</Link>
        <Link href={`/clients/${item.id}/ask?regular`} className='button secondary'>{t('regular.for.setUp', { name: item.first_name })}</Link>
      </div>
      {/* Every coordinator's series for this client (docs/api/on-behalf.md › Series for someone), each to its page with its dates. */}
      <SeriesList of={{ clientId: item.id }} heading={t('regular.for.listHeading', { name: item.first_name })} empty={t('regular.for.none', { name: item.first_name })} />
      <p><Link href='/clients/requests'>{t('coordinator.client.requests')}</Link></p>
      <TextsSummary client={item} />
      <EraseClient client={item} />
    </Page>
  )
}
