import { useMutation, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Button, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { useRequestTypes } from '../../api/use-request-types'
import { useAnnounce } from '../../components/announcer'
import { useSuccess } from '../../components/success-banner'
import { kindText, urgencyText } from '../../i18n/labels'
import { serverProblem } from '../../i18n/server-errors'
import { formatDate } from '../../lib/format'
import { seriesSummary } from '../../lib/schedule'
import { useDecidedList } from './decided-list'
import { RejectDialog } from './reject-dialog'

export const PENDING_SERIES_KEY = ['get', '/api/v1/moderation/series/pending'] as const

function loadPendingSeries (signal: AbortSignal) {
  return unwrap(api.GET('/api/v1/moderation/series/pending', { params: { query: { limit: '100' } }, signal }))
}
type Series = Awaited<ReturnType<typeof loadPendingSeries>>[number]

/**
 * Regular help waiting for a decision, on the moderation page below the requests: moderated once for all its
 * dates (the API's oldest first). Each shows its plan in words and what is asked; approve or reject with a
 * reason as for a request, and after a decision focus moves to the next one, or to this list's heading.
 */
export function SeriesQueue () {
  const { t, i18n } = useTranslation()
  const announce = useAnnounce()
  const success = useSuccess()
  const types = useRequestTypes()
  const [rejecting, setRejecting] = useState<Series | undefined>(undefined)
  const [problem, setProblem] = useState<{ id: number, message: string } | undefined>(undefined)
  const pending = useQuery({ queryKey: PENDING_SERIES_KEY, queryFn: ({ signal }) => loadPendingSeries(signal) })
  const { listHeading, remove } = useDecidedList(PENDING_SERIES_KEY, pending.data, rejecting !== undefined, 'moderate-series-')
  const decided = (item: Series, message: string) => {
    remove(item)
    success(message)
    setProblem(undefined)
  }
  const approve = useMutation({
    mutationFn: (item: Series) => unwrap(api.POST('/api/v1/moderation/series/{id}/approve', { params: { path: { id: item.id } }, body: {} })),
    onSuccess: (_answer, item) => decided(item, t('moderation.approved', { title: item.template.title })),
    onError: (error, item) => {
      const message = serverProblem(error, t).message
      setProblem({ id: item.id, message })
      announce(message)
    },
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
      {pending.isPending
        ? <p>{t('common.loading')}</p>
        : pending.isError
          ? <p className='error-text'>{serverProblem(pending.error, t).message} <Button className='link-button' onPress={() => { void pending.refetch() }}>{t('volunteer.tryAgain')}</Button></p>
          : count === 0
            ? <p>{t('moderation.series.none')}</p>
            : (
              <ul className='cards'>
                {pending.data.map((item) => {
                  const { template } = item
                  return (
                    <li key={item.id}>
                      <article className='card' aria-labelledby={`moderate-series-${item.id}`}>
                        <h3 id={`moderate-series-${item.id}`} tabIndex={-1}><Link href={`/series/${item.id}`}>{template.title}</Link></h3>
                        <p className='inset-text'>{seriesSummary(item, t, i18n.language)}</p>
                        <dl className='facts'>
                          <div><dt>{t('volunteer.item.urgency')}</dt><dd>{urgencyText(t, template.urgency)}</dd></div>
                          <div><dt>{t('volunteer.item.kind')}</dt><dd>{kindOf(template.request_type_id)}</dd></div>
                          <div><dt>{t('moderation.item.requester')}</dt><dd><Link href={`/people/${item.requester_id}`}>{t('moderation.series.person')}</Link></dd></div>
                          <div><dt>{t('volunteer.item.place')}</dt><dd>{[template.address, template.city].filter((part) => part !== '' && part !== undefined).join(', ')}</dd></div>
                          <div><dt>{t('volunteer.item.asked')}</dt><dd>{formatDate(item.created_at, i18n.language)}</dd></div>
                        </dl>
                        <h4 className='small-heading'>{t('moderation.item.description')}</h4>
                        <p className='pre-line'>{template.description}</p>
                        {problem?.id === item.id ? <p className='error-text'>{problem.message}</p> : null}
                        <div className='actions'>
                          <Button className='button' aria-label={`${t('moderation.approve')}: ${template.title}`} onPress={() => { if (!approve.isPending) approve.mutate(item) }}>
                            {t('moderation.approve')}
                          </Button>
                          <Button className='button danger' aria-label={`${t('moderation.reject')}: ${template.title}`} onPress={() => setRejecting(item)}>
                            {t('moderation.reject')}
                          </Button>
                        </div>
                      </article>
                    </li>
                  )
                })}
              </ul>
              )}
      {rejecting !== undefined
        ? (
          <RejectDialog
            title={rejecting.template.title}
            confirm={t('moderation.series.rejectConfirm')}
            run={(comment) => unwrap(api.POST('/api/v1/moderation/series/{id}/reject', { params: { path: { id: rejecting.id } }, body: { comment } }))}
            onClose={() => setRejecting(undefined)}
            onRejected={() => {
              setRejecting(undefined)
              decided(rejecting, t('moderation.rejected', { title: rejecting.template.title }))
            }}
          />
          )
        : null}
    </section>
  )
}
