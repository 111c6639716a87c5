import { Button } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { useVisitStep, VisitSection } from '../../components/visit-section'
import { formatDate } from '../../lib/format'

/**
 * The requester's side of a visit under VISIT_CHECKS=on (docs/web/visits.md): whether the
 * volunteer has said they arrived, and, while they are in, "My helper has left", large and one press, for
 * whoever may complete the request (`mayCheckOut`); a carer who only follows reads it.
 */
export function HelperLeft ({ id, name, mayCheckOut }: { id: number, name: string, mayCheckOut: boolean }) {
  const { t, i18n } = useTranslation()
  const state = useVisitStep(id, () => unwrap(api.POST('/api/v1/requests/{id}/visit/helper-left', { params: { path: { id } } })), () => t('visit.done.helperLeft', { name }))
  const when = (at: string) => formatDate(at, i18n.language)
  return (
    <VisitSection id={id} title={t('visit.requesterTitle')} state={state}>
      {(visit) => visit.checked_in_at === null
        ? <p>{t('visit.notArrived', { name })}</p>
        : visit.checked_out_at === null
          ? (
            <>
              <p>{t('visit.arrivedAt', { name, time: when(visit.checked_in_at) })}</p>
              {mayCheckOut ? <Button className='button large' onPress={() => state.press(undefined)}>{t('visit.helperLeft')}</Button> : null}
            </>
            )
          : <p>{t('visit.leftAt', { name, in: when(visit.checked_in_at), out: when(visit.checked_out_at) })}</p>}
    </VisitSection>
  )
}
