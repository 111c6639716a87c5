import { useTranslation } from 'react-i18next'
import { useOnline } from '../api/offline'
import { formatDate, localeOf } from '../lib/format'
import './offline-notice.css'

/**
 * Without a connection, says that the page is not live and when it was last seen ("You are offline. This
 * is what you last saw at 14:02."), and that actions wait for the connection. GOV.UK's notification banner
 * (important): a region with a heading, shown above the page's content, not an alert.
 */
export function OfflineNotice ({ updatedAt }: { updatedAt: number }) {
  const { t, i18n } = useTranslation()
  const online = useOnline()
  if (online) return null
  const seen = new Date(updatedAt)
  const today = seen.toDateString() === new Date().toDateString()
  const time = today ? new Intl.DateTimeFormat(localeOf(i18n.language), { timeStyle: 'short' }).format(seen) : formatDate(seen.toISOString(), i18n.language)
  return (
    <section className='offline-notice' aria-labelledby='offline-notice-title'>
      <h2 id='offline-notice-title' className='offline-notice-title'>{t('offline.title')}</h2>
      <p>{updatedAt > 0 ? t('offline.lastSeen', { time }) : t('offline.notSeen')} {t('offline.actions')}</p>
    </section>
  )
}
