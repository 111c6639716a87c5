import { useQuery } from '@tanstack/react-query'
import { Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { OfflineNotice } from '../../components/offline-notice'
import { Page } from '../../components/page'
import { serverProblem } from '../../i18n/server-errors'
import { kindText } from '../../i18n/labels'
import { formatDate } from '../../lib/format'
import { statusLabel, urgencyLabel } from './labels'
import { MySeries } from './series'
import { sayWindow } from '../../lib/schedule'
import { MY_REQUESTS } from '../../api/keys'

export function MyRequestsPage () {
  const { t, i18n } = useTranslation()
  const mine = useQuery({ queryKey: MY_REQUESTS, queryFn: ({ signal }) => unwrap(api.GET('/api/v1/requests/my', { params: { query: { limit: '100' } }, signal })) })
  return (
    <Page title={t('mine.title')}>
      <OfflineNotice updatedAt={mine.dataUpdatedAt} />
      <p><Link href='/ask' className='button'>{t('ask.title')}</Link></p>
      <p><Link href='/coming-help'>{t('coming.title')}</Link></p>
      <MySeries />
      {mine.isPending
        ? <p>{t('common.loading')}</p>
        : mine.isError
          ? <p className='error-text' role='alert'>{serverProblem(mine.error, t, []).message}</p>
          : mine.data.length === 0
            ? <p>{t('mine.none')}</p>
            : (
              <ul className='cards'>
                {mine.data.map((item) => (
                  <li key={item.id} className='card'>
                    <h2><Link href={`/requests/${item.id}`}>{item.title}</Link></h2>
                    <dl className='facts'>
                      {item.window_start !== null ? <div><dt>{t('schedule.window')}</dt><dd>{sayWindow(item.window_start, item.window_end, i18n.language)}</dd></div> : null}
                      <div><dt>{t('request.status')}</dt><dd><span className={`status status-${item.status}`}>{statusLabel(t, item.status)}</span></dd></div>
                      <div><dt>{t('request.kind')}</dt><dd>{kindText(t, item.request_type_name)}</dd></div>
                      <div><dt>{t('request.urgency')}</dt><dd>{urgencyLabel(t, item.urgency)}</dd></div>
                      <div><dt>{t('request.created')}</dt><dd>{formatDate(item.created_at, i18n.language)}</dd></div>
                    </dl>
                  </li>
                ))}
              </ul>
              )}
    </Page>
  )
}
