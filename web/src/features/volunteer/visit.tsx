import { Button } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { useVisitStep, VisitSection } from '../../components/visit-section'
import { formatDate } from '../../lib/format'

type Step = 'in' | 'out' | 'worried'

/**
 * The assigned volunteer's visit under VISIT_CHECKS=on (docs/web/visits.md): "I have
 * arrived", then "I have left" and "I have left and I am worried", large and one press each. A worried
 * check-out tells the moderators only; the page says so before it is pressed.
 */
export function VisitSteps ({ id, name }: { id: number, name: string }) {
  const { t, i18n } = useTranslation()
  const state = useVisitStep(id, (which: Step) => unwrap(which === 'in'
    ? api.POST('/api/v1/requests/{id}/visit/check-in', { params: { path: { id } } })
    : api.POST('/api/v1/requests/{id}/visit/check-out', { params: { path: { id } }, body: { worried: which === 'worried' } })),
  (which) => t(`visit.done.${which}`))
  const when = (at: string) => formatDate(at, i18n.language)
  return (
    <VisitSection id={id} title={t('visit.title')} state={state}>
      {(visit) => visit.checked_in_at === null
        ? (
          <>
            <p>{t('visit.arriveHint', { name })}</p>
            <Button className='button large' onPress={() => state.press('in')}>{t('visit.arrived')}</Button>
          </>
          )
        : (
          <>
            <p>{visit.checked_out_at === null
              ? t('visit.inSince', { time: when(visit.checked_in_at) })
              : t('visit.inAndOut', { in: when(visit.checked_in_at), out: when(visit.checked_out_at) })}
            </p>
            {visit.checked_out_at === null ? <Button className='button large' onPress={() => state.press('out')}>{t('visit.left')}</Button> : null}
            {/* Also after leaving: a volunteer may realise only later that something was wrong (a second press raises nothing new). */}
            <p id={`worried-${id}`} className='hint'>{t('visit.worriedHint', { name })}</p>
            <Button className='button large secondary' aria-describedby={`worried-${id}`} onPress={() => state.press('worried')}>{t('visit.leftWorried')}</Button>
          </>
          )}
    </VisitSection>
  )
}
