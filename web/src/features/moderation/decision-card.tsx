import { useMutation, type UseQueryResult } from '@tanstack/react-query'
import { useState, type ReactNode } from 'react'
import { Button } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useAnnounce } from '../../components/announcer'
import { useSuccess } from '../../components/success-banner'
import { serverProblem } from '../../i18n/server-errors'
import { useDecidedList } from './decided-list'

/**
 * What a queue of things waiting for approval (requests, series) does with them: approve one at a press,
 * reject one through the dialog (`rejecting`), say a refusal on its card (`problem`), and after a decision
 * take it out of the list, say so in the success banner and move focus on (useDecidedList).
 */
export function useApprovals<Item extends { id: number }> (options: {
  queryKey: readonly unknown[]
  items: Item[] | undefined
  idPrefix: string
  approve: (item: Item) => Promise<unknown>
  approvedText: (item: Item) => string
  onDecided?: () => void
}) {
  const { t } = useTranslation()
  const announce = useAnnounce()
  const success = useSuccess()
  const [rejecting, setRejecting] = useState<Item | undefined>(undefined)
  const [problem, setProblem] = useState<{ id: number, message: string } | undefined>(undefined)
  const { listHeading, remove } = useDecidedList(options.queryKey, options.items, rejecting !== undefined, options.idPrefix)
  const decided = (item: Item, message: string) => {
    remove(item)
    options.onDecided?.()
    success(message)
    setProblem(undefined)
  }
  const approve = useMutation({
    mutationFn: options.approve,
    onSuccess: (_answer, item) => decided(item, options.approvedText(item)),
    onError: (error, item) => {
      const message = serverProblem(error, t).message
      setProblem({ id: item.id, message })
      announce(message)
    },
  })
  const problemOf = (item: Item) => problem?.id === item.id ? problem.message : undefined
  return { listHeading, rejecting, setRejecting, problemOf, approve, decided }
}

/** A query's list in its three states before it has items: loading, failed (with "try again"), and empty. */
export function QueueList<T> ({ query, none, children }: { query: UseQueryResult<T[]>, none: string, children: (items: T[]) => ReactNode }) {
  const { t } = useTranslation()
  if (query.isPending) return <p>{t('common.loading')}</p>
  if (query.isError) {
    return <p className='error-text'>{serverProblem(query.error, t).message} <Button className='link-button' onPress={() => { void query.refetch() }}>{t('volunteer.tryAgain')}</Button></p>
  }
  return query.data.length === 0 ? <p>{none}</p> : <ul className='cards'>{children(query.data)}</ul>
}

/** One thing waiting for a decision: its heading, facts and description, and Approve and Reject named after it. */
export function DecisionCard ({ headingId, heading, title, description, problem, approve, reject, children }: {
  headingId: string
  heading: ReactNode
  /** Names the buttons for screen readers: "Approve: Lift to the clinic". */
  title: string
  description: string
  problem: string | undefined
  approve: () => void
  reject: () => void
  /** What stands between the heading and the description: the facts, a summary. */
  children: ReactNode
}) {
  const { t } = useTranslation()
  return (
    <li>
      <article className='card' aria-labelledby={headingId}>
        <h3 id={headingId} tabIndex={-1}>{heading}</h3>
        {children}
        <h4 className='small-heading'>{t('moderation.item.description')}</h4>
        <p className='pre-line'>{description}</p>
        {problem !== undefined ? <p className='error-text'>{problem}</p> : null}
        <div className='actions'>
          <Button className='button' aria-label={`${t('moderation.approve')}: ${title}`} onPress={approve}>{t('moderation.approve')}</Button>
          <Button className='button danger' aria-label={`${t('moderation.reject')}: ${title}`} onPress={reject}>{t('moderation.reject')}</Button>
        </div>
      </article>
    </li>
  )
}
