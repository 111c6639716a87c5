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

/**
 * The requester's side of a visit under VISIT_CHECKS=on (docs/web/visits.md): whether the
 * volunteer has said they arrived, and, while they are in, "My helper has left", large and one press, for
 * whoever may complete the request (`mayCheckOut`); a carer who only follows reads it.
 */
export function HelperLeft ({ id, name, mayCheckOut }: { id: number, name: string, mayCheckOut: boolean }) {
  const { t, i18n } = useTranslation()
  const client = useQueryClient()
  const announce = useAnnounce()
  const heading = useRef<HTMLHeadingElement>(null)
  const visit = useVisit(id, true)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const left = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/requests/{id}/visit/helper-left', { params: { path: { id } } })),
    onSuccess: async (state) => {
      setProblem(undefined)
      client.setQueryData(visitKey(id), state)
      announce(t('visit.done.helperLeft', { name }))
      heading.current?.focus()
      await client.invalidateQueries({ queryKey: historyKey(id) })
    },
    onError: (error) => {
      const message = serverProblem(error, t).message
      setProblem(message)
      announce(message)
    },
  })
  const when = (at: string) => formatDate(at, i18n.language)

  return (
    <section aria-labelledby={`visit-${id}`} className='stack'>
      <h2 id={`visit-${id}`} tabIndex={-1} ref={heading}>{t('visit.requesterTitle')}</h2>
      {problem !== undefined ? <p className='error-text'>{problem}</p> : null}
      {visit.isPending
        ? <Loading query={visit} />
        : visit.isError
          ? <p className='error-text'>{serverProblem(visit.error, t).message}</p>
          : visit.data.checked_in_at === null
            ? <p>{t('visit.notArrived', { name })}</p>
            : visit.data.checked_out_at === null
              ? (
                <>
                  <p>{t('visit.arrivedAt', { name, time: when(visit.data.checked_in_at) })}</p>
                  {mayCheckOut ? <Button className='button large' onPress={() => { if (!left.isPending) left.mutate() }}>{t('visit.helperLeft')}</Button> : null}
                </>
                )
              : <p>{t('visit.leftAt', { name, in: when(visit.data.checked_in_at), out: when(visit.data.checked_out_at) })}</p>}
    </section>
  )
}
