import { useEffect, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { SuccessBanner } from './success-banner'

/**
 * A page: its one h1 (focusable, so that the layout can move focus to it after navigation) and the
 * success banner of the last action (success-banner.tsx), and the
 * document title, prefixed "Error:" while the page shows problems (GOV.UK's error summary pattern).
 */
export function Page ({ title, hasErrors = false, before, children }: { title: string, hasErrors?: boolean, before?: ReactNode, children?: ReactNode }) {
  const { t } = useTranslation()
  useEffect(() => {
    document.title = `${hasErrors ? `${t('errors.titlePrefix')} ` : ''}${tabTitle(title, t('app.name'))}`
  }, [title, hasErrors, t])
  return (
    <>
      <SuccessBanner />
      {before}
      <h1 tabIndex={-1}>{title}</h1>
      {children}
    </>
  )
}

/** "Page – Service", GOV.UK's order; the service's own name once when the page is named after it (the start page). */
const tabTitle = (title: string, service: string): string => title === service ? title : `${title} – ${service}`

/**
 * Moves focus to the page's h1, after navigation or after an action that changed the whole page, so
 * that a screen reader reads from there; false while the page has no h1 yet (its code is still loading).
 */
export function focusPageHeading (): boolean {
  const heading = document.querySelector<HTMLElement>('main h1')
  if (heading === null) return false
  heading.focus()
  return true
}
