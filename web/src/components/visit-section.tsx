import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useRef, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useVisit, visitKey } from '../api/visit'
import { serverProblem } from '../i18n/server-errors'
import { useAnnounce } from './announcer'
import { Loading } from './loading'
import { historyKey } from './request-history'

type Visit = { checked_in_at: string | null, checked_out_at: string | null }

/**
 * One side of a visit (docs/web/visits.md): the visit as it stands, and `press` for a step, which `send` makes.
 * After a step its answer replaces the cached visit, `said` of it goes to the live region, focus moves to the
 * section's heading and the timeline is asked again; a refusal is shown and said.
 */
export function useVisitStep<S> (id: number, send: (step: S) => Promise<Visit>, said: (step: S) => string) {
  const { t } = useTranslation()
  const client = useQueryClient()
  const announce = useAnnounce()
  const heading = useRef<HTMLHeadingElement>(null)
  const visit = useVisit(id, true)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const step = useMutation({
    mutationFn: send,
    onSuccess: async (state, which) => {
      setProblem(undefined)
      client.setQueryData(visitKey(id), state)
      announce(said(which))
      heading.current?.focus()
      await client.invalidateQueries({ queryKey: historyKey(id) })
    },
    onError: (error) => {
      const message = serverProblem(error, t).message
      setProblem(message)
      announce(message)
    },
  })
  const press = (which: S) => { if (!step.isPending) step.mutate(which) }
  return { visit, problem, press, heading }
}

/** The section both sides show: its heading (focused after a step), a refusal, then `children` of the visit once read. */
export function VisitSection ({ id, title, state, children }: { id: number, title: string, state: Pick<ReturnType<typeof useVisitStep>, 'visit' | 'problem' | 'heading'>, children: (visit: Visit) => ReactNode }) {
  const { t } = useTranslation()
  const { visit, problem, heading } = state
  return (
    <section aria-labelledby={`visit-${id}`} className='stack'>
      <h2 id={`visit-${id}`} tabIndex={-1} ref={heading}>{title}</h2>
      {problem !== undefined ? <p className='error-text'>{problem}</p> : null}
      {visit.isPending
        ? <Loading query={visit} />
        : visit.isError ? <p className='error-text'>{serverProblem(visit.error, t).message}</p> : children(visit.data)}
    </section>
  )
}
