import type { ComponentType } from 'react'
import { Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { api } from '../../api/client'
import { ApiError, unwrap } from '../../api/errors'
import { useSession } from '../../api/use-session'
import { shortName } from '../../api/clients'
import { RequestHistory } from '../../components/request-history'
import { ConfirmedAction } from '../../components/confirmed-action'
import { Loading } from '../../components/loading'
import { OfflineNotice } from '../../components/offline-notice'
import { Page } from '../../components/page'
import { PhoneLink, useProfilePhone } from '../../components/phone'
import { WorriedLink } from '../../components/worried-link'
import { useRequest } from '../../api/use-request'
import { serverProblem } from '../../i18n/server-errors'
import { formatDate } from '../../lib/format'
import { useInvalidate } from './invalidate'
import { kindLabel, statusLabel, urgencyLabel } from './labels'
import { HelperLeft } from './helper-left'
import { Offers } from './offers'
import { AskAgain, StillNeeded } from './schedule-actions'
import { actingForName, actionProblem, may, useStanding } from './standing'
import { sayWindow } from '../../lib/schedule'
import { useVisitChecks } from '../../api/visit'
import { useSuccessHolds } from '../../components/success-banner'

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

/** Cancelling asks first, in a dialog (components/confirmed-action.tsx); a carer's words name the person. */
function Cancel ({ id, person }: { id: number, person?: string }) {
  const { t } = useTranslation()
  const invalidate = useInvalidate(id)
  const words = {
    open: t('cancel.open'),
    title: person !== undefined ? t('cancel.confirmTitleFor', { person }) : t('cancel.confirmTitle'),
    text: t('cancel.confirmText'),
    confirm: t('cancel.confirm'),
    keep: t('cancel.keep'),
    done: person !== undefined ? t('cancel.doneFor', { person }) : t('cancel.done'),
  }
  return (
    <section aria-labelledby='cancel-heading'>
      <h2 id='cancel-heading'>{t('cancel.title')}</h2>
      <ConfirmedAction
        words={words}
        run={() => unwrap(api.POST('/api/v1/requests/{id}/cancel', { params: { path: { id } } }))}
        onDone={invalidate}
        explain={(error) => actionProblem(error, t, person)}
      />
    </section>
  )
}

/**
 * One request: the requester's own view (offers, complete, cancel), also a carer's of the person's request
 * with only the actions the person granted (standing.ts), or `OthersView` for anyone else (the volunteer's
 * page, given by app.tsx so that this feature does not reach into another one).
 */
export function RequestPage ({ OthersView }: { OthersView: ComponentType }) {
  const { t, i18n } = useTranslation()
  const { user } = useSession()
  const id = Number(useParams().id)
  const request = useRequest(id)
  // "Your request was sent; a moderator checks it" goes once a moderator has decided (the live update reads it again).
  useSuccessHolds(`request:${id}`, request.data?.status)
  const standing = useStanding(request.data)
  const visitChecks = useVisitChecks()
  // Once an offer is accepted the requester rings the volunteer: the API gives his profile phone to her (docs/api/conventions.md),
  // not to her carer.
  const volunteerPhone = useProfilePhone(request.data?.assigned_volunteer?.id, request.data?.status === 'in_progress' && request.data.requester_id === user?.id)
  if (!Number.isInteger(id) || id <= 0 || (request.isError && request.error instanceof ApiError && request.error.status === 404)) {
    return <Page title={t('request.notFound')}><p>{t('request.notFoundText')}</p></Page>
  }
  // No h1 while loading: focus after navigation waits for the page's own h1, and its title is what is said.
  if (request.isPending || standing.kind === 'loading') return <Loading query={request} />
  if (request.isError) return <Page title={t('request.title')}><p className='error-text' role='alert'>{serverProblem(request.error, t, []).message}</p></Page>
  const item = request.data
  // A client's request is every coordinator's to act on as its requester (docs/api/on-behalf.md › Coordinators and clients), not only its creator's.
  const forClient = item.client
  // Anyone else sees the request as a volunteer does (the same page as from "Find help nearby").
  if (standing.kind === 'other') return <OthersView />
  const carer = standing.kind === 'carer' ? standing : undefined
  const person = actingForName(standing)
  const volunteer = item.assigned_volunteer !== null ? `${item.assigned_volunteer.first_name} ${item.assigned_volunteer.last_name}` : undefined
  return (
    <Page title={item.title} before={carer !== undefined ? <p className='caption'>{t('carers.act.caption', { name: carer.name })}</p> : undefined}>
      {carer !== undefined ? <p><Link href={`/people-i-help/${carer.personId}`}>{t('carers.act.back', { name: carer.name })}</Link></p> : null}
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
        {volunteer !== undefined && item.status === 'in_progress' && carer === undefined
          ? <div><dt>{t('request.volunteerPhone', { name: item.assigned_volunteer?.first_name ?? '' })}</dt><dd>{volunteerPhone.isPending ? t('common.loading') : typeof volunteerPhone.data === 'string' ? <PhoneLink phone={volunteerPhone.data} /> : t('request.noVolunteerPhone', { name: item.assigned_volunteer?.first_name ?? '' })}</dd></div>
          : null}
        <div><dt>{t('request.created')}</dt><dd>{formatDate(item.created_at, i18n.language)}</dd></div>
      </dl>
      {/* Who has seen her contact details (docs/privacy.md › Access records): a page of its own, which the API shows the requester only. */}
      {item.requester_id === user?.id
        ? <p><Link href={`/requests/${id}/access-log`}>{forClient !== null ? t('accessLog.linkClient', { name: forClient.first_name }) : t('accessLog.linkRequest')}</Link></p>
        : null}
      {item.status === 'pending_moderation' ? <p>{t(forClient !== null || carer !== undefined ? 'request.awaitingModerationOther' : 'request.awaitingModeration')}</p> : null}
      {/* Asking again and "still needed" are the requester's own (the API asks for her), not a carer's. */}
      {item.status === 'cancelled' && item.cancel_reason === 'expired' && carer === undefined ? <AskAgain item={item} /> : null}
      {item.status === 'approved' && item.window_start === null && item.desired_completion_date === null && carer === undefined ? <StillNeeded id={id} /> : null}
      {['approved', 'in_progress', 'completed'].includes(item.status) ? <Offers id={id} open={item.status === 'approved'} decide={may(standing, 'accept')} person={person} /> : null}
      {item.status === 'in_progress' && item.assigned_volunteer !== null && visitChecks
        ? <HelperLeft id={id} name={item.assigned_volunteer.first_name} mayCheckOut={may(standing, 'complete')} />
        : null}
      {item.status === 'in_progress' && volunteer !== undefined && may(standing, 'complete') ? <Complete id={id} /> : null}
      {['pending_moderation', 'approved', 'in_progress'].includes(item.status) && may(standing, 'cancel') ? <Cancel id={id} person={person} /> : null}
      <RequestHistory id={id} names={{ client: forClient !== null ? shortName(forClient) : undefined, person }} />
      <WorriedLink requestId={id} personId={item.assigned_volunteer?.id} />
    </Page>
  )
}
