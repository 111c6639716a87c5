import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Button, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { useSession } from '../../api/use-session'
import { useSuccess } from '../../components/success-banner'
import { Page } from '../../components/page'
import { formatDate } from '../../lib/format'
import { serverProblem } from '../../i18n/server-errors'
import { describeNotification } from './describe'
import { useRequestTitles } from './titles'
import { UNREAD_COUNT } from './unread'
import '../../components/journeys.css'

const INBOX = ['get', '/api/v1/notifications'] as const

/** The inbox, newest first: each notification in words, with its request, and marking all read. */
export function NotificationsPage () {
  const { t, i18n } = useTranslation()
  const { user } = useSession()
  const success = useSuccess()
  const client = useQueryClient()
  const inbox = useQuery({
    queryKey: INBOX,
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/notifications', { params: { query: { limit: '100' } }, signal })),
  })
  const markRead = useMutation({
    mutationFn: (upToId: number) => unwrap(api.POST('/api/v1/notifications/read', { body: { up_to_id: upToId } })),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: INBOX })
      await client.invalidateQueries({ queryKey: UNREAD_COUNT })
      success(t('notifications.allRead'))
    },
  })
  const titles = useRequestTitles(inbox.data ?? [])
  const newest = inbox.data?.[0]
  const anyUnread = inbox.data?.some((notification) => notification.read_at === null) === true
  return (
    <Page title={t('notifications.title')}>
      <p><Link href='/settings/notifications'>{t('settings.inboxLink')}</Link></p>
      {inbox.isPending
        ? <p>{t('common.loading')}</p>
        : inbox.isError
          ? <p className='error-text'>{serverProblem(inbox.error, t).message} <Button className='link-button' onPress={() => { void inbox.refetch() }}>{t('volunteer.tryAgain')}</Button></p>
          : inbox.data.length === 0
            ? <p>{t('notifications.none')}</p>
            : (
              <>
                {anyUnread && newest !== undefined
                  ? <Button className='button' onPress={() => { if (!markRead.isPending) markRead.mutate(newest.id) }}>{t('notifications.markAllRead')}</Button>
                  : null}
                {markRead.isError ? <p className='error-text' role='alert'>{serverProblem(markRead.error, t).message}</p> : null}
                <ul className='cards'>
                  {inbox.data.map((notification) => {
                    const { text, href } = describeNotification(notification, t, i18n.language, notification.request_id === null ? undefined : titles.get(notification.request_id), user?.id)
                    return (
                      <li key={notification.id}>
                        <article className='card' aria-labelledby={`notification-${notification.id}`}>
                          <p id={`notification-${notification.id}`} className='card-heading'>
                            {notification.read_at === null ? <strong>{t('notifications.new')} </strong> : null}
                            <Link href={href}>{text}</Link>
                          </p>
                          <p className='hint'>{formatDate(notification.created_at, i18n.language)}</p>
                        </article>
                      </li>
                    )
                  })}
                </ul>
              </>
              )}
    </Page>
  )
}
