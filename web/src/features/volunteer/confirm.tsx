import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Button } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { requestKey } from '../../api/keys'
import { useAnnounce } from '../../components/announcer'
import { serverProblem } from '../../i18n/server-errors'

export const COMING_HELP = ['get', '/api/v1/users/me/coming-help'] as const

/**
 * "I'll be there" (docs/api/schedule.md › Confirmation, reminders, expiry: POST /requests/{id}/confirm) for the assigned volunteer of a request with a
 * window. `label` names the visit for screen readers where several buttons share a page (the coming-help list).
 * Once confirmed, the sentence that says so replaces the button; where focus goes is the caller's (`onDone`).
 */
export function ConfirmVisit ({ id, confirmedAt, due = true, label, onDone }: { id: number, confirmedAt: string | null, due?: boolean, label?: string, onDone?: () => void }) {
  const { t } = useTranslation()
  const client = useQueryClient()
  const announce = useAnnounce()
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const confirm = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/requests/{id}/confirm', { params: { path: { id } } })),
    onSuccess: async (detail) => {
      setProblem(undefined)
      client.setQueryData(requestKey(id), detail)
      await client.invalidateQueries({ queryKey: COMING_HELP })
      announce(t('coming.confirmedDone'))
      onDone?.()
    },
    onError: (error) => {
      const message = serverProblem(error, t).message
      setProblem(message)
      announce(message)
    },
  })
  if (confirmedAt !== null) return <p>{t('coming.confirmed')}</p>
  return (
    <div className='stack'>
      {/* Due (within CONFIRM_BEFORE_HOURS): asked for; earlier, the same button lets a volunteer promise ahead. */}
      <p>{t(due ? 'coming.confirmNeeded' : 'coming.confirmEarly')}</p>
      {problem !== undefined ? <p className='error-text'>{problem}</p> : null}
      <Button className='button' onPress={() => { if (!confirm.isPending) confirm.mutate() }}>
        {t('coming.confirm')}{label !== undefined ? <span className='visually-hidden'> ({label})</span> : null}
      </Button>
    </div>
  )
}
