import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react'
import { flushSync } from 'react-dom'

const AnnounceContext = createContext<(text: string) => void>(() => {})

/**
 * The page's one polite live region. A message is cleared before it is set, so the same words said
 * twice (a second failed attempt, say) are announced twice; messages given within a moment of each
 * other (an action's result, then the title of the page it led to) are said together, in order.
 */
export function Announcer ({ children }: { children: ReactNode }) {
  const [message, setMessage] = useState('')
  const timer = useRef<number | undefined>(undefined)
  const pending = useRef<string[]>([])
  const announce = useCallback((text: string) => {
    pending.current.push(text)
    setMessage('')
    window.clearTimeout(timer.current)
    timer.current = window.setTimeout(() => {
      const text = pending.current.join(' ')
      pending.current = []
      // Rendered now: left to React's batching, a message given meanwhile (a page's title a moment later)
      // would clear this one in the same commit, and it would never be said.
      flushSync(() => { setMessage(text) })
    }, 150)
  }, [])
  return (
    <AnnounceContext.Provider value={announce}>
      {children}
      <div role='status' aria-live='polite' aria-atomic='true' className='visually-hidden'>{message}</div>
    </AnnounceContext.Provider>
  )
}

export const useAnnounce = (): ((text: string) => void) => useContext(AnnounceContext)
