import { useQuery } from '@tanstack/react-query'
import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useLocation } from 'react-router'
import { api } from '../api/client'
import { unwrap } from '../api/errors'
import { canCoordinate, canModerate, canViewReports, isAdmin, isVolunteer, useMyRoles } from '../api/use-my-roles'
import { useSession } from '../api/use-session'
import { SignOutButton, useSignOutOnArrival } from '../features/account/sign-out'

const NAV_LIST_ID = 'site-nav-list'

/** Whether the person has made at least one of these (a page of one is enough); `settled` once known or refused. */
function useAny (path: '/api/v1/requests/my' | '/api/v1/responses/my', enabled: boolean): { any: boolean, settled: boolean } {
  const query = useQuery({
    // Under the key of the page that lists them, so that what refreshes that list refreshes this too.
    queryKey: ['get', path, 'any'],
    queryFn: ({ signal }) => unwrap(api.GET(path, { params: { query: { limit: '1' } }, signal })),
    enabled,
    staleTime: 60_000,
  })
  return { any: (query.data?.length ?? 0) > 0, settled: !enabled || query.data !== undefined || query.errorUpdateCount > 0 }
}

/**
 * What the signed-in person does here, for the menu's order: every account may ask and offer (all have the
 * volunteer role), so roles alone do not say it. `helper`: has offered help and never asked for it.
 */
export function useMenuUse (): { helper: boolean, settled: boolean } {
  // Asked as soon as someone is signed in, beside the roles rather than after them (the header waits for both);
  // without the volunteer role the offers are refused (403), which reads as none.
  const enabled = useSession().status === 'signed-in'
  const asked = useAny('/api/v1/requests/my', enabled)
  const offered = useAny('/api/v1/responses/my', enabled)
  return { helper: offered.any && !asked.any, settled: asked.settled && offered.settled }
}

/** A menu link that says whether it is the current page (aria-current="page") or the section the page is in ("true"). */
function NavLink ({ href, children }: { href: string, children: ReactNode }) {
  const { pathname } = useLocation()
  const current = pathname === href ? 'page' : pathname.startsWith(`${href}/`) ? 'true' : undefined
  return <li><Link href={href} aria-current={current}>{children}</Link></li>
}

/**
 * The links of a signed-in person, ordered by what they do: moderation and administration first for those
 * roles; then their own requests and volunteering, volunteering first for someone who has offered help and
 * never asked for it (a person who only asks gets "Ask for help" and "My requests" first); then the inbox,
 * the profile, the settings (how notifications reach the person) and signing out.
 */
function SignedInLinks ({ unread, helper }: { unread: number | undefined, helper: boolean }) {
  const { t } = useTranslation()
  const roles = useMyRoles()
  const asking = [
    <NavLink key='ask' href='/ask'>{t('ask.title')}</NavLink>,
    <NavLink key='mine' href='/requests/mine'>{t('mine.title')}</NavLink>,
  ]
  const helping = isVolunteer(roles)
    ? [
      <NavLink key='find' href='/find-help'>{t('volunteer.nav.find')}</NavLink>,
      <NavLink key='offers' href='/my-offers'>{t('volunteer.nav.offers')}</NavLink>,
      <NavLink key='availability' href='/availability'>{t('availability.nav')}</NavLink>,
      ]
    : []
  return (
    <>
      {canCoordinate(roles) ? <NavLink href='/clients'>{t('coordinator.nav')}</NavLink> : null}
      {canModerate(roles) ? <NavLink href='/moderation'>{t('moderation.nav')}</NavLink> : null}
      {isAdmin(roles) ? <NavLink href='/admin/users'>{t('admin.nav')}</NavLink> : null}
      {canViewReports(roles) ? <NavLink href='/reports'>{t('reports.nav')}</NavLink> : null}
      {helper ? [...helping, ...asking] : [...asking, ...helping]}
      {/* Its name says how many are unread ("Notifications, 3 unread"). */}
      <NavLink href='/notifications'>{unread !== undefined && unread > 0 ? t('notifications.navUnread', { count: unread }) : t('notifications.nav')}</NavLink>
      <NavLink href='/profile'>{t('profile.title')}</NavLink>
      <NavLink href='/settings/notifications'>{t('settings.menu')}</NavLink>
      <li><SignOutButton /></li>
    </>
  )
}

/**
 * The site's menu. On a narrow screen it is folded behind a "Menu" button (a disclosure, as GOV.UK's header and
 * service navigation do: aria-expanded, aria-controls), so that the page, not the menu, fills a phone's screen;
 * from 48em the button is hidden and the links are shown (styles.css). It folds again after each navigation.
 */
export function SiteNav ({ signedIn, unread, helper, tools }: { signedIn: boolean, unread: number | undefined, helper: boolean, tools: ReactNode }) {
  const { t } = useTranslation()
  const { pathname } = useLocation()
  useSignOutOnArrival()
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
        <button ref={button} type='button' className='menu-button' aria-expanded={open} aria-controls={NAV_LIST_ID} onClick={() => { setOpen(!open) }} onKeyDown={onKeyDown}>
          {t('nav.menu')}
        </button>
      </div>
      <nav aria-label={t('nav.label')} className='site-nav' onKeyDown={onKeyDown}>
        <ul id={NAV_LIST_ID} data-open={open}>
          {signedIn
            ? <SignedInLinks unread={unread} helper={helper} />
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
