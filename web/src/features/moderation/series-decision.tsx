import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { Button } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { canModerate, useMyRoles } from '../../api/use-my-roles'
import { useSession } from '../../api/use-session'
import { useAnnounce } from '../../components/announcer'
import { focusPageHeading } from '../../components/page'
import { useSuccess } from '../../components/success-banner'
import { serverProblem } from '../../i18n/server-errors'
import { RejectDialog } from './reject-dialog'
import { PENDING_SERIES_KEY } from './series-queue'

/** What the series page needs to know of a series to offer the decision on it. */
export interface SeriesToDecide { id: number, requester_id: number, status: string, template: { title: string } }

/**
 * On a series' own page, for moderators and admins while it waits (not for its requester, who may not decide
 * on her own): "Approve" and "Reject" with a reason, as in the moderation queue. `onDecided` gets the series as
 * the API now has it; then the banner says so and focus goes to the page's heading, whose status changed.
 */
export function SeriesDecision ({ series, onDecided }: { series: SeriesToDecide, onDecided: (changed: unknown) => void }) {
  const { t } = useTranslation()
  const { user } = useSession()
  const roles = useMyRoles()
  const client = useQueryClient()
  const announce = useAnnounce()
  const success = useSuccess()
  const [rejecting, setRejecting] = useState(false)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const title = series.template.title
  // Focus moves once the decision is shown and any dialog closed, so React Aria's focus restoring (to the
  // Reject button, now gone) finds it placed and leaves it.
  const focusAfter = useRef(false)
  useEffect(() => {
    if (!focusAfter.current || rejecting || series.status === 'pending_moderation') return
    focusAfter.current = false
    focusPageHeading()
  }, [rejecting, series.status])
  const done = (changed: unknown, message: string) => {
    focusAfter.current = true
    setRejecting(false)
    onDecided(changed)
    void client.invalidateQueries({ queryKey: PENDING_SERIES_KEY })
    setProblem(undefined)
    success(message)
  }
  const approve = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/moderation/series/{id}/approve', { params: { path: { id: series.id } }, body: {} })),
    onSuccess: (changed) => done(changed, t('moderation.approved', { title })),
    onError: (error) => {
      const message = serverProblem(error, t).message
      setProblem(message)
      announce(message)
    },
  })
  if (series.status !== 'pending_moderation' || !canModerate(roles) || user === undefined || user.id === series.requester_id) return null
  return (
    <section aria-labelledby='decide-heading'>
      <h2 id='decide-heading'>{t('moderation.series.decideHeading')}</h2>
      <p>{t('moderation.series.decideText')}</p>
      {problem !== undefined ? <p className='error-text'>{problem}</p> : null}
      <div className='actions'>
        <Button className='button' onPress={() => { if (!approve.isPending) approve.mutate() }}>{t('moderation.approve')}</Button>
        <Button className='button danger' onPress={() => setRejecting(true)}>{t('moderation.reject')}</Button>
      </div>
      {rejecting
        ? (
          <RejectDialog
            title={title}
            confirm={t('moderation.series.rejectConfirm')}
            run={(comment) => unwrap(api.POST('/api/v1/moderation/series/{id}/reject', { params: { path: { id: series.id } }, body: { comment } }))}
            onClose={() => setRejecting(false)}
            onRejected={(changed) => done(changed, t('moderation.rejected', { title }))}
          />
          )
        : null}
    </section>
  )
}
