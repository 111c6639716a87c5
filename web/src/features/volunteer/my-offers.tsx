import { useQuery } from '@tanstack/react-query'
import { Button, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { OfflineNotice } from '../../components/offline-notice'
import { Page } from '../../components/page'
import { formatDate } from '../../lib/format'
import { responseStatus } from '../../i18n/labels'
import { serverProblem } from '../../i18n/server-errors'
import { MY_OFFERS_KEY } from './request'
import { requestFromVolunteerSide } from './side'
import '../../components/journeys.css'

/** The volunteer's offers, newest first: where each stands, and the request it is for. */
export function MyOffersPage () {
  const { t, i18n } = useTranslation()
  const offers = useQuery({
    queryKey: MY_OFFERS_KEY,
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/responses/my', { params: { query: { limit: '100' } }, signal })),
  })
  return (
    <Page title={t('volunteer.offers.title')}>
      <OfflineNotice updatedAt={offers.dataUpdatedAt} />
      <p><Link href='/coming-help'>{t('coming.linkOffers')}</Link></p>
      {offers.isPending
        ? <p>{t('common.loading')}</p>
        : offers.isError
          ? <p className='error-text'>{serverProblem(offers.error, t).message} <Button className='link-button' onPress={() => { void offers.refetch() }}>{t('volunteer.tryAgain')}</Button></p>
          : offers.data.length === 0
            ? <p>{t('volunteer.offers.none')} <Link href='/find-help'>{t('volunteer.nav.find')}</Link></p>
            : (
              <ul className='cards'>
                {offers.data.map((offer) => (
                  <li key={offer.id}>
                    <article className='card' aria-labelledby={`offer-${offer.id}`}>
                      <h2 id={`offer-${offer.id}`} className='card-heading'><Link href={`/find-help/${offer.request_id}`}>{offer.request_title}</Link></h2>
                      <dl className='facts'>
                        <div><dt>{t('volunteer.offers.yourOffer')}</dt><dd>{responseStatus(t, offer.status)}</dd></div>
                        <div><dt>{t('volunteer.offers.request')}</dt><dd>{requestFromVolunteerSide(t, offer.status, offer.request_status)}</dd></div>
                        <div><dt>{t('volunteer.offers.offered')}</dt><dd>{formatDate(offer.responded_at, i18n.language)}</dd></div>
                        {offer.message !== null ? <div><dt>{t('volunteer.request.yourMessage')}</dt><dd>{offer.message}</dd></div> : null}
                      </dl>
                    </article>
                  </li>
                ))}
              </ul>
              )}
    </Page>
  )
}
