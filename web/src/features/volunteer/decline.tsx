import { useMutation, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Button } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { useAnnounce } from '../../components/announcer'
import { serverProblem } from '../../i18n/server-errors'

/**
 * The preferred volunteer of a series, invited alone to a new date (docs/api/schedule.md › Series, `series_invitation`), may offer
 * help as usual or say "I can't this time" (`POST /requests/{id}/decline`), which lets the alerts to others start at
 * once. Whether this person was invited is read from their own notifications (the request does not say), and only
 * on an open date of a series they have not offered for, so no one else is shown the choice.
 */
export function InvitationDecline ({ id }: { id: number }) {
  const { t } = useTranslation()
  const announce = useAnnounce()
  const [declined, setDeclined] = useState(false)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const inbox = useQuery({
    queryKey: ['get', '/api/v1/notifications', 'invitations'],
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/notifications', { params: { query: { limit: '100' } }, signal })),
  })
  const decline = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/requests/{id}/decline', { params: { path: { id } } })),
    onSuccess: () => {
      setProblem(undefined)
      setDeclined(true)
      announce(t('invitation.declined'))
    },
    onError: (error) => {
      const message = serverProblem(error, t).message
      setProblem(message)
      announce(message)
    },
  })
  const invited = inbox.data?.some((notification) => notification.type === 'series_invitation' && notification.request_id === id) ?? false
  if (!invited) return null
  if (declined) return <p>{t('invitation.declined')}</p>
  return (
    <section aria-labelledby='invitation-heading' className='stack'>
      <h3 id='invitation-heading'>{t('invitation.title')}</h3>
      <p>{t('invitation.text')}</p>
      {problem !== undefined ? <p className='error-text'>{problem}</p> : null}
      <Button className='button secondary' onPress={() => { if (!decline.isPending) decline.mutate() }}>{t('invitation.decline')}</Button>
    </section>
  )
}
