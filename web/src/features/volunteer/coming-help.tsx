import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useRef } from 'react'
import { Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { useAnnounce } from '../../components/announcer'
import { OfflineNotice } from '../../components/offline-notice'
import { Page } from '../../components/page'
import { serverProblem } from '../../i18n/server-errors'
import { sayWindow } from '../../lib/schedule'
import { COMING_HELP, ConfirmVisit } from './confirm'
import { MY_OFFERS_KEY, Withdraw } from './request'
import '../../components/journeys.css'

/** "I can't this time": the volunteer's accepted offer on this request withdrawn (the existing withdraw, asked first). */
function CannotCome ({ id, title, when, name }: { id: number, title: string, when: string, name: string }) {
  const { t } = useTranslation()
  const client = useQueryClient()
  const announce = useAnnounce()
  const offers = useQuery({ queryKey: MY_OFFERS_KEY, queryFn: ({ signal }) => unwrap(api.GET('/api/v1/responses/my', { params: { query: { limit: '100' } }, signal })) })
  const offer = offers.data?.find((item) => item.request_id === id && item.status === 'accepted')
  const withdraw = useMutation({
    mutationFn: (responseId: number) => unwrap(api.POST('/api/v1/requests/{id}/responses/{response_id}/cancel', { params: { path: { id, response_id: responseId } } })),
    onSuccess: async () => {
      await Promise.all([client.invalidateQueries({ queryKey: COMING_HELP }), client.invalidateQueries({ queryKey: MY_OFFERS_KEY })])
      announce(t('coming.withdrawn', { title }))
      document.getElementById('coming-list-heading')?.focus()
    },
    onError: (error) => { announce(serverProblem(error, t).message) },
  })
  if (offer === undefined) return null
  return <Withdraw accepted name={name} label={<>{t('coming.cannot')}<span className='visually-hidden'> ({title}, {when})</span></>} onConfirm={() => { if (!withdraw.isPending) withdraw.mutate(offer.id) }} />
}

/**
 * Coming help (docs/web/schedule.md): what the person gives or gets with a date, soonest first, dates in words in the
 * page's language and this device's zone; "I'll be there" on each visit due for confirmation.
 */
export function ComingHelpPage () {
  const { t, i18n } = useTranslation()
  const heading = useRef<HTMLHeadingElement>(null)
  const coming = useQuery({ queryKey: COMING_HELP, queryFn: ({ signal }) => unwrap(api.GET('/api/v1/users/me/coming-help', { params: { query: { limit: '100' } }, signal })) })
  const items = coming.data ?? []
  // On her own request: who is coming once a volunteer was accepted, and whether they have confirmed.
  const ownLine = (item: { volunteer_name: string | null, confirmed_at: string | null }) =>
    item.volunteer_name === null ? t('coming.asked') : t(item.confirmed_at !== null ? 'coming.coming' : 'coming.helpingYou', { name: item.volunteer_name })
  return (
    <Page title={t('coming.title')}>
      <OfflineNotice updatedAt={coming.dataUpdatedAt} />
      <p>{t('coming.intro')}</p>
      <p><Link href='/calendar'>{t('calendar.title')}</Link></p>
      <h2 id='coming-list-heading' tabIndex={-1} ref={heading}>{t('coming.listHeading')}</h2>
      {coming.isPending
        ? <p>{t('common.loading')}</p>
        : coming.isError
          ? <p className='error-text' role='alert'>{serverProblem(coming.error, t).message}</p>
          : items.length === 0
            ? <p>{t('coming.none')}</p>
            : (
              <ul className='cards'>
                {items.map((item) => {
                  const when = item.window_start !== null ? sayWindow(item.window_start, item.window_end, i18n.language) : item.title
                  const helping = item.role === 'volunteer'
                  return (
                    <li key={item.id} className='card'>
                      <h3><Link href={helping ? `/find-help/${item.id}` : `/requests/${item.id}`}>{when}</Link></h3>
                      <p>{item.title}</p>
                      <p>{helping ? t('coming.helping', { name: item.requester_name }) : ownLine(item)}</p>
                      {helping && item.status === 'in_progress'
                        ? (
                          <div className='stack'>
                            <ConfirmVisit id={item.id} confirmedAt={item.confirmed_at} due={item.needs_confirmation} label={`${item.title}, ${when}`} onDone={() => heading.current?.focus()} />
                            <CannotCome id={item.id} title={item.title} when={when} name={item.requester_name} />
                          </div>
                          )
                        : null}
                    </li>
                  )
                })}
              </ul>
              )}
    </Page>
  )
}
