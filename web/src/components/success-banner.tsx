import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useLocation } from 'react-router'
import { useAnnounce } from './announcer'

/** A success message and the page (path) it belongs on: the page an action stays on, or the page it leads to. */
interface Shown { message: string, path: string }

const SuccessContext = createContext<{ shown: Shown | undefined, show: (message: string, landsOn?: string) => void }>({ shown: undefined, show: () => {} })

/**
 * Holds the one success message of the last action (GOV.UK's notification banner, success variant), above the
 * routes so that it survives the navigation an action may end with. It is shown on the page it belongs to and
 * goes once the person leaves that page, as a banner on a freshly loaded page would.
 */
export function SuccessProvider ({ children }: { children: ReactNode }) {
  const { pathname } = useLocation()
  const announce = useAnnounce()
  const [shown, setShown] = useState<Shown | undefined>(undefined)
  const seen = useRef(false)
  const show = useCallback((message: string, landsOn?: string) => {
    seen.current = false
    // Only the path counts: a query (`?next=`) or fragment does not make it another page.
    const path = landsOn === undefined ? window.location.pathname : new URL(landsOn, window.location.origin).pathname
    setShown({ message, path })
    // Spoken here, once, by the live region: the banner itself is not a live region (it would be said twice).
    announce(message)
  }, [announce])
  useEffect(() => {
    if (shown === undefined) return
    if (pathname === shown.path) seen.current = true
    else if (seen.current) setShown(undefined)
  }, [pathname, shown])
  const value = useMemo(() => ({ shown, show }), [shown, show])
  return <SuccessContext.Provider value={value}>{children}</SuccessContext.Provider>
}

/**
 * Says that an action worked: shown as a banner on the page the person lands on (`landsOn`, a path; by default the
 * page they are on) and spoken once. For an action that navigates, call it before navigating.
 */
export const useSuccess = (): ((message: string, landsOn?: string) => void) => useContext(SuccessContext).show

/** The banner, placed by Page right before the h1 (where GOV.UK puts it); nothing when there is no message for this page. */
export function SuccessBanner () {
  const { t } = useTranslation()
  const { shown } = useContext(SuccessContext)
  const { pathname } = useLocation()
  if (shown === undefined || shown.path !== pathname) return null
  return (
    <div className='notification-banner success' role='region' aria-labelledby='success-banner-title'>
      <h2 id='success-banner-title' className='notification-banner-title'>{t('success.title')}</h2>
      <p className='notification-banner-message'>{shown.message}</p>
    </div>
  )
}
