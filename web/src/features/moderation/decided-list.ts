import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'

/**
 * A list of things waiting for a decision (requests, concerns): `remove` takes a decided item out of the
 * cached list and moves focus to the item that now stands in its place (its heading, `<idPrefix><id>`), or
 * to the list's heading when none is left, so a keyboard user carries on from where they were. Focus moves
 * once the change is committed and any dialog is closed, so that React Aria's focus restoring (to the
 * button that opened it, now gone) finds focus already placed and leaves it.
 */
export function useDecidedList<T extends { id: number }> (queryKey: readonly unknown[], items: T[] | undefined, dialogOpen: boolean, idPrefix: string) {
  const client = useQueryClient()
  const listHeading = useRef<HTMLHeadingElement>(null)
  const focusAfter = useRef<number | 'heading' | undefined>(undefined)
  useEffect(() => {
    if (focusAfter.current === undefined || dialogOpen) return
    const target = focusAfter.current === 'heading' ? listHeading.current : document.getElementById(`${idPrefix}${focusAfter.current}`)
    focusAfter.current = undefined
    target?.focus()
  }, [items, dialogOpen, idPrefix])
  const remove = (item: { id: number }) => {
    const before = items ?? []
    const index = before.findIndex((other) => other.id === item.id)
    const next = before.filter((other) => other.id !== item.id)
    client.setQueryData(queryKey, next)
    focusAfter.current = next[Math.min(index, next.length - 1)]?.id ?? 'heading'
  }
  return { listHeading, remove }
}
