import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Button, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { useSuccess } from '../../components/success-banner'
import { Page } from '../../components/page'
import { concernOutcome } from '../../i18n/labels'
import { serverProblem } from '../../i18n/server-errors'
import { formatDate } from '../../lib/format'
import { ModerationPages } from './moderation'
import { useDecidedList } from './decided-list'
import { ResolveDialog, type ConcernToResolve } from './resolve-dialog'
import '../../components/journeys.css'

type Status = 'open' | 'resolved'
const concernsKey = (status: Status) => ['get', '/api/v1/moderation/concerns', { status }] as const

function loadConcerns (status: Status, signal: AbortSignal) {
  return unwrap(api.GET('/api/v1/moderation/concerns', { params: { query: { status, limit: '100' } }, signal }))
}
type Concern = Awaited<ReturnType<typeof loadConcerns>>[number]

/** A person by name (the API's "Former user" once erased), linked to their page of details and checks. */
function Person ({ label, id, name }: { label: string, id: number | null, name: string | null }) {
  const { t } = useTranslation()
  return (
    <div>
      <dt>{label}</dt>
      <dd>{id === null ? (name ?? t('moderation.concerns.formerUser')) : <Link href={`/people/${id}`}>{name ?? t('moderation.concerns.personNumber', { id })}</Link>}</dd>
    </div>
  )
}

function ConcernCard ({ concern, onResolve }: { concern: Concern, onResolve: (concern: ConcernToResolve) => void }) {
  const { t, i18n } = useTranslation()
  const heading = t(concern.urgent ? 'moderation.concerns.headingUrgent' : 'moderation.concerns.heading', { date: formatDate(concern.created_at, i18n.language) })
  return (
    <li>
      <article className='card' aria-labelledby={`concern-${concern.id}`}>
        <h3 id={`concern-${concern.id}`} tabIndex={-1} className={concern.urgent ? 'concern-urgent' : undefined}>{heading}</h3>
        <dl className='facts'>
          {concern.request_id !== null
            ? <div><dt>{t('moderation.concerns.request')}</dt><dd><Link href={`/requests/${concern.request_id}`}>{concern.request_title ?? t('moderation.concerns.requestNumber', { id: concern.request_id })}</Link></dd></div>
            : null}
          {concern.subject_user_id !== null || concern.subject_name !== null ? <Person label={t('moderation.concerns.subject')} id={concern.subject_user_id} name={concern.subject_name} /> : null}
          {concern.kind === 'visit_overdue'
            ? <div><dt>{t('moderation.concerns.reporter')}</dt><dd>{t('moderation.concerns.visitOverdue')}</dd></div>
            : <Person label={t('moderation.concerns.reporter')} id={concern.reporter_id} name={concern.reporter_name} />}
          {concern.status === 'resolved'
            ? (
              <>
                <div><dt>{t('moderation.concerns.outcome')}</dt><dd>{concern.outcome !== null ? concernOutcome(t, concern.outcome) : ''}</dd></div>
                {concern.resolved_at !== null ? <div><dt>{t('moderation.concerns.resolvedAt')}</dt><dd>{formatDate(concern.resolved_at, i18n.language)}</dd></div> : null}
                <Person label={t('moderation.concerns.resolvedBy')} id={concern.resolved_by} name={null} />
              </>
              )
            : null}
        </dl>
        <h4 className='small-heading'>{t('moderation.concerns.text')}</h4>
        <p className='pre-line'>{concern.text}</p>
        {concern.status === 'resolved' && typeof concern.outcome_note === 'string'
          ? <><h4 className='small-heading'>{t('moderation.concerns.note')}</h4><p className='pre-line'>{concern.outcome_note}</p></>
          : null}
        {concern.status === 'open'
          ? <Button className='button' aria-label={`${t('moderation.concerns.decide')}: ${heading}`} onPress={() => onResolve({ id: concern.id, subject_user_id: concern.subject_user_id, heading })}>{t('moderation.concerns.decide')}</Button>
          : null}
      </article>
    </li>
  )
}

/**
 * Concerns for moderators (docs/api/help.md › Concerns): open ones, urgent first then oldest first (the API's order), or
 * resolved ones. After a decision the concern leaves the list, the decision is said, and focus moves to the
 * concern that now stands in its place, or to the list's heading, as in the requests' queue.
 */
export function ConcernsQueuePage () {
  const { t } = useTranslation()
  const success = useSuccess()
  const client = useQueryClient()
  const [params] = useSearchParams()
  const status: Status = params.get('status') === 'resolved' ? 'resolved' : 'open'
  const concerns = useQuery({ queryKey: concernsKey(status), queryFn: ({ signal }) => loadConcerns(status, signal) })
  const [resolving, setResolving] = useState<ConcernToResolve | undefined>(undefined)
  const { listHeading, remove } = useDecidedList(concernsKey(status), concerns.data, resolving !== undefined, 'concern-')

  const resolved = (concern: ConcernToResolve, outcome: string) => {
    remove(concern)
    void client.invalidateQueries({ queryKey: concernsKey('resolved') })
    success(t('moderation.concerns.resolved', { outcome: concernOutcome(t, outcome) }))
    setResolving(undefined)
  }
  const count = concerns.data?.length ?? 0
  const views = [['open', t('moderation.concerns.open')], ['resolved', t('moderation.concerns.resolvedView')]] as const
  return (
    <Page title={t('moderation.concerns.title')}>
      <ModerationPages />
      <p>{t('moderation.concerns.intro')}</p>
      <nav className='view-switch' aria-label={t('moderation.concerns.views')}>
        <ul>
          {views.map(([value, label]) => <li key={value}><Link href={value === 'open' ? '/moderation/concerns' : '/moderation/concerns?status=resolved'} aria-current={status === value ? 'page' : undefined}>{label}</Link></li>)}
        </ul>
      </nav>
      <h2 ref={listHeading} tabIndex={-1}>{concerns.isSuccess ? t(status === 'open' ? 'moderation.concerns.countOpen' : 'moderation.concerns.countResolved', { count }) : t('moderation.concerns.title')}</h2>
      {concerns.isPending
        ? <p>{t('common.loading')}</p>
        : concerns.isError
          ? <p className='error-text'>{serverProblem(concerns.error, t).message} <Button className='link-button' onPress={() => { void concerns.refetch() }}>{t('volunteer.tryAgain')}</Button></p>
          : count === 0
            ? <p>{t(status === 'open' ? 'moderation.concerns.noneOpen' : 'moderation.concerns.noneResolved')}</p>
            : <ul className='cards'>{concerns.data.map((concern) => <ConcernCard key={concern.id} concern={concern} onResolve={setResolving} />)}</ul>}
      {resolving !== undefined
        ? <ResolveDialog concern={resolving} onClose={() => setResolving(undefined)} onResolved={(outcome) => resolved(resolving, outcome)} />
        : null}
    </Page>
  )
}
