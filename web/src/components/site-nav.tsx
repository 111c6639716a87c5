import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { Button, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useLocation, useNavigate } from 'react-router'
import { api } from '../api/client'
import { unwrap } from '../api/errors'
import { CSRF_HEADERS, endSession } from '../api/session'
import { canModerate, isAdmin, isVolunteer, useMyRoles } from '../api/use-my-roles'
import { useSuccess } from './success-banner'

const NAV_LIST_ID = 'site-nav-list'

/** Whether the person has work to do here beyond asking: volunteering, moderating or administering. */
const hasWorkRole = (roles: string[] | undefined): boolean => isVolunteer(roles) || canModerate(roles)

/**
 * Whether the signed-in person has ever asked for help (one request of their own is enough), asked only of
 * people with a work role: for everyone else the menu's order does not depend on it. `settled` once known or failed.
 */
export function useHasAsked (): { asked: boolean, settled: boolean } {
  const roles = useMyRoles()
  const enabled = hasWorkRole(roles)
  const mine = useQuery({
    // Under the key of "My requests", so that asking for help (which refreshes that list) refreshes this too.
    queryKey: ['get', '/api/v1/requests/my', 'any'],
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/requests/my', { params: { query: { limit: '1' } }, signal })),
    enabled,
    staleTime: 60_000,
  })
  return { asked: (mine.data?.length ?? 0) > 0, settled: !enabled || mine.data !== undefined || mine.errorUpdateCount > 0 }
}

/** A menu link that says whether it is the current page (aria-current="page") or the section the page is in ("true"). */
function NavLink ({ href, children }: { href: string, children: ReactNode }) {
  const { pathname } = useLocation()
  const current = pathname === href ? 'page' : pathname.startsWith(`${href}/`) ? 'true' : undefined
  return <li><Link href={href} aria-current={current}>{children}</Link></li>
}

function SignOutButton () {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const success = useSuccess()
  const client = useQueryClient()
  const signOut = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/session/logout', { params: { header: CSRF_HEADERS } })),
    // Signed out here even if the call failed: the access token is forgotten either way.
    onSettled: async () => {
      endSession()
      client.clear()
      success(t('account.signedOut'), '/')
      await navigate('/', { state: { focusHeading: true } })
    },
  })
  return <Button className='link-button' onPress={() => { if (!signOut.isPending) signOut.mutate() }}>{t('account.signOut')}</Button>
}

/**
 * The links of a signed-in person, ordered by what they do: their work (volunteering, moderation,
 * administration: only what their roles allow) first when they have never asked for help, otherwise
 * their own requests first; then the inbox, the profile and signing out.
 */
function SignedInLinks ({ unread, asked }: { unread: number | undefined, asked: boolean }) {
  const { t } = useTranslation()
  const roles = useMyRoles()
  const asking = [
    <NavLink key='ask' href='/ask'>{t('ask.title')}</NavLink>,
    <NavLink key='mine' href='/requests/mine'>{t('mine.title')}</NavLink>,
  ]
  const work = [
    ...(isVolunteer(roles)
      ? [
        <NavLink key='find' href='/find-help'>{t('volunteer.nav.find')}</NavLink>,
        <NavLink key='offers' href='/my-offers'>{t('volunteer.nav.offers')}</NavLink>,
        <NavLink key='availability' href='/availability'>{t('availability.nav')}</NavLink>,
        ]
      : []),
    ...(canModerate(roles) ? [<NavLink key='moderation' href='/moderation'>{t('moderation.nav')}</NavLink>] : []),
    ...(isAdmin(roles) ? [<NavLink key='admin' href='/admin/users'>{t('admin.nav')}</NavLink>] : []),
  ]
  return (
    <>
      {hasWorkRole(roles) && !asked ? [...work, ...asking] : [...asking, ...work]}
      {/* Its name says how many are unread ("Notifications, 3 unread"). */}
      <NavLink href='/notifications'>{unread !== undefined && unread > 0 ? t('notifications.navUnread', { count: unread }) : t('notifications.nav')}</NavLink>
      <NavLink href='/profile'>{t('profile.title')}</NavLink>
      <li><SignOutButton /></li>
    </>
  )
}

/**
 * The site's menu. On a narrow screen it is folded behind a "Menu" button (a disclosure, as GOV.UK's header and
 * service navigation do: aria-expanded, aria-controls), so that the page, not the menu, fills a phone's screen;
 * from 48em the button is hidden and the links are shown (styles.css). It folds again after each navigation.
 */
export function SiteNav ({ signedIn, unread, asked, tools }: { signedIn: boolean, unread: number | undefined, asked: boolean, tools: ReactNode }) {
  const { t } = useTranslation()
  const { pathname } = useLocation()
  // Open on the page where it was opened: any navigation folds it again.
  const [openOn, setOpenOn] = useState<string | undefined>(undefined)
  const open = openOn === pathname
  const setOpen = (next: boolean) => { setOpenOn(next ? pathname : undefined) }
  const button = useRef<HTMLButtonElement>(null)
  // Escape folds the open menu and gives focus back to its button, as a disclosure menu's users expect.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return
    setOpen(false)
    button.current?.focus()
  }
  return (
    <>
      <div className='header-tools'>
        {tools}
        <button ref={button} type='button' className='menu-button' aria-expanded={open} aria-controls={NAV_LIST_ID} onClick={() => { setOpen(!open) }}>
          {t('nav.menu')}
        </button>
      </div>
      <nav aria-label={t('nav.label')} className='site-nav' onKeyDown={onKeyDown}>
        <ul id={NAV_LIST_ID} data-open={open}>
          {signedIn
            ? <SignedInLinks unread={unread} asked={asked} />
            : (
              <>
                <NavLink href='/sign-in'>{t('account.signInTitle')}</NavLink>
                <NavLink href='/register'>{t('account.registerTitle')}</NavLink>
              </>
              )}
        </ul>
      </nav>
    </>
  )
}
