import { useCallback, useState } from 'react'

export interface AnswersStore<T> { answers: T, update: (patch: Partial<T>) => void, clear: () => void }

/**
 * A journey's answers so far, kept in sessionStorage under `key` (which names the signed-in person): Back,
 * Change and a reload keep them, closing the tab forgets them, and someone else signing in on the same tab
 * does not see them.
 */
export function useStoredAnswers<T extends object> (key: string): AnswersStore<T> {
  const [answers, setAnswers] = useState<T>(() => read<T>(key))
  const update = useCallback((patch: Partial<T>) => {
    setAnswers((previous) => {
      const next = { ...previous, ...patch }
      write(key, next)
      return next
    })
  }, [key])
  const clear = useCallback(() => {
    sessionStorage.removeItem(key)
    setAnswers({} as T)
  }, [key])
  return { answers, update, clear }
}

function read<T> (key: string): T {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(key) ?? '{}')
    return (typeof stored === 'object' && stored !== null ? stored : {}) as T
  } catch {
    return {} as T
  }
}

function write (key: string, answers: object): void {
  // A full or refused storage only costs the answers on reload; the page keeps them in memory.
  try { sessionStorage.setItem(key, JSON.stringify(answers)) } catch {}
}
