import { Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { useRequestTypes } from '../../api/use-request-types'
import { kindText, urgencyText } from '../../i18n/labels'
import { formatDate } from '../../lib/format'
import { seriesSummary } from '../../lib/schedule'
import { DecisionCard, QueueList, useApprovals } from './decision-card'

export const PENDING_SERIES_KEY = ['get', '/api/v1/moderation/series/pending'] as const

function loadPendingSeries (signal: AbortSignal) {
  return unwrap(api.GET('/api/v1/moderation/series/pending', { params: { query: { limit: '100' } }, signal }))
}

/**
 * Regular help waiting for a decision, on the moderation page below the requests: moderated once for all its
 * dates (the API's oldest first). Each shows its plan in words and what is asked; approve or reject with a
 * reason as for a request, and after a decision focus moves to the next one, or to this list's heading.
 */
export function SeriesQueue () {
  const { t, i18n } = useTranslation()
  const types = useRequestTypes()
  const { pending, listHeading, card, rejectDialog } = useApprovals({
    queryKey: PENDING_SERIES_KEY,
    load: loadPendingSeries,
    idPrefix: 'moderate-series-',
    titleOf: (item) => item.template.title,
    approve: (item) => unwrap(api.POST('/api/v1/moderation/series/{id}/approve', { params: { path: { id: item.id } }, body: {} })),
    reject: (item, comment) => unwrap(api.POST('/api/v1/moderation/series/{id}/reject', { params: { path: { id: item.id } }, body: { comment } })),
    rejectConfirm: t('moderation.series.rejectConfirm'),
  })
  const kindOf = (id: number) => {
    const name = types.data?.find((type) => type.id === id)?.name
    return name === undefined ? '' : kindText(t, name)
  }
  const count = pending.data?.length ?? 0
  return (
    <section aria-labelledby='series-queue-heading'>
      <h2 id='series-queue-heading' ref={listHeading} tabIndex={-1}>{pending.isSuccess ? t('moderation.series.count', { count }) : t('moderation.series.title')}</h2>
      <p>{t('moderation.series.intro')}</p>
      <QueueList query={pending} none={t('moderation.series.none')}>
        {(items) => items.map((item) => {
          const { template } = item
          return (
            <DecisionCard key={item.id} {...card(item)} heading={<Link href={`/series/${item.id}`}>{template.title}</Link>} description={template.description}>
              <p className='inset-text'>{seriesSummary(item, t, i18n.language)}</p>
              <dl className='facts'>
                <div><dt>{t('volunteer.item.urgency')}</dt><dd>{urgencyText(t, template.urgency)}</dd></div>
                <div><dt>{t('volunteer.item.kind')}</dt><dd>{kindOf(template.request_type_id)}</dd></div>
                <div><dt>{t('moderation.item.requester')}</dt><dd><Link href={`/people/${item.requester_id}`}>{t('moderation.series.person')}</Link></dd></div>
                <div><dt>{t('volunteer.item.place')}</dt><dd>{[template.address, template.city].filter((part) => part !== '' && part !== undefined).join(', ')}</dd></div>
                <div><dt>{t('volunteer.item.asked')}</dt><dd>{formatDate(item.created_at, i18n.language)}</dd></div>
              </dl>
            </DecisionCard>
          )
        })}
      </QueueList>
      {rejectDialog}
    </section>
  )
}
