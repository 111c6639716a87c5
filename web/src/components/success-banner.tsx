import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useLocation } from 'react-router'
import { useAnnounce } from './announcer'

/**
 * What a message says is so, as a key and the value it had when said ("offer:12" was "pending"): a page that
 * reads a newer value calls useSuccessHolds, and a message no longer true goes.
 */
export interface Holds { key: string, value: string }

/** A success message and the page (path) it belongs on: the page an action stays on, or the page it leads to. */
interface Shown { message: string, path: string, holds?: Holds }

interface Success {
  shown: Shown | undefined
  show: (message: string, landsOn?: string, holds?: Holds) => void
  hide: (shown: Shown) => void
}
const SuccessContext = createContext<Success>({ shown: undefined, show: () => {}, hide: () => {} })

/**
 * Holds the one success message of the last action (GOV.UK's notification banner, success variant), above the
 * routes so that it survives the navigation an action may end with. It is shown on the page it belongs to and
 * goes once the person leaves that page, as a banner on a freshly loaded page would, or once what it says stops
 * being true (useSuccessHolds).
 */
export function SuccessProvider ({ children }: { children: ReactNode }) {
  const { pathname } = useLocation()
  const announce = useAnnounce()
  const [shown, setShown] = useState<Shown | undefined>(undefined)
  const seen = useRef(false)
  const show = useCallback((message: string, landsOn?: string, holds?: Holds) => {
    seen.current = false
    // Only the path counts: a query (`?next=`) or fragment does not make it another page.
    const path = landsOn === undefined ? window.location.pathname : new URL(landsOn, window.location.origin).pathname
    setShown({ message, path, ...(holds !== undefined ? { holds } : {}) })
    // Spoken here, once, by the live region: the banner itself is not a live region (it would be said twice).
    announce(message)
  }, [announce])
  const hide = useCallback((gone: Shown) => { setShown((now) => now === gone ? undefined : now) }, [])
  useEffect(() => {
    if (shown === undefined) return
    if (pathname === shown.path) seen.current = true
    else if (seen.current) setShown(undefined)
  }, [pathname, shown])
  const value = useMemo(() => ({ shown, show, hide }), [shown, show, hide])
  return <SuccessContext.Provider value={value}>{children}</SuccessContext.Provider>
}

/**
 * Says that an action worked: shown as a banner on the page the person lands on (`landsOn`, a path; by default the
 * page they are on) and spoken once. For an action that navigates, call it before navigating. `holds`: what the
 * message says is so, for a message that a later change makes untrue ("sent, being checked" once it is open).
 */
export const useSuccess = (): ((message: string, landsOn?: string, holds?: Holds) => void) => useContext(SuccessContext).show

/**
 * A page's reading of what a success message may have said (`key`, now `value`; undefined while unknown): the
 * banner goes when its message was said of another value, e.g. "Your offer is sent" once the offer is accepted.
 */
export function useSuccessHolds (key: string, value: string | undefined): void {
  const { shown, hide } = useContext(SuccessContext)
  useEffect(() => {
    if (shown?.holds === undefined || value === undefined) return
    if (shown.holds.key === key && shown.holds.value !== value) hide(shown)
  }, [shown, key, value, hide])
}

/**
 * The banner, placed by Page right before the h1 (where GOV.UK puts it); nothing when there is no message for this page.
 * A new message the person cannot see (on a phone, after pressing a button far down the page) is scrolled into view;
 * focus stays where the page put it, the message having been said by the live region.
 */
export function SuccessBanner () {
  const { t } = useTranslation()
  const { shown } = useContext(SuccessContext)
  const { pathname } = useLocation()
  const banner = useRef<HTMLDivElement>(null)
  const visible = shown !== undefined && shown.path === pathname
  useLayoutEffect(() => {
    if (!visible) return
    // After the frame in which the page moved focus (which may have scrolled), so that the banner is what shows.
    const frame = requestAnimationFrame(() => {
      const box = banner.current?.getBoundingClientRect()
      if (box !== undefined && (box.top < 0 || box.bottom > window.innerHeight)) banner.current?.scrollIntoView({ block: 'start' })
    })
    return () => { cancelAnimationFrame(frame) }
  }, [visible, shown])
  if (!visible) return null
  return (
    <div ref={banner} className='notification-banner success' role='region' aria-labelledby='success-banner-title'>
      <h2 id='success-banner-title' className='notification-banner-title'>{t('success.title')}</h2>
      <p className='notification-banner-message'>{shown.message}</p>
    </div>
  )
}
