import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { formatDate } from '../../lib/format'
import { serverProblem } from '../../i18n/server-errors'
import { DELIVERIES_KEY, listDeliveries } from './api'

/**
 * "What we sent you" (GET /users/me/deliveries): so a person who missed an e-mail can see whether it went, is
 * waiting (quiet hours, a retry) or could not be sent, and why. Shown as a list, which reads well at 320 px.
 */
export function SentToYou () {
  const { t, i18n } = useTranslation()
  const sent = useQuery({ queryKey: DELIVERIES_KEY, queryFn: ({ signal }) => listDeliveries(signal) })
  return (
    <section aria-labelledby='sent-heading'>
      <h2 id='sent-heading'>{t('settings.sent.title')}</h2>
      {sent.isPending
        ? <p>{t('common.loading')}</p>
        : sent.isError
          ? <p className='error-text'>{serverProblem(sent.error, t).message}</p>
          : sent.data.length === 0
            ? <p>{t('settings.sent.none')}</p>
            : (
              <>
                <p className='hint'>{t('settings.sent.intro')}</p>
                <ul className='sent-list'>
                  {sent.data.map((delivery, index) => (
                    <li key={`${delivery.notification_id ?? 'account'}-${delivery.channel}-${index}`}>
                      {t('settings.sent.line', { channel: t(delivery.account_message != null ? (delivery.channel === 'sms' ? 'settings.sent.accountText' : 'settings.sent.account') : `settings.sent.channel.${delivery.channel}`), status: t(`settings.sent.status.${delivery.status}`) })}
                      {delivery.sent_at !== null ? <>. {t('settings.sent.when', { date: formatDate(delivery.sent_at, i18n.language) })}</> : null}
                      {delivery.status !== 'sent' && delivery.attempts > 0 ? <>. {t('settings.sent.tries', { count: delivery.attempts })}</> : null}
                      {delivery.last_error !== null && delivery.status === 'failed' ? <>. {t('settings.sent.reason', { reason: delivery.last_error })}</> : null}
                    </li>
                  ))}
                </ul>
              </>
              )}
    </section>
  )
}
