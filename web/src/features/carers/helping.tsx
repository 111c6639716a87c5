import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { Button, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { api } from '../../api/client'
import { ApiError, unwrap } from '../../api/errors'
import { ACTING_FOR_KEY, useActingFor } from '../../api/acting-for'
import { useAnnounce } from '../../components/announcer'
import { ConfirmedAction } from '../../components/confirmed-action'
import { Page, focusPageHeading } from '../../components/page'
import { SeriesList } from '../../components/series-list'
import { useSuccess } from '../../components/success-banner'
import { serverProblem } from '../../i18n/server-errors'
import { kindText, requestStatus } from '../../i18n/labels'
import { formatDate } from '../../lib/format'
import { inOrder, usePersonRequests } from './api'
import './carers.css'

type Item = NonNullable<ReturnType<typeof useActingFor>['data']>[number]

/** An invitation to help: what the person asks of the carer, and accept or decline, named with the person. */
function Invitation ({ item }: { item: Item }) {
  const { t } = useTranslation()
  const queryClient = useQueryClient()
  const success = useSuccess()
  const announce = useAnnounce()
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const answer = useMutation({
    mutationFn: (how: 'accept' | 'decline') => {
      const init = { params: { path: { id: item.id } } }
      return unwrap(how === 'accept' ? api.POST('/api/v1/users/me/acting-for/{id}/accept', init) : api.POST('/api/v1/users/me/acting-for/{id}/decline', init))
    },
    onSuccess: async (_item, how) => {
      await queryClient.invalidateQueries({ queryKey: ACTING_FOR_KEY })
      success(t(how === 'accept' ? 'carers.helping.accepted' : 'carers.helping.declined', { name: item.name }))
      focusPageHeading()
    },
    onError: (error) => {
      const message = serverProblem(error, t, []).message
      setProblem(message)
      announce(message)
    },
  })
  const press = (how: 'accept' | 'decline') => { if (!answer.isPending) answer.mutate(how) }
  return (
    <li className='card'>
      <h3>{t('carers.helping.asks', { name: item.name })}</h3>
      <p className='small-heading'>{t('carers.helping.youMay', { name: item.name })}</p>
      <ul className='can-list'>{inOrder(item.can).map((can) => <li key={can}>{t(`carers.youCan.${can}`, { name: item.name })}</li>)}</ul>
      {problem !== undefined ? <p className='error-text' role='alert'>{problem}</p> : null}
      <div className='invite-actions'>
        <Button className='button' onPress={() => press('accept')}>{t('carers.helping.accept', { name: item.name })}</Button>
        <Button className='button secondary' onPress={() => press('decline')}>{t('carers.helping.decline', { name: item.name })}</Button>
      </div>
    </li>
  )
}

/** "People I help" (docs/api/on-behalf.md › Carers and docs/web/on-behalf.md): invitations to answer, then each person the carer helps. */
export function PeopleIHelpPage () {
  const { t } = useTranslation()
  const list = useActingFor()
  const invited = list.data?.filter((item) => item.status === 'invited') ?? []
  const accepted = list.data?.filter((item) => item.status === 'accepted') ?? []
  return (
    <Page title={t('carers.helping.title')}>
      <p>{t('carers.helping.intro')}</p>
      {list.isPending
        ? <p>{t('common.loading')}</p>
        : list.isError
          ? <p className='error-text' role='alert'>{serverProblem(list.error, t, []).message}</p>
          : (
            <>
              {invited.length > 0
                ? (
                  <>
                    <h2>{t('carers.helping.invitations')}</h2>
                    <ul className='cards'>{invited.map((item) => <Invitation key={item.id} item={item} />)}</ul>
                  </>
                  )
                : null}
              <h2>{t('carers.helping.people')}</h2>
              {accepted.length === 0
                ? <p>{t('carers.helping.none')}</p>
                : (
                  <ul className='cards'>
                    {accepted.map((item) => (
                      <li key={item.id} className='card'>
                        <h3><Link href={`/people-i-help/${item.user_id}`}>{item.name}</Link></h3>
                        <p className='small-heading'>{t('carers.helping.youMay', { name: item.name })}</p>
                        <ul className='can-list'>{inOrder(item.can).map((can) => <li key={can}>{t(`carers.youCan.${can}`, { name: item.name })}</li>)}</ul>
                      </li>
                    ))}
                  </ul>
                  )}
            </>
            )}
    </Page>
  )
}

/**
 * One person the carer helps: what the carer may do, "Ask for help for <name>" when `create` was granted, and
 * the person's requests. Once the person has stopped it the page says so in words (the list no longer has
 * them, or the API refuses their requests with 403), rather than showing an error.
 */
export function PersonIHelpPage () {
  const { t, i18n } = useTranslation()
  const userId = Number(useParams().userId)
  const queryClient = useQueryClient()
  const list = useActingFor()
  const item = list.data?.find((entry) => entry.user_id === userId && entry.status === 'accepted')
  const requests = usePersonRequests(userId, item !== undefined)
  const refused = requests.error instanceof ApiError && requests.error.status === 403
  // Refused: the person has just stopped it; the list is asked again so that every page agrees.
  useEffect(() => { if (refused) void queryClient.invalidateQueries({ queryKey: ACTING_FOR_KEY }) }, [refused, queryClient])
  if (list.isPending) return <p>{t('common.loading')}</p>
  if (item === undefined || refused) {
    return (
      <Page title={t('carers.person.stoppedTitle')}>
        <p>{t('carers.person.stoppedText')}</p>
        <p><Link href='/people-i-help'>{t('carers.person.backToList')}</Link></p>
      </Page>
    )
  }
  return (
    <Page title={t('carers.person.title', { name: item.name })}>
      <p><Link href='/people-i-help'>{t('carers.person.backToList')}</Link></p>
      <p className='small-heading'>{t('carers.helping.youMay', { name: item.name })}</p>
      <ul className='can-list'>{inOrder(item.can).map((can) => <li key={can}>{t(`carers.youCan.${can}`, { name: item.name })}</li>)}</ul>
      {item.can.includes('create')
        ? (
          <div className='actions'>
            <Link href={`/ask?for=${item.user_id}`} className='button'>{t('carers.person.ask', { name: item.name })}</Link>
            <Link href={`/ask?for=${item.user_id}&regular`} className='button secondary'>{t('regular.for.setUp', { name: item.name })}</Link>
          </div>
          )
        : null}
      {/* Her regular help, her own and her carers' (GET /request-series/mine?for_user_id): shown only when there is some. */}
      <SeriesList of={{ forUserId: item.user_id }} heading={t('regular.for.listHeading', { name: item.name })} />
      <h2>{t('carers.person.requests', { name: item.name })}</h2>
      {requests.isPending
        ? <p>{t('common.loading')}</p>
        : requests.isError
          ? <p className='error-text' role='alert'>{serverProblem(requests.error, t, []).message}</p>
          : requests.data.length === 0
            ? <p>{t('carers.person.noRequests', { name: item.name })}</p>
            : (
              <ul className='cards'>
                {requests.data.map((request) => (
                  <li key={request.id} className='card'>
                    {/* The request's page: what the person sees, with the actions the person granted (requests/standing.ts). */}
                    <h3><Link href={`/requests/${request.id}`}>{request.title}</Link></h3>
                    <dl className='facts'>
                      <div><dt>{t('request.status')}</dt><dd><span className={`status status-${request.status}`}>{requestStatus(t, request.status)}</span></dd></div>
                      <div><dt>{t('request.kind')}</dt><dd>{kindText(t, request.request_type_name)}</dd></div>
                      <div><dt>{t('request.created')}</dt><dd>{formatDate(request.created_at, i18n.language)}</dd></div>
                    </dl>
                  </li>
                ))}
              </ul>
              )}
      <h2>{t('carers.person.stopHeading')}</h2>
      <ConfirmedAction
        words={{
          open: t('carers.person.stop.open', { name: item.name }),
          title: t('carers.person.stop.title', { name: item.name }),
          text: t('carers.person.stop.text', { name: item.name }),
          confirm: t('carers.person.stop.confirm'),
          keep: t('carers.person.stop.keep'),
          done: t('carers.person.stop.done', { name: item.name }),
        }}
        // A carer stops by declining, also after accepting (docs/api/on-behalf.md › Carers): the person then sees it declined.
        run={() => unwrap(api.POST('/api/v1/users/me/acting-for/{id}/decline', { params: { path: { id: item.id } } }))}
        onDone={() => queryClient.invalidateQueries({ queryKey: ACTING_FOR_KEY })}
      />
    </Page>
  )
}
