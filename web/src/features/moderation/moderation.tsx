import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Button, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useLocation } from 'react-router'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { useRequest } from '../../api/use-request'
import { useAnnounce } from '../../components/announcer'
import { useSuccess } from '../../components/success-banner'
import { Page } from '../../components/page'
import { formatDate } from '../../lib/format'
import { kindText, requestStatus, urgencyText } from '../../i18n/labels'
import { serverProblem } from '../../i18n/server-errors'
import { useDecidedList } from './decided-list'
import { RejectDialog } from './reject-dialog'
import { SeriesQueue } from './series-queue'
import '../../components/journeys.css'

const PENDING_KEY = ['get', '/api/v1/moderation/requests/pending'] as const
const MINE_KEY = ['get', '/api/v1/moderation/requests/my'] as const

type Item = Awaited<ReturnType<typeof loadPending>>[number]

function loadPending (signal: AbortSignal) {
  return unwrap(api.GET('/api/v1/moderation/requests/pending', { params: { query: { limit: '100' } }, signal }))
}

/**
 * When the requester wants the help by: the queue's list items do not carry it (a
 * RequestListItem), so each card asks for its request once, through the cache the request pages share.
 */
function WantedBy ({ id }: { id: number }) {
  const { t, i18n } = useTranslation()
  const detail = useRequest(id, { staleTime: 60_000 })
  const when = detail.data?.desired_completion_date
  return (
    <div>
      <dt>{t('request.when')}</dt>
      <dd>{detail.isPending ? t('common.loading') : typeof when === 'string' ? formatDate(when, i18n.language) : t('moderation.item.noDate')}</dd>
    </div>
  )
}

/** The moderation pages, as a small navigation that marks the current one. */
export function ModerationPages () {
  const { t } = useTranslation()
  const { pathname } = useLocation()
  const pages = [['/moderation', t('moderation.queue.title')], ['/moderation/mine', t('moderation.mine.title')], ['/moderation/concerns', t('moderation.concerns.title')]] as const
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
  const announce = useAnnounce()
  const success = useSuccess()
  const client = useQueryClient()
  const [rejecting, setRejecting] = useState<Item | undefined>(undefined)
  const [problem, setProblem] = useState<{ id: number, message: string } | undefined>(undefined)
  const pending = useQuery({ queryKey: PENDING_KEY, queryFn: ({ signal }) => loadPending(signal) })
  const { listHeading, remove } = useDecidedList(PENDING_KEY, pending.data, rejecting !== undefined, 'moderate-')

  /** Removes the decided item and moves focus to what now stands in its place. */
  const decided = (item: Item, message: string) => {
    remove(item)
    void client.invalidateQueries({ queryKey: MINE_KEY })
    success(message)
    setProblem(undefined)
  }
  const approve = useMutation({
    mutationFn: (item: Item) => unwrap(api.POST('/api/v1/moderation/requests/{id}/approve', { params: { path: { id: item.id } }, body: {} })),
    onSuccess: (_answer, item) => decided(item, t('moderation.approved', { title: item.title })),
    onError: (error, item) => {
      const message = serverProblem(error, t).message
      setProblem({ id: item.id, message })
      announce(message)
    },
  })

  const count = pending.data?.length ?? 0
  return (
    <Page title={t('moderation.queue.title')}>
      <ModerationPages />
      <p>{t('moderation.queue.intro')}</p>
      <h2 ref={listHeading} tabIndex={-1}>{pending.isSuccess ? t('moderation.queue.count', { count }) : t('moderation.queue.title')}</h2>
      {pending.isPending
        ? <p>{t('common.loading')}</p>
        : pending.isError
          ? <p className='error-text'>{serverProblem(pending.error, t).message} <Button className='link-button' onPress={() => { void pending.refetch() }}>{t('volunteer.tryAgain')}</Button></p>
          : count === 0
            ? <p>{t('moderation.queue.none')}</p>
            : (
              <ul className='cards'>
                {pending.data.map((item) => (
                  <li key={item.id}>
                    <article className='card' aria-labelledby={`moderate-${item.id}`}>
                      <h3 id={`moderate-${item.id}`} tabIndex={-1}>{item.title}</h3>
                      <dl className='facts'>
                        <div><dt>{t('volunteer.item.urgency')}</dt><dd>{urgencyText(t, item.urgency)}</dd></div>
                        <div><dt>{t('volunteer.item.kind')}</dt><dd>{kindText(t, item.request_type_name)}</dd></div>
                        <WantedBy id={item.id} />
                        <div><dt>{t('moderation.item.requester')}</dt><dd>{item.requester_name}</dd></div>
                        <div><dt>{t('volunteer.item.place')}</dt><dd>{[item.address, item.city].filter((part) => part !== '' && part !== null).join(', ')}</dd></div>
                        <div><dt>{t('volunteer.item.asked')}</dt><dd>{formatDate(item.created_at, i18n.language)}</dd></div>
                      </dl>
                      <h4 className='small-heading'>{t('moderation.item.description')}</h4>
                      <p className='pre-line'>{item.description}</p>
                      {problem?.id === item.id ? <p className='error-text'>{problem.message}</p> : null}
                      <div className='actions'>
                        <Button className='button' aria-label={`${t('moderation.approve')}: ${item.title}`} onPress={() => { if (!approve.isPending) approve.mutate(item) }}>
                          {t('moderation.approve')}
                        </Button>
                        <Button className='button danger' aria-label={`${t('moderation.reject')}: ${item.title}`} onPress={() => setRejecting(item)}>
                          {t('moderation.reject')}
                        </Button>
                      </div>
                    </article>
                  </li>
                ))}
              </ul>
              )}
      {rejecting !== undefined
        ? (
          <RejectDialog
            title={rejecting.title}
            confirm={t('moderation.dialog.confirm')}
            run={(comment) => unwrap(api.POST('/api/v1/moderation/requests/{id}/reject', { params: { path: { id: rejecting.id } }, body: { comment } }))}
            onClose={() => setRejecting(undefined)}
            onRejected={() => {
              setRejecting(undefined)
              decided(rejecting, t('moderation.rejected', { title: rejecting.title }))
            }}
          />
          )
        : null}
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
      {mine.isPending
        ? <p>{t('common.loading')}</p>
        : mine.isError
          ? <p className='error-text'>{serverProblem(mine.error, t).message} <Button className='link-button' onPress={() => { void mine.refetch() }}>{t('volunteer.tryAgain')}</Button></p>
          : mine.data.length === 0
            ? <p>{t('moderation.mine.none')}</p>
            : (
              <ul className='cards'>
                {mine.data.map((item) => (
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
              </ul>
              )}
    </Page>
  )
}
