import { expect, expectAnnounced, expectNoHorizontalScroll, test } from './fixtures.js'
import { approve, createRequest, followNav, north, offer, registerPerson, signIn, uniquePoint } from './journeys.js'

/** The main navigation, where the inbox link says how many notifications are unread. */
const nav = (page: import('@playwright/test').Page) => page.getByRole('navigation', { name: 'Main' })

test.describe('live updates: availability, alerts, offers, the inbox', () => {
  test('a volunteer goes on duty by keyboard; an approval elsewhere alerts them without a reload', async ({ page, request, checkA11y }) => {
    const home = uniquePoint()
    const volunteer = await registerPerson(request, 'Vera', 'Helper', home)
    await signIn(page, volunteer)
    await followNav(page, 'When I can help', 'When you can help')
    await expect(page.getByText('You were told about 0 requests in the last 24 hours.')).toBeVisible()
    await checkA11y()

    const onDuty = page.getByRole('switch', { name: /On duty/ })
    await expect(onDuty).not.toBeChecked()
    await onDuty.focus()
    await page.keyboard.press('Space')
    await expect(onDuty).toBeChecked()
    // A radius that is not a number is shown at its field, in the summary, before anything is sent.
    const radius = page.getByRole('textbox', { name: 'How far you can go, in metres' })
    await radius.fill('far')
    await page.getByRole('button', { name: 'Save' }).press('Enter')
    await expect(page.getByRole('alert').getByRole('link', { name: 'Enter a whole number of metres from 100 to 50,000' })).toBeVisible()
    await checkA11y()
    await radius.fill('2000')
    await page.getByRole('button', { name: 'Save' }).press('Enter')
    await expectAnnounced(page, 'Saved. You are on duty.')

    // Someone nearby asks; a moderator approves in another place; the first alert round runs within 2 s.
    const requester = await registerPerson(request, 'Rita', 'Asker')
    const id = await createRequest(request, requester, { ...north(home, 300), title: 'Carry the shopping upstairs', urgency: 'urgent' })
    await approve(request, id)
    await expect(nav(page).getByRole('link', { name: 'Notifications, 1 unread' })).toBeVisible()
    await expect(page.getByRole('status')).toContainText('Help needed 300 m from you: Carry the shopping upstairs (Shopping, Urgent)')

    await followNav(page, 'Notifications, 1 unread', 'Notifications')
    const alert = page.getByRole('link', { name: 'Help needed 300 m from you: Carry the shopping upstairs (Shopping, Urgent)' })
    await expect(alert).toBeVisible()
    await checkA11y()
    await page.getByRole('button', { name: 'Mark all as read' }).press('Enter')
    await expectAnnounced(page, 'All notifications marked as read.')
    await expect(nav(page).getByRole('link', { name: 'Notifications', exact: true })).toBeVisible()
    await alert.press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Carry the shopping upstairs' })).toBeFocused()
  })

  test('a requester sees an offer arrive on their request without a reload', async ({ page, request }) => {
    const requester = await registerPerson(request, 'Rita', 'Asker')
    const id = await createRequest(request, requester, { ...uniquePoint(), title: 'Lift to the clinic' })
    await approve(request, id)
    await signIn(page, requester)
    await page.goto(`/requests/${id}`)
    await expect(page.getByRole('heading', { level: 1, name: 'Lift to the clinic' })).toBeVisible()
    await expect(page.getByText('No offers yet.')).toBeVisible()

    const volunteer = await registerPerson(request, 'Otto', 'Offer')
    await offer(request, id, volunteer, 'I have a car')
    await expect(page.getByRole('heading', { level: 3, name: 'Otto Offer' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Accept offer from Otto Offer' })).toBeVisible()
    await expect(page.getByRole('status')).toContainText('Otto Offer offered to help with your request')
  })

  test('a lost connection says so and retries; the pages pass axe in German at 320 px and 200% zoom', async ({ page, request, checkA11y }) => {
    const volunteer = await registerPerson(request, 'Paula', 'Pause', uniquePoint())
    await page.route('**/api/v1/events', (route) => route.abort('connectionrefused'))
    await signIn(page, volunteer)
    const paused = page.getByText('Live updates paused: reconnecting…', { exact: true })
    await expect(paused).toBeVisible()
    await expect(page.getByRole('status')).toContainText('Live updates paused: reconnecting…')
    await page.unroute('**/api/v1/events')
    await expect(paused).toBeHidden()

    await page.getByRole('button', { name: 'Deutsch' }).press('Enter')
    for (const [path, heading] of [['/notifications', 'Benachrichtigungen'], ['/availability', 'Wann Sie helfen können']] as const) {
      // 320 px wide, and 200% zoom of a 1280 × 800 window (640 × 400 CSS px).
      for (const [width, height] of [[320, 640], [640, 400]] as const) {
        await page.setViewportSize({ width, height })
        await page.goto(path)
        await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
        await expectNoHorizontalScroll(page)
        await checkA11y()
      }
    }
  })

  test('the page still appears when the roles cannot be had (the header waits for them, but not for ever)', async ({ page, request }) => {
    const person = await registerPerson(request, 'Rolf', 'Roleless')
    await page.route('**/api/v1/users/me/roles', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"database unavailable"}' }))
    await page.goto('/sign-in')
    await page.getByRole('textbox', { name: 'Email address' }).fill(person.email)
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery')
    await page.getByRole('button', { name: 'Sign in' }).press('Enter')
    // After the query's retries (about 7 s): the start page and the navigation, without the role links.
    await expect(page.getByRole('heading', { level: 1, name: 'Hello, Rolf' })).toBeVisible({ timeout: 20_000 })
    await expect(nav(page).getByRole('link', { name: 'Ask for help' })).toBeVisible()
    await expect(nav(page).getByRole('link', { name: 'Find help nearby' })).toHaveCount(0)
  })
})
