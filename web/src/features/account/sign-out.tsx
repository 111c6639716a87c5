import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { Button } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useLocation, useNavigate } from 'react-router'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { CSRF_HEADERS, endSession } from '../../api/session'
import { useSuccess } from '../../components/success-banner'

/** Set while a sign-out is on its way to the start page, where the session ends (useSignOutOnArrival). */
let leaving = false

function useEndSession (): () => void {
  const client = useQueryClient()
  return () => {
    leaving = false
    endSession()
    client.clear()
  }
}

/**
 * Called by the header, which outlives every page: the session ends only once the start page shows. Ended
 * while still on a page that needs an account, that page would send the person to sign in instead (the router
 * shows the new page in a transition, a moment later); and the page whose button was pressed is gone by then.
 */
export function useSignOutOnArrival (): void {
  const { pathname } = useLocation()
  const end = useEndSession()
  useEffect(() => { if (leaving && pathname === '/') end() })
}

/**
 * Signing out (docs/web/accounts.md › Signing out): this device's session, or every session of the person.
 * Either way the app forgets its token and goes to the start page, even when the call failed.
 */
function useSignOut (everywhere: boolean): { signOut: () => void } {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const success = useSuccess()
  const end = useEndSession()
  const mutation = useMutation({
    mutationFn: () => unwrap(api.POST(everywhere ? '/api/v1/session/logout-everywhere' : '/api/v1/session/logout', { params: { header: CSRF_HEADERS } })),
    onSettled: async () => {
      success(t(everywhere ? 'account.signedOutEverywhere' : 'account.signedOut'), '/')
      if (window.location.pathname === '/') end()
      else leaving = true
      await navigate('/', { state: { focusHeading: true } })
    },
  })
  return { signOut: () => { if (!mutation.isPending) mutation.mutate() } }
}

/** The menu's "Sign out": this device only. */
export function SignOutButton () {
  const { t } = useTranslation()
  const { signOut } = useSignOut(false)
  return <Button className='link-button' onPress={signOut}>{t('account.signOut')}</Button>
}

/** The profile's "Sign out everywhere", for a computer left signed in or a lost phone. */
export function SignOutEverywhere () {
  const { t } = useTranslation()
  const { signOut } = useSignOut(true)
  return (
    <section aria-labelledby='sign-out-everywhere-heading'>
      <h2 id='sign-out-everywhere-heading'>{t('account.everywhereTitle')}</h2>
      <p>{t('account.everywhereText')}</p>
      <Button className='button secondary' onPress={signOut}>{t('account.everywhere')}</Button>
    </section>
  )
}
