import { lazy, Suspense, useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react'
import { Button, I18nProvider, Link, RouterProvider } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { matchPath, Navigate, Route, Routes, useHref, useLocation, useNavigate } from 'react-router'
import { useSession } from './api/use-session'
import { useAnnounce } from './components/announcer'
import { HomePage, NotFoundPage } from './features/home'
import { chooseLanguage, loadPageTexts } from './i18n'
import { canCoordinate, canModerate, canViewReports, isAdmin, isVolunteer, useRolesSettled } from './api/use-my-roles'
import { PageErrorBoundary } from './components/page-error-boundary'
import { RoleGate } from './components/role-gate'
import { focusPageHeading } from './components/page'
import { SiteNav, useMenuUse } from './components/site-nav'
import { SuccessProvider } from './components/success-banner'
import { localeOf } from './lib/format'
import { useLiveEvents } from './features/notifications/live-events'
import { useUnreadCount } from './features/notifications/unread'
import { useProfileLocale } from './api/profile-locale'

/**
 * A page loaded on first use (React.lazy), which can also be asked to start loading early. Its code and the English
 * texts the start page does not carry (i18n/start-texts.ts) are asked for together.
 */
interface LazyPage { Page: ComponentType, load: () => Promise<unknown> }
function page<K extends string> (load: () => Promise<Record<K, ComponentType>>, name: K): LazyPage {
  const both = async () => (await Promise.all([load(), loadPageTexts()]))[0]
  return { Page: lazy<ComponentType>(async () => ({ default: (await both())[name] })), load: both }
}

type Access = 'anyone' | 'signed-in' | ((roles: string[] | undefined) => boolean)

/**
 * Every page of the app with its address and who may see it. Every page but the start page loads on first
 * use, so the first page's JavaScript stays within the start page's budget (docs/web.md › Size).
 */
const PAGES: Array<{ path: string, page: LazyPage | { Page: ComponentType, load?: undefined }, access: Access }> = [
  { path: '/', page: { Page: HomePage }, access: 'anyone' },
  { path: '/sign-in', page: page(() => import('./features/account/sign-in'), 'SignInPage'), access: 'anyone' },
  // Getting back in (docs/api/accounts.md › Getting back in and docs/web/accounts.md): the e-mails' links open /forgot-password/code, /sign-in/code and /verify-email.
  { path: '/forgot-password', page: page(() => import('./features/account/forgot-password'), 'ForgotPasswordPage'), access: 'anyone' },
  { path: '/forgot-password/code', page: page(() => import('./features/account/forgot-password'), 'ResetCodePage'), access: 'anyone' },
  { path: '/forgot-password/new-password', page: page(() => import('./features/account/forgot-password'), 'NewPasswordPage'), access: 'anyone' },
  { path: '/sign-in/with-code', page: page(() => import('./features/account/sign-in-code'), 'SignInWithCodePage'), access: 'anyone' },
  { path: '/sign-in/code', page: page(() => import('./features/account/sign-in-code'), 'SignInCodePage'), access: 'anyone' },
  // Signed-out visitors are sent to sign in by the page itself, which first keeps the link's code (verify-email.tsx).
  { path: '/verify-email', page: page(() => import('./features/account/verify-email'), 'VerifyEmailPage'), access: 'anyone' },
  { path: '/register', page: page(() => import('./features/account/register'), 'RegisterPage'), access: 'anyone' },
  { path: '/profile', page: page(() => import('./features/account/profile'), 'ProfilePage'), access: 'signed-in' },
  // docs/web/accounts.md › Texts to your phone: the code texted to the profile's phone, after "Get texts on this phone".
  { path: '/profile/phone-code', page: page(() => import('./features/account/phone-code'), 'PhoneCodePage'), access: 'signed-in' },
  { path: '/ask/*', page: page(() => import('./features/requests/ask/index'), 'AskPage'), access: 'signed-in' },
  { path: '/requests/mine', page: page(() => import('./features/requests/mine'), 'MyRequestsPage'), access: 'signed-in' },
  // Someone else's request shows as the volunteer's page: the two features meet here, not in each other's files.
  {
    path: '/requests/:id',
    page: page(async () => {
      const [{ RequestPage }, { VolunteerRequestPage }] = await Promise.all([import('./features/requests/detail'), import('./features/volunteer/request')])
      return { RequestPage: () => <RequestPage OthersView={VolunteerRequestPage} /> }
    }, 'RequestPage'),
    access: 'signed-in',
  },
  // Help on a schedule (docs/web/schedule.md): a requester's regular help, the coming help of both sides, the calendar feed.
  // A moderator or admin decides on a pending series on its page too: the two features meet here.
  {
    path: '/series/:id',
    page: page(async () => {
      const [{ SeriesPage }, { SeriesDecision }] = await Promise.all([import('./features/requests/series'), import('./features/moderation/series-decision')])
      return { SeriesPage: () => <SeriesPage Decision={SeriesDecision} /> }
    }, 'SeriesPage'),
    access: 'signed-in',
  },
  { path: '/series/:id/change', page: page(() => import('./features/requests/series-change'), 'SeriesChangePage'), access: 'signed-in' },
  { path: '/coming-help', page: page(() => import('./features/volunteer/coming-help'), 'ComingHelpPage'), access: 'signed-in' },
  { path: '/calendar', page: page(() => import('./features/schedule/calendar'), 'CalendarPage'), access: 'signed-in' },
  { path: '/requests/:id/access-log', page: page(() => import('./features/access-log/access-log'), 'RequestAccessLogPage'), access: 'signed-in' },
  { path: '/profile/access-log', page: page(() => import('./features/access-log/access-log'), 'ProfileAccessLogPage'), access: 'signed-in' },
  { path: '/requests/:id/done', page: page(() => import('./features/requests/complete'), 'CompleteDonePage'), access: 'signed-in' },
  { path: '/requests/:id/rating', page: page(() => import('./features/requests/complete'), 'CompleteRatingPage'), access: 'signed-in' },
  { path: '/notifications', page: page(() => import('./features/notifications/notifications'), 'NotificationsPage'), access: 'signed-in' },
  // docs/web/messaging.md: how notifications reach the person; the e-mail footer's unsubscribe page needs no sign-in.
  { path: '/settings/notifications', page: page(() => import('./features/settings/notification-settings'), 'NotificationSettingsPage'), access: 'signed-in' },
  { path: '/unsubscribe', page: page(() => import('./features/settings/unsubscribe'), 'UnsubscribePage'), access: 'anyone' },
  // Safeguarding (docs/web/help.md › Trust on offers): anyone signed in may say they are worried; moderators read and decide.
  { path: '/concerns/new/*', page: page(() => import('./features/concerns/raise'), 'RaiseConcernPage'), access: 'signed-in' },
  { path: '/concerns/mine', page: page(() => import('./features/concerns/mine'), 'MyConcernsPage'), access: 'signed-in' },
  // Volunteer, moderation and administration journeys.
  { path: '/find-help', page: page(() => import('./features/volunteer/find-help'), 'FindHelpPage'), access: isVolunteer },
  { path: '/find-help/:id', page: page(() => import('./features/volunteer/request'), 'VolunteerRequestPage'), access: isVolunteer },
  { path: '/my-offers', page: page(() => import('./features/volunteer/my-offers'), 'MyOffersPage'), access: isVolunteer },
  { path: '/availability', page: page(() => import('./features/volunteer/availability'), 'AvailabilityPage'), access: isVolunteer },
  { path: '/moderation', page: page(() => import('./features/moderation/moderation'), 'ModerationQueuePage'), access: canModerate },
  { path: '/moderation/mine', page: page(() => import('./features/moderation/moderation'), 'ModeratedByMePage'), access: canModerate },
  { path: '/moderation/concerns', page: page(() => import('./features/moderation/concerns'), 'ConcernsQueuePage'), access: canModerate },
  // The texts inbox (docs/web/messaging.md › The texts inbox), among the moderation pages here and among the coordinators' below.
  {
    path: '/moderation/texts',
    page: page(async () => {
      const [{ TextsInboxPage }, { ModerationPages }] = await Promise.all([import('./features/texts/inbox'), import('./features/moderation/moderation')])
      return { ModerationTextsPage: () => <TextsInboxPage Pages={ModerationPages} /> }
    }, 'ModerationTextsPage'),
    access: canModerate,
  },
  { path: '/people/:id', page: page(() => import('./features/admin/person'), 'PersonPage'), access: canModerate },
  // Carers (docs/api/on-behalf.md › Carers): the people who act for me, and the people I act for.
  { path: '/people-who-help-me', page: page(() => import('./features/carers/helpers'), 'PeopleWhoHelpMePage'), access: 'signed-in' },
  { path: '/people-who-help-me/invite/*', page: page(() => import('./features/carers/invite'), 'InvitePage'), access: 'signed-in' },
  { path: '/people-i-help', page: page(() => import('./features/carers/helping'), 'PeopleIHelpPage'), access: 'signed-in' },
  { path: '/people-i-help/:userId', page: page(() => import('./features/carers/helping'), 'PersonIHelpPage'), access: 'signed-in' },
  // The link of an invitation e-mailed to an address without an account: to register or sign in, then answer it.
  { path: '/invitation', page: page(() => import('./features/carers/invitation'), 'InvitationPage'), access: 'anyone' },
  // Reports for funders (docs/api/on-behalf.md › Reports for funders): admins and managers.
  { path: '/reports', page: page(() => import('./features/reports/reports'), 'ReportsPage'), access: canViewReports },
  { path: '/admin/users', page: page(() => import('./features/admin/users'), 'AdminUsersPage'), access: isAdmin },
  // Coordinators (docs/web/on-behalf.md): find or add a client on the phone, ask for help for them, their requests.
  { path: '/clients', page: page(() => import('./features/coordinator/workspace'), 'ClientsPage'), access: canCoordinate },
  { path: '/clients/new', page: page(() => import('./features/coordinator/new-client'), 'NewClientPage'), access: canCoordinate },
  { path: '/clients/requests', page: page(() => import('./features/coordinator/requests'), 'CoordinatedRequestsPage'), access: canCoordinate },
  {
    path: '/clients/texts',
    page: page(async () => {
      const [{ TextsInboxPage }, { CoordinatorPages }] = await Promise.all([import('./features/texts/inbox'), import('./features/coordinator/workspace')])
      return { ClientTextsPage: () => <TextsInboxPage Pages={CoordinatorPages} /> }
    }, 'ClientTextsPage'),
    access: canCoordinate,
  },
  { path: '/clients/:id', page: page(() => import('./features/coordinator/client'), 'ClientPage'), access: canCoordinate },
  { path: '/clients/:id/change', page: page(() => import('./features/coordinator/change-client'), 'ChangeClientPage'), access: canCoordinate },
  { path: '/clients/:id/texts', page: page(() => import('./features/coordinator/client-texts'), 'ClientTextsPage'), access: canCoordinate },
  { path: '/clients/:id/ask/*', page: page(() => import('./features/requests/ask/index'), 'ClientAskPage'), access: canCoordinate },
]

/**
 * Starts loading the code of the page at `path`, so that it arrives while the session is being asked for
 * rather than after (the page is shown only once the session and the roles are known).
 */
export function startLoadingPage (path: string): void {
  // A failure here is not the page's failure: React.lazy asks again when the page is shown, and says so then.
  PAGES.find((entry) => matchPath(entry.path, path) !== null)?.page.load?.().catch(() => {})
}

function pageElement ({ page: { Page }, access }: typeof PAGES[number]): ReactNode {
  if (access === 'anyone') return <Page />
  if (access === 'signed-in') return <SignedIn><Page /></SignedIn>
  return <SignedIn><RoleGate allowed={access}><Page /></RoleGate></SignedIn>
}

/**
 * After a change of page (not the first load): focus the new page's h1 and say its title, so a
 * screen-reader user hears where they are and keyboard users start from the top of the content.
 */
function useFocusOnNavigation (): void {
  const location = useLocation()
  const announce = useAnnounce()
  const previous = useRef<string | undefined>(undefined)
  useEffect(() => {
    const before = previous.current
    previous.current = location.pathname
    // Not on the first load, and not when only the query changed (filters keep their focus),
    // unless the navigation asks for it (e.g. signing out on the start page).
    const asked = (location.state as { focusHeading?: boolean } | null)?.focusHeading === true
    if (before === undefined || (before === location.pathname && !asked)) return
    // A page loaded on first use (React.lazy) shows its h1 only once its code has arrived: wait for it.
    let observer: MutationObserver | undefined
    let frame = 0
    const focusHeading = (): boolean => {
      if (!focusPageHeading()) return false
      // A frame later, so that the page has set its document title.
      frame = requestAnimationFrame(() => announce(document.title))
      return true
    }
    frame = requestAnimationFrame(() => {
      if (focusHeading()) return
      observer = new MutationObserver(() => { if (focusHeading()) observer?.disconnect() })
      observer.observe(document.querySelector('main') ?? document.body, { childList: true, subtree: true })
    })
    return () => {
      cancelAnimationFrame(frame)
      observer?.disconnect()
    }
  }, [location, announce])
}

/** Pages that need an account: signed-out people are sent to sign in, and back afterwards. */
function SignedIn ({ children }: { children: ReactNode }) {
  const { status } = useSession()
  const location = useLocation()
  const { t } = useTranslation()
  if (status === 'unknown') return <p>{t('common.loading')}</p>
  if (status === 'signed-out') return <Navigate to={`/sign-in?next=${encodeURIComponent(location.pathname)}`} replace />
  return children
}

function LanguageSwitch () {
  const { t, i18n } = useTranslation()
  const announce = useAnnounce()
  const [failed, setFailed] = useState(false)
  const other = i18n.language === 'de' ? 'en' : 'de'
  const choose = () => {
    chooseLanguage(other).then(() => { setFailed(false) }, () => {
      setFailed(true)
      announce(t('errors.offline'))
    })
  }
  // Named in its own language, so a person who cannot read the current one still finds it.
  return (
    <>
      <Button className='link-button' onPress={choose}>
        <span lang={other}>{t(`language.${other}`, { lng: other })}</span>
      </Button>
      {failed ? <span className='language-failed'> {t('errors.offline')}</span> : null}
    </>
  )
}

export function App () {
  const navigate = useNavigate()
  const location = useLocation()
  const { t, i18n } = useTranslation()
  const { status, user } = useSession()
  useFocusOnNavigation()
  // The language chosen here is the one of this person's e-mails and pushes (docs/api/messaging.md › Deliveries and e-mail).
  useProfileLocale(status === 'signed-in' ? user?.id : undefined, i18n.language)
  const livePaused = useLiveEvents()
  const rolesSettled = useRolesSettled()
  const unread = useUnreadCount(status === 'signed-in')
  // The header and the page appear together once the session, the roles, the unread count (and whether the person has asked
  // for or offered help: the menu's order) are known:
  // a header that grew afterwards would push the page down as it is being read (and Lighthouse counts it).
  const menuUse = useMenuUse()
  const ready = status === 'signed-out' || (status === 'signed-in' && rolesSettled && unread.settled && menuUse.settled)

  return (
    <RouterProvider navigate={(path) => { void navigate(path) }} useHref={useHref}>
      <I18nProvider locale={localeOf(i18n.language)}>
        <SuccessProvider>
          <a href='#main' className='skip-link'>{t('app.skip')}</a>
          <header className='site-header'>
            <Link href='/' className='brand'>{t('app.name')}</Link>
            {/* Shown whole once ready (above): growing in place, it would move down under the name on a phone. */}
            {ready ? <SiteNav signedIn={status === 'signed-in'} unread={unread.count} helper={menuUse.helper} tools={<LanguageSwitch />} /> : null}
            {user !== undefined && ready ? <p className='signed-in-as'>{t('account.signedInAs', { name: `${user.first_name} ${user.last_name}` })}</p> : null}
            {/* Said once by the live region when it happens (live-events.ts); shown while it lasts. */}
            {livePaused ? <p className='live-paused'>{t('notifications.paused')}</p> : null}
          </header>
          <main id='main' tabIndex={-1}>
            {ready
              ? (
                <PageErrorBoundary resetKey={location.pathname}>
                  <Suspense fallback={<p>{t('common.loading')}</p>}>
                    <Routes>
                      {PAGES.map((entry) => <Route key={entry.path} path={entry.path} element={pageElement(entry)} />)}
                      <Route path='*' element={<NotFoundPage />} />
                    </Routes>
                  </Suspense>
                </PageErrorBoundary>
                )
              : <p className='visually-hidden'>{t('common.loading')}</p>}
          </main>
        </SuccessProvider>
      </I18nProvider>
    </RouterProvider>
  )
}
