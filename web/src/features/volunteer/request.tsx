import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useRef, useState, type FormEvent, type ReactNode } from 'react'
import { Button, Dialog, DialogTrigger, Form, Heading, Link, Modal } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { useSession } from '../../api/use-session'
import { useActingFor } from '../../api/acting-for'
import { canCoordinate, canModerate, useMyRoles } from '../../api/use-my-roles'
import { shortName } from '../../api/clients'
import { historyKey, RequestHistory } from '../../components/request-history'
import { useSuccess, useSuccessHolds, type Holds } from '../../components/success-banner'
import { ErrorSummary } from '../../components/error-summary'
import { TextInput } from '../../components/fields'
import { OfflineNotice } from '../../components/offline-notice'
import { Page } from '../../components/page'
import { PhoneLink, useProfilePhone } from '../../components/phone'
import { useFormProblems } from '../../components/use-form-problems'
import { WorriedLink } from '../../components/worried-link'
import { requestKey, responsesKey } from '../../api/keys'
import { useRequest } from '../../api/use-request'
import { formatDate } from '../../lib/format'
import { kindText, responseStatus, urgencyText } from '../../i18n/labels'
import { serverProblem } from '../../i18n/server-errors'
import { Place } from './place'
import { ConfirmVisit } from './confirm'
import { VisitSteps } from './visit'
import { useVisitChecks } from '../../api/visit'
import { InvitationDecline } from './decline'
import { sayWindow } from '../../lib/schedule'
import { Loading } from '../../components/loading'
import { requestFromVolunteerSide } from './side'
import '../../components/journeys.css'

const FIELDS = ['message'] as const

/**
 * "Withdraw my offer" asks first, in a dialog as cancelling a request does: an accepted offer is
 * someone counting on the volunteer, and one key press must not let them down.
 */
export function Withdraw ({ accepted, name, onConfirm, label }: { accepted: boolean, name: string, onConfirm: () => void, label?: ReactNode }) {
  const { t } = useTranslation()
  const [isOpen, setOpen] = useState(false)
  return (
    <DialogTrigger isOpen={isOpen} onOpenChange={setOpen}>
      <Button className='button secondary'>{label ?? t('volunteer.request.withdraw')}</Button>
      <Modal className='modal' isDismissable>
        <Dialog className='dialog'>
          <Heading slot='title'>{t('volunteer.withdraw.title')}</Heading>
          <p>{accepted ? t('volunteer.withdraw.acceptedText', { name }) : t('volunteer.withdraw.pendingText', { name })}</p>
          <div className='actions'>
            <Button className='button danger' onPress={() => { setOpen(false); onConfirm() }}>{t('volunteer.withdraw.confirm')}</Button>
            <Button className='button secondary' slot='close'>{t('volunteer.withdraw.keep')}</Button>
          </div>
        </Dialog>
      </Modal>
    </DialogTrigger>
  )
}

/**
 * Whether the reader is a party of the request, whom the API shows its history (docs/api.md): its requester, the
 * volunteer assigned to it (an accepted one, also once it is done), moderators and admins, coordinators on a client's
 * request, the requester's carers. Anyone else looking at an open request is not asked for it.
 */
function useParty (request: { requester_id: number, assigned_volunteer_id: number | null, client_id: number | null } | undefined): boolean {
  const { user } = useSession()
  const roles = useMyRoles()
  const direct = request !== undefined && user !== undefined &&
    (request.requester_id === user.id || request.assigned_volunteer_id === user.id || canModerate(roles) || (request.client_id !== null && canCoordinate(roles)))
  // A carer of the requester usually reads her request on its own page (detail.tsx); the list is read only when it can matter.
  const actingFor = useActingFor(request !== undefined && !direct && request.client_id === null)
  return direct || (request !== undefined && actingFor.data?.some((item) => item.user_id === request.requester_id && item.status === 'accepted') === true)
}

export const MY_OFFERS_KEY = ['get', '/api/v1/responses/my'] as const

/**
 * The volunteer's view of one request: what is asked, and their own offer (make it, see it, withdraw it).
 * Also what /requests/:id shows to anyone but the requester (detail.tsx).
 */
export function VolunteerRequestPage () {
  const { t, i18n } = useTranslation()
  const success = useSuccess()
  const client = useQueryClient()
  const { user } = useSession()
  const id = Number(useParams().id)
  const form = useFormProblems(FIELDS)
  const offerHeading = useRef<HTMLHeadingElement>(null)
  const detailKey = requestKey(id)
  const offersKey = responsesKey(id)
  const detail = useRequest(id)
  const responses = useQuery({
    queryKey: offersKey,
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/requests/{id}/responses', { params: { path: { id } }, signal })),
    enabled: detail.isSuccess,
  })
  // The volunteer's own offer that still counts (a withdrawn or declined one does not stop a new one).
  const mine = responses.data?.filter((response) => response.volunteer_id === user?.id)
  const open = mine?.find((response) => response.status === 'pending' || response.status === 'accepted')
  const latest = mine?.at(-1)
  // The assigned volunteer rings the requester: the request's contact phone, or else the one in her profile.
  const assigned = detail.data?.status === 'in_progress' && detail.data.assigned_volunteer_id === user?.id
  const requesterPhone = useProfilePhone(detail.data?.requester.id, assigned && detail.data?.contact_phone === null)
  const party = useParty(detail.data)
  const visitChecks = useVisitChecks()

  // "Your offer is sent" stops being true once the offer is accepted, turned down or withdrawn.
  useSuccessHolds(`offer:${id}`, responses.data === undefined ? undefined : (open?.status ?? 'none'))

  const afterChange = async (message: string, holds?: Holds) => {
    await Promise.all([
      client.invalidateQueries({ queryKey: offersKey }),
      client.invalidateQueries({ queryKey: detailKey }),
      client.invalidateQueries({ queryKey: MY_OFFERS_KEY }),
      client.invalidateQueries({ queryKey: historyKey(id) }),
    ])
    success(message, undefined, holds)
    offerHeading.current?.focus()
  }
  const offer = useMutation({
    mutationFn: (message: string | null) => unwrap(api.POST('/api/v1/requests/{id}/responses', { params: { path: { id } }, body: { message } })),
    onSuccess: () => afterChange(t('volunteer.request.sent'), { key: `offer:${id}`, value: 'pending' }),
    onError: (error) => form.show([serverProblem(error, t, FIELDS)]),
  })
  const withdraw = useMutation({
    mutationFn: (responseId: number) => unwrap(api.POST('/api/v1/requests/{id}/responses/{response_id}/cancel', { params: { path: { id, response_id: responseId } } })),
    onSuccess: () => afterChange(t('volunteer.request.withdrawn')),
    onError: (error) => form.show([serverProblem(error, t, FIELDS)]),
  })

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (offer.isPending) return
    const message = String(new FormData(event.currentTarget).get('message') ?? '').trim()
    form.clear()
    offer.mutate(message === '' ? null : message)
  }

  if (detail.isError || !Number.isSafeInteger(id) || id <= 0) {
    return (
      <Page title={t('volunteer.request.notFound')}>
        <p>{detail.isError ? serverProblem(detail.error, t).message : t('volunteer.errors.requestNotFound')}</p>
        <p><Link href='/find-help'>{t('volunteer.request.back')}</Link></p>
      </Page>
    )
  }
  // No h1 while loading: focus after navigation waits for the page's own h1, and its title is what is said.
  if (detail.isPending) return <Loading query={detail} />
  const request = detail.data
  // Asked by a coordinator for a client (docs/api/on-behalf.md › Coordinators and clients): the client is who the help is for, with what they need;
  // named in full, as the API names her to parties only (the accepted volunteer needs the surname at the door).
  const forClient = request.client
  const phone = request.contact_phone ?? requesterPhone.data
  return (
    <Page title={request.title} hasErrors={form.problems.length > 0} before={<ErrorSummary problems={form.problems} attempt={form.attempt} />}>
      <OfflineNotice updatedAt={detail.dataUpdatedAt} />
      <dl className='facts'>
        <div><dt>{t('volunteer.item.kind')}</dt><dd>{kindText(t, request.request_type.name)}</dd></div>
        <div><dt>{t('volunteer.item.urgency')}</dt><dd>{urgencyText(t, request.urgency)}</dd></div>
        <div><dt>{t('volunteer.item.status')}</dt><dd>{requestFromVolunteerSide(t, open?.status ?? '', request.status)}</dd></div>
        <div><dt>{t('volunteer.request.askedBy')}</dt><dd>{request.requester.first_name} {request.requester.last_name}</dd></div>
        {forClient !== null
          ? <div><dt>{t('coordinator.ask.for')}</dt><dd>{forClient.full_name}{forClient.needs !== null && forClient.needs !== '' ? ` (${forClient.needs})` : ''}</dd></div>
          : null}
        <div><dt>{t('volunteer.item.place')}</dt><dd><Place request={request} /></dd></div>
        {request.window_start !== null
          ? <div><dt>{t('schedule.window')}</dt><dd>{sayWindow(request.window_start, request.window_end, i18n.language)}</dd></div>
          : null}
        {request.desired_completion_date !== null && request.window_start === null
          ? <div><dt>{t('volunteer.request.when')}</dt><dd>{formatDate(request.desired_completion_date, i18n.language)}</dd></div>
          : null}
        {phone !== null && phone !== undefined ? <div><dt>{t('volunteer.request.phone')}</dt><dd><PhoneLink phone={phone} /></dd></div> : null}
        {assigned && request.contact_phone === null && requesterPhone.isSuccess && requesterPhone.data === null
          ? <div><dt>{t('volunteer.request.phone')}</dt><dd>{t('volunteer.request.noPhone', { name: request.requester.first_name })}</dd></div>
          : null}
        {request.contact_notes !== null ? <div><dt>{t('volunteer.request.notes')}</dt><dd>{request.contact_notes}</dd></div> : null}
      </dl>
      {/* At the door the step comes first, before the details read on the way (docs/web/visits.md). */}
      {assigned && visitChecks ? <VisitSteps id={id} name={request.requester.first_name} /> : null}
      <h2>{t('volunteer.request.what')}</h2>
      <p className='pre-line'>{request.description}</p>

      <section aria-labelledby='offer-heading'>
        <h2 id='offer-heading' tabIndex={-1} ref={offerHeading}>{t('volunteer.request.yourOffer')}</h2>
        {responses.isPending
          ? <Loading query={responses} />
          : responses.isError
            ? <p className='error-text'>{serverProblem(responses.error, t).message}</p>
            : open !== undefined
              ? (
                <>
                  <dl className='facts'>
                    <div><dt>{t('volunteer.item.status')}</dt><dd>{responseStatus(t, open.status)}</dd></div>
                    <div><dt>{t('volunteer.offers.offered')}</dt><dd>{formatDate(open.responded_at, i18n.language)}</dd></div>
                    {open.message !== null ? <div><dt>{t('volunteer.request.yourMessage')}</dt><dd>{open.message}</dd></div> : null}
                  </dl>
                  {open.status === 'accepted' ? <p>{t('volunteer.request.acceptedHint')}</p> : null}
                  {assigned && request.window_start !== null ? <ConfirmVisit id={id} confirmedAt={request.confirmed_at} onDone={() => offerHeading.current?.focus()} /> : null}
                  {['approved', 'in_progress'].includes(request.status)
                    ? <Withdraw accepted={open.status === 'accepted'} name={request.requester.first_name} onConfirm={() => { if (!withdraw.isPending) withdraw.mutate(open.id) }} />
                    : null}
                </>
                )
              : (
                <>
                  {latest !== undefined ? <p>{t('volunteer.request.earlier', { status: responseStatus(t, latest.status) })}</p> : null}
                  {request.status === 'approved' && request.series_id !== null && request.requester.id !== user?.id ? <InvitationDecline id={id} /> : null}
                  {request.status === 'approved' && request.requester.id !== user?.id
                    ? (
                      <Form validationBehavior='aria' validationErrors={form.validationErrors} onSubmit={submit} className='stack'>
                        <TextInput name='message' label={t('volunteer.request.message', { name: request.requester.first_name })} hint={t('volunteer.request.messageHint')} optional multiline maxLength={2000} />
                        <Button type='submit' className='button'>{t('volunteer.request.send')}</Button>
                      </Form>
                      )
                    : <p>{request.requester.id === user?.id ? t('volunteer.errors.ownRequest') : t('volunteer.request.notOpen')}</p>}
                </>
                )}
      </section>
      {/* The parties' timeline, asked for only when the reader is one (useParty). */}
      <RequestHistory id={id} names={{ client: forClient !== null ? shortName(forClient) : undefined }} party={party} />
      <WorriedLink requestId={id} personId={request.requester.id !== user?.id ? request.requester.id : undefined} />
      <p><Link href='/find-help'>{t('volunteer.request.back')}</Link></p>
    </Page>
  )
}
