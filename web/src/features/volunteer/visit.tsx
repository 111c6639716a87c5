import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import { Button } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { useVisit, visitKey } from '../../api/visit'
import { useAnnounce } from '../../components/announcer'
import { Loading } from '../../components/loading'
import { historyKey } from '../../components/request-history'
import { serverProblem } from '../../i18n/server-errors'
import { formatDate } from '../../lib/format'

type Step = 'in' | 'out' | 'worried'

/**
 * The assigned volunteer's visit under VISIT_CHECKS=on (docs/web/visits.md): "I have
 * arrived", then "I have left" and "I have left and I am worried", large and one press each. A worried
 * check-out tells the moderators only; the page says so before it is pressed. After each step focus goes to
 * the section's heading and the step is announced.
 */
export function VisitSteps ({ id, name }: { id: number, name: string }) {
  const { t, i18n } = useTranslation()
  const client = useQueryClient()
  const announce = useAnnounce()
  const heading = useRef<HTMLHeadingElement>(null)
  const visit = useVisit(id, true)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const step = useMutation({
    mutationFn: (which: Step) => unwrap(which === 'in'
      ? api.POST('/api/v1/requests/{id}/visit/check-in', { params: { path: { id } } })
      : api.POST('/api/v1/requests/{id}/visit/check-out', { params: { path: { id } }, body: { worried: which === 'worried' } })),
    onSuccess: async (state, which) => {
      setProblem(undefined)
      client.setQueryData(visitKey(id), state)
      announce(t(`visit.done.${which}`, { name }))
      heading.current?.focus()
      await client.invalidateQueries({ queryKey: historyKey(id) })
    },
    onError: (error) => {
      const message = serverProblem(error, t).message
      setProblem(message)
      announce(message)
    },
  })
  const press = (which: Step) => { if (!step.isPending) step.mutate(which) }
  const when = (at: string) => formatDate(at, i18n.language)

  return (
    <section aria-labelledby={`visit-${id}`} className='stack'>
      <h2 id={`visit-${id}`} tabIndex={-1} ref={heading}>{t('visit.title')}</h2>
      {problem !== undefined ? <p className='error-text'>{problem}</p> : null}
      {visit.isPending
        ? <Loading query={visit} />
        : visit.isError
          ? <p className='error-text'>{serverProblem(visit.error, t).message}</p>
          : visit.data.checked_in_at === null
            ? (
              <>
                <p>{t('visit.arriveHint', { name })}</p>
                <Button className='button large' onPress={() => press('in')}>{t('visit.arrived')}</Button>
              </>
              )
            : (
              <>
                <p>{visit.data.checked_out_at === null
                  ? t('visit.inSince', { time: when(visit.data.checked_in_at) })
                  : t('visit.inAndOut', { in: when(visit.data.checked_in_at), out: when(visit.data.checked_out_at) })}
                </p>
                {visit.data.checked_out_at === null ? <Button className='button large' onPress={() => press('out')}>{t('visit.left')}</Button> : null}
                {/* Also after leaving: a volunteer may realise only later that something was wrong (a second press raises nothing new). */}
                <p id={`worried-${id}`} className='hint'>{t('visit.worriedHint', { name })}</p>
                <Button className='button large secondary' aria-describedby={`worried-${id}`} onPress={() => press('worried')}>{t('visit.leftWorried')}</Button>
              </>
              )}
    </section>
  )
}
