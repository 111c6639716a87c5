import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type ComponentType } from 'react'
import { Button, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { api } from '../../api/client'
import { ApiError, unwrap } from '../../api/errors'
import { useSession } from '../../api/use-session'
import { canCoordinate, useMyRoles } from '../../api/use-my-roles'
import { shortName } from '../../api/clients'
import { historyKey, RequestHistory } from '../../components/request-history'
import { ConfirmedAction } from '../../components/confirmed-action'
import { Loading } from '../../components/loading'
import { useAnnounce } from '../../components/announcer'
import { OfflineNotice } from '../../components/offline-notice'
import { useSuccess } from '../../components/success-banner'
import { focusPageHeading, Page } from '../../components/page'
import { PhoneLink, useProfilePhone } from '../../components/phone'
import { WorriedLink } from '../../components/worried-link'
import { requestKey, responsesKey } from '../../api/keys'
import { useRequest } from '../../api/use-request'
import { serverProblem } from '../../i18n/server-errors'
import { formatDate } from '../../lib/format'
import { kindLabel, statusLabel, urgencyLabel } from './labels'
import { MY_REQUESTS } from './mine'
import { TrustSignals } from './trust-signals'
import { AskAgain, StillNeeded } from './schedule-actions'
import { sayWindow } from '../../lib/schedule'

export function useInvalidate (id: number) {
  const client = useQueryClient()
  return async () => {
    await Promise.all([
      client.invalidateQueries({ queryKey: requestKey(id) }),
      client.invalidateQueries({ queryKey: responsesKey(id) }),
      client.invalidateQueries({ queryKey: MY_REQUESTS }),
      client.invalidateQueries({ queryKey: historyKey(id) }),
    ])
  }
}

/** Offers on the caller's own request, with "Accept" while the request is open. */
function Offers ({ id, open }: { id: number, open: boolean }) {
  const { t, i18n } = useTranslation()
  const announce = useAnnounce()
  const success = useSuccess()
  const invalidate = useInvalidate(id)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const offers = useQuery({ queryKey: responsesKey(id), queryFn: ({ signal }) => unwrap(api.GET('/api/v1/requests/{id}/responses', { params: { path: { id } }, signal })) })
  const accept = useMutation({
    mutationFn: (responseId: number) => unwrap(api.POST('/api/v1/requests/{id}/responses/{response_id}/accept', { params: { path: { id, response_id: responseId } } })),
    onSuccess: async (_result, responseId) => {
      setProblem(undefined)
      const name = offers.data?.find((offer) => offer.id === responseId)?.volunteer_name ?? ''
      await invalidate()
      success(t('offers.accepted', { name }))
      focusPageHeading()
    },
    onError: (error) => {
      const message = serverProblem(error, t, []).message
      setProblem(message)
      announce(message)
    },
  })
  return (
    <section aria-labelledby='offers-heading'>
      <h2 id='offers-heading'>{t('offers.title')}</h2>
      {problem !== undefined ? <p className='error-text' role='alert'>{problem}</p> : null}
      {offers.isPending
        ? <Loading query={offers} />
        : offers.isError
          ? <p className='error-text' role='alert'>{serverProblem(offers.error, t, []).message}</p>
          : offers.data.length === 0
            ? <p>{t('offers.none')}</p>
            : (
              <ul className='cards'>
                {offers.data.map((offer) => (
                  <li key={offer.id} className='card'>
                    <h3>{offer.volunteer_name}</h3>
                    <TrustSignals volunteer={offer.volunteer} />
                    <dl className='facts'>
                      <div><dt>{t('request.status')}</dt><dd>{t(`offerStatus.${offer.status}`, { defaultValue: offer.status })}</dd></div>
                      <div><dt>{t('offers.when')}</dt><dd>{formatDate(offer.responded_at, i18n.language)}</dd></div>
                    </dl>
                    {offer.message !== null ? <blockquote>{offer.message}</blockquote> : null}
                    {open && offer.status === 'pending'
                      ? <Button className='button' onPress={() => { if (!accept.isPending) accept.mutate(offer.id) }}>{t('offers.accept', { name: offer.volunteer_name })}</Button>
                      : null}
                    <WorriedLink requestId={id} personId={offer.volunteer_id} about={offer.volunteer_name} />
                  </li>
                ))}
              </ul>
              )}
    </section>
  )
}

/** "When the help is done": the way to the two questions of completing (complete.tsx), one per page. */
function Complete ({ id }: { id: number }) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby='complete-heading'>
      <h2 id='complete-heading'>{t('complete.title')}</h2>
      <p>{t('complete.intro')}</p>
      <p><Link href={`/requests/${id}/done`} className='button'>{t('complete.start')}</Link></p>
    </section>
  )
}

/** Cancelling asks first, in a dialog (components/confirmed-action.tsx). */
function Cancel ({ id }: { id: number }) {
  const { t } = useTranslation()
  const invalidate = useInvalidate(id)
  const words = { open: t('cancel.open'), title: t('cancel.confirmTitle'), text: t('cancel.confirmText'), confirm: t('cancel.confirm'), keep: t('cancel.keep'), done: t('cancel.done') }
  return (
    <section aria-labelledby='cancel-heading'>
      <h2 id='cancel-heading'>{t('cancel.title')}</h2>
      <ConfirmedAction words={words} run={() => unwrap(api.POST('/api/v1/requests/{id}/cancel', { params: { path: { id } } }))} onDone={invalidate} />
    </section>
  )
}

/**
 * One request: the requester's own view (offers, complete, cancel), or `OthersView` for anyone else
 * (the volunteer's page, given by app.tsx so that this feature does not reach into another one).
 */
export function RequestPage ({ OthersView }: { OthersView: ComponentType }) {
  const { t, i18n } = useTranslation()
  const { user } = useSession()
  const roles = useMyRoles()
  const id = Number(useParams().id)
  const request = useRequest(id)
  // Once an offer is accepted the requester rings the volunteer: the API gives his profile phone to her (rules.md).
  const volunteerPhone = useProfilePhone(request.data?.assigned_volunteer?.id, request.data?.status === 'in_progress' && request.data.requester_id === user?.id)
  if (!Number.isInteger(id) || id <= 0 || (request.isError && request.error instanceof ApiError && request.error.status === 404)) {
    return <Page title={t('request.notFound')}><p>{t('request.notFoundText')}</p></Page>
  }
  // No h1 while loading: focus after navigation waits for the page's own h1, and its title is what is said.
  if (request.isPending) return <Loading query={request} />
  if (request.isError) return <Page title={t('request.title')}><p className='error-text' role='alert'>{serverProblem(request.error, t, []).message}</p></Page>
  const item = request.data
  // A client's request is every coordinator's to act on as its requester (behalf.md § 1), not only its creator's.
  const forClient = item.client
  const mine = user !== undefined && (item.client_id !== null ? canCoordinate(roles) : item.requester_id === user.id)
  // Anyone else sees the request as a volunteer does (the same page as from "Find help nearby").
  if (!mine) return <OthersView />
  const volunteer = item.assigned_volunteer !== null ? `${item.assigned_volunteer.first_name} ${item.assigned_volunteer.last_name}` : undefined
  return (
    <Page title={item.title}>
      <OfflineNotice updatedAt={request.dataUpdatedAt} />
      <p className={`status status-${item.status}`}>{t('request.statusLine', { status: statusLabel(t, item.status) })}</p>
      <p>{item.description}</p>
      <dl className='facts'>
        {forClient !== null
          ? <div><dt>{t('coordinator.ask.for')}</dt><dd><Link href={`/clients/${forClient.id}`}>{shortName(forClient)}</Link>{forClient.needs !== null && forClient.needs !== '' ? ` (${forClient.needs})` : ''}</dd></div>
          : null}
        <div><dt>{t('request.kind')}</dt><dd>{kindLabel(t, item.request_type.id, item.request_type.name)}</dd></div>
        <div><dt>{t('request.urgency')}</dt><dd>{urgencyLabel(t, item.urgency)}</dd></div>
        <div><dt>{t('request.where')}</dt><dd>{[item.address, item.city].filter(Boolean).join(', ')}</dd></div>
        {item.window_start !== null ? <div><dt>{t('schedule.window')}</dt><dd>{sayWindow(item.window_start, item.window_end, i18n.language)}</dd></div> : null}
        {item.series_id !== null ? <div><dt>{t('regular.title')}</dt><dd><Link href={`/series/${item.series_id}`}>{t('schedule.seriesLink')}</Link></dd></div> : null}
        {item.desired_completion_date !== null && item.window_start === null ? <div><dt>{t('request.when')}</dt><dd>{formatDate(item.desired_completion_date, i18n.language)}</dd></div> : null}
        {item.contact_phone !== null ? <div><dt>{t('ask.phone')}</dt><dd>{item.contact_phone}</dd></div> : null}
        {item.contact_notes !== null ? <div><dt>{t('ask.notes')}</dt><dd>{item.contact_notes}</dd></div> : null}
        {volunteer !== undefined ? <div><dt>{t('request.volunteer')}</dt><dd>{volunteer}</dd></div> : null}
        {volunteer !== undefined && item.status === 'in_progress'
          ? <div><dt>{t('request.volunteerPhone', { name: item.assigned_volunteer?.first_name ?? '' })}</dt><dd>{volunteerPhone.isPending ? t('common.loading') : typeof volunteerPhone.data === 'string' ? <PhoneLink phone={volunteerPhone.data} /> : t('request.noVolunteerPhone', { name: item.assigned_volunteer?.first_name ?? '' })}</dd></div>
          : null}
        <div><dt>{t('request.created')}</dt><dd>{formatDate(item.created_at, i18n.language)}</dd></div>
      </dl>
      {/* Who has seen her contact details (trust.md § 5): a page of its own, which the API shows the requester only. */}
      {item.requester_id === user?.id
        ? <p><Link href={`/requests/${id}/access-log`}>{forClient !== null ? t('accessLog.linkClient', { name: forClient.first_name }) : t('accessLog.linkRequest')}</Link></p>
        : null}
      {item.status === 'pending_moderation' ? <p>{t(forClient !== null ? 'request.awaitingModerationOther' : 'request.awaitingModeration')}</p> : null}
      {item.status === 'cancelled' && item.cancel_reason === 'expired' ? <AskAgain item={item} /> : null}
      {item.status === 'approved' && item.window_start === null && item.desired_completion_date === null ? <StillNeeded id={id} /> : null}
      {['approved', 'in_progress', 'completed'].includes(item.status) ? <Offers id={id} open={item.status === 'approved'} /> : null}
      {item.status === 'in_progress' && volunteer !== undefined ? <Complete id={id} /> : null}
      {['pending_moderation', 'approved', 'in_progress'].includes(item.status) ? <Cancel id={id} /> : null}
      <RequestHistory id={id} names={{ client: forClient !== null ? shortName(forClient) : undefined }} />
      <WorriedLink requestId={id} personId={item.assigned_volunteer?.id} />
    </Page>
  )
}
