import { useMutation, useQuery, type UseQueryResult } from '@tanstack/react-query'
import { useState, type ReactNode } from 'react'
import { Button } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useAnnounce } from '../../components/announcer'
import { useSuccess } from '../../components/success-banner'
import { serverProblem } from '../../i18n/server-errors'
import { useDecidedList } from './decided-list'
import { RejectDialog } from './reject-dialog'

/**
 * What a queue of things waiting for approval (requests, series) does with them: loads the list (`pending`,
 * the cache entry `queryKey` that a decision edits), approves one at a press, rejects one through the dialog
 * (`rejectDialog`, open once Reject is pressed), says a refusal on its card, and after a decision takes it out
 * of the list, says so in the success banner and moves focus on (useDecidedList). `card` gives a card's ids,
 * title, problem and buttons; `titleOf` names an item in the buttons, the dialog and the banner.
 */
export function useApprovals<Item extends { id: number }> (options: {
  queryKey: readonly unknown[]
  load: (signal: AbortSignal) => Promise<Item[]>
  idPrefix: string
  titleOf: (item: Item) => string
  approve: (item: Item) => Promise<unknown>
  reject: (item: Item, comment: string) => Promise<unknown>
  /** The dialog's button: "Reject request", "Reject regular help". */
  rejectConfirm: string
  onDecided?: () => void
}) {
  const { t } = useTranslation()
  const announce = useAnnounce()
  const success = useSuccess()
  const pending = useQuery({ queryKey: options.queryKey, queryFn: ({ signal }) => options.load(signal) })
  const [rejecting, setRejecting] = useState<Item | undefined>(undefined)
  const [problem, setProblem] = useState<{ id: number, message: string } | undefined>(undefined)
  const { listHeading, remove } = useDecidedList(options.queryKey, pending.data, rejecting !== undefined, options.idPrefix)
  const decided = (item: Item, message: string) => {
    remove(item)
    options.onDecided?.()
    success(message)
    setProblem(undefined)
  }
  const approve = useMutation({
    mutationFn: options.approve,
    onSuccess: (_answer, item) => decided(item, t('moderation.approved', { title: options.titleOf(item) })),
    onError: (error, item) => {
      const message = serverProblem(error, t).message
      setProblem({ id: item.id, message })
      announce(message)
    },
  })
  const card = (item: Item) => ({
    headingId: `${options.idPrefix}${item.id}`,
    title: options.titleOf(item),
    problem: problem?.id === item.id ? problem.message : undefined,
    approve: () => { if (!approve.isPending) approve.mutate(item) },
    reject: () => setRejecting(item),
  })
  const rejectDialog = rejecting !== undefined
    ? (
      <RejectDialog
        title={options.titleOf(rejecting)}
        confirm={options.rejectConfirm}
        run={(comment) => options.reject(rejecting, comment)}
        onClose={() => setRejecting(undefined)}
        onRejected={() => {
          setRejecting(undefined)
          decided(rejecting, t('moderation.rejected', { title: options.titleOf(rejecting) }))
        }}
      />
      )
    : null
  return { pending, listHeading, card, rejectDialog }
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
