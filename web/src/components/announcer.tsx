import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react'

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
      setMessage(pending.current.join(' '))
      pending.current = []
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
