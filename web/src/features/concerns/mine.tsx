import { useQuery } from '@tanstack/react-query'
import { Button, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { useRequest } from '../../api/use-request'
import { Page } from '../../components/page'
import { concernOutcomeSentence } from '../../i18n/labels'
import { serverProblem } from '../../i18n/server-errors'
import { formatDate } from '../../lib/format'
import '../../components/journeys.css'

export const MY_CONCERNS_KEY = ['get', '/api/v1/concerns/mine'] as const

/** The request a concern is about, by its title when the person may still see it. */
function AboutRequest ({ id }: { id: number }) {
  const { t } = useTranslation()
  const request = useRequest(id, { staleTime: 60_000 })
  return (
    <div>
      <dt>{t('concerns.mine.request')}</dt>
      <dd>{request.data !== undefined ? <Link href={`/requests/${id}`}>{request.data.title}</Link> : request.isError ? t('concerns.about.someRequest') : t('common.loading')}</dd>
    </div>
  )
}

/** "Concerns you raised": each with what was said, whether it is dealt with, and the outcome in words. */
export function MyConcernsPage () {
  const { t, i18n } = useTranslation()
  const mine = useQuery({ queryKey: MY_CONCERNS_KEY, queryFn: ({ signal }) => unwrap(api.GET('/api/v1/concerns/mine', { signal })) })
  return (
    <Page title={t('concerns.mine.title')}>
      <p>{t('concerns.mine.intro')}</p>
      {mine.isPending
        ? <p>{t('common.loading')}</p>
        : mine.isError
          ? <p className='error-text'>{serverProblem(mine.error, t).message} <Button className='link-button' onPress={() => { void mine.refetch() }}>{t('volunteer.tryAgain')}</Button></p>
          : mine.data.length === 0
            ? <p>{t('concerns.mine.none')}</p>
            : (
              <ul className='cards'>
                {mine.data.map((concern) => (
                  <li key={concern.id}>
                    <article className='card' aria-labelledby={`concern-${concern.id}`}>
                      <h2 id={`concern-${concern.id}`} className='card-heading'>{t('concerns.mine.raised', { date: formatDate(concern.created_at, i18n.language) })}</h2>
                      <dl className='facts'>
                        {concern.request_id !== null ? <AboutRequest id={concern.request_id} /> : null}
                        <div><dt>{t('concerns.check.urgent')}</dt><dd>{concern.urgent ? t('concerns.urgentYes') : t('concerns.urgentNo')}</dd></div>
                        <div>
                          <dt>{t('concerns.mine.status')}</dt>
                          <dd>
                            {concern.status === 'resolved' && concern.outcome !== null
                              ? t('concerns.mine.resolved', { date: concern.resolved_at !== null ? formatDate(concern.resolved_at, i18n.language) : '', outcome: concernOutcomeSentence(t, concern.outcome) })
                              : t('concerns.mine.open')}
                          </dd>
                        </div>
                      </dl>
                      <h3 className='small-heading'>{t('concerns.check.what')}</h3>
                      <p className='pre-line'>{concern.text}</p>
                    </article>
                  </li>
                ))}
              </ul>
              )}
      <p><Link href='/profile'>{t('concerns.mine.back')}</Link></p>
    </Page>
  )
}
