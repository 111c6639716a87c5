import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useLocation } from 'react-router'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { Page } from '../../components/page'
import { formatDate } from '../../lib/format'
import { kindText, requestStatus, urgencyText } from '../../i18n/labels'
import { DecisionCard, QueueList, useApprovals } from './decision-card'
import { SeriesQueue } from './series-queue'
import '../../components/journeys.css'

const PENDING_KEY = ['get', '/api/v1/moderation/requests/pending'] as const
const MINE_KEY = ['get', '/api/v1/moderation/requests/my'] as const

function loadPending (signal: AbortSignal) {
  return unwrap(api.GET('/api/v1/moderation/requests/pending', { params: { query: { limit: '100' } }, signal }))
}

/** The moderation pages, as a small navigation that marks the current one. */
export function ModerationPages () {
  const { t } = useTranslation()
  const { pathname } = useLocation()
  const pages = [['/moderation', t('moderation.queue.title')], ['/moderation/mine', t('moderation.mine.title')], ['/moderation/concerns', t('moderation.concerns.title')], ['/moderation/texts', t('texts.title')]] as const
  return (
    <nav aria-label={t('moderation.pagesLabel')}>
      <ul className='actions'>
        {pages.map(([href, label]) => (
          <li key={href}><Link href={href} aria-current={pathname === href ? 'page' : undefined}>{label}</Link></li>
        ))}
      </ul>
    </nav>
  )
}

/**
 * The queue, most urgent first (the API's order). After a decision the item leaves the list, the
 * decision is announced, and focus moves to the next item's heading, or to the list's heading when
 * none is left, so a keyboard user carries on from where they were.
 */
export function ModerationQueuePage () {
  const { t, i18n } = useTranslation()
  const client = useQueryClient()
  const { pending, listHeading, card, rejectDialog } = useApprovals({
    queryKey: PENDING_KEY,
    load: loadPending,
    idPrefix: 'moderate-',
    titleOf: (item) => item.title,
    approve: (item) => unwrap(api.POST('/api/v1/moderation/requests/{id}/approve', { params: { path: { id: item.id } }, body: {} })),
    reject: (item, comment) => unwrap(api.POST('/api/v1/moderation/requests/{id}/reject', { params: { path: { id: item.id } }, body: { comment } })),
    rejectConfirm: t('moderation.dialog.confirm'),
    onDecided: () => { void client.invalidateQueries({ queryKey: MINE_KEY }) },
  })

  const count = pending.data?.length ?? 0
  return (
    <Page title={t('moderation.queue.title')}>
      <ModerationPages />
      <p>{t('moderation.queue.intro')}</p>
      <h2 ref={listHeading} tabIndex={-1}>{pending.isSuccess ? t('moderation.queue.count', { count }) : t('moderation.queue.title')}</h2>
      <QueueList query={pending} none={t('moderation.queue.none')}>
        {(items) => items.map((item) => (
          <DecisionCard key={item.id} {...card(item)} heading={item.title} description={item.description}>
            <dl className='facts'>
              <div><dt>{t('volunteer.item.urgency')}</dt><dd>{urgencyText(t, item.urgency)}</dd></div>
              <div><dt>{t('volunteer.item.kind')}</dt><dd>{kindText(t, item.request_type_name)}</dd></div>
              <div><dt>{t('request.when')}</dt><dd>{item.desired_completion_date !== null ? formatDate(item.desired_completion_date, i18n.language) : t('moderation.item.noDate')}</dd></div>
              <div><dt>{t('moderation.item.requester')}</dt><dd>{item.requester_name}</dd></div>
              <div><dt>{t('volunteer.item.place')}</dt><dd>{[item.address, item.city].filter((part) => part !== '' && part !== null).join(', ')}</dd></div>
              <div><dt>{t('volunteer.item.asked')}</dt><dd>{formatDate(item.created_at, i18n.language)}</dd></div>
            </dl>
          </DecisionCard>
        ))}
      </QueueList>
      {rejectDialog}
      <SeriesQueue />
    </Page>
  )
}

/** The requests this moderator decided on, most recent first, each as it stands now. */
export function ModeratedByMePage () {
  const { t, i18n } = useTranslation()
  const mine = useQuery({
    queryKey: MINE_KEY,
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/moderation/requests/my', { params: { query: { limit: '100' } }, signal })),
  })
  return (
    <Page title={t('moderation.mine.title')}>
      <ModerationPages />
      <QueueList query={mine} none={t('moderation.mine.none')}>
        {(items) => items.map((item) => (
          <li key={item.id}>
            <article className='card' aria-labelledby={`decided-${item.id}`}>
              <h2 id={`decided-${item.id}`} className='card-heading'>{item.title}</h2>
              <dl className='facts'>
                <div><dt>{t('moderation.mine.statusNow')}</dt><dd>{requestStatus(t, item.status)}</dd></div>
                <div><dt>{t('volunteer.item.urgency')}</dt><dd>{urgencyText(t, item.urgency)}</dd></div>
                <div><dt>{t('moderation.item.requester')}</dt><dd>{item.requester_name}</dd></div>
                <div><dt>{t('volunteer.item.asked')}</dt><dd>{formatDate(item.created_at, i18n.language)}</dd></div>
              </dl>
            </article>
          </li>
        ))}
      </QueueList>
    </Page>
  )
}
