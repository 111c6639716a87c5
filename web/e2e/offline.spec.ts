import type { Page } from '@playwright/test'
import { expect, expectNoHorizontalScroll, test } from './fixtures.js'
import { accept, approve, createRequest, followNav, offer, registerPerson, signIn, uniquePoint } from './journeys.js'

/** "at 14:02": the time the page was last seen, as the notice writes it (en-GB and de-DE both write 24-hour hh:mm). */
const LAST_SEEN = /at \d{2}:\d{2}; it is not live\./

/** The notice, a region named by its heading, and the page still there under it. */
async function expectOfflineNotice (page: Page, title = 'You are offline', lastSeen: RegExp = LAST_SEEN): Promise<void> {
  const notice = page.getByRole('region', { name: title })
  await expect(notice).toBeVisible()
  await expect(notice).toContainText(lastSeen)
}

/** Beyond the walk-through: what a person last saw of their own requests and accepted help stays readable offline. */
test.describe('without a connection', () => {
  test('a requester reads their requests offline, is told it is not live, and an action is refused in words', async ({ page, context, request, checkA11y }) => {
    const point = uniquePoint()
    const requester = await registerPerson(request, 'Olga', 'Offline')
    const id = await createRequest(request, requester, { ...point, title: 'Collect the library books', urgency: 'medium' })
    await signIn(page, requester)
    await followNav(page, 'Your requests', 'Your requests')
    await expect(page.getByRole('link', { name: 'Collect the library books' })).toBeVisible()
    await expect(page.getByRole('region', { name: 'You are offline' })).toHaveCount(0)
    await page.getByRole('link', { name: 'Collect the library books' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Collect the library books' })).toBeFocused()

    await context.setOffline(true)
    await followNav(page, 'Your requests', 'Your requests')
    await expectOfflineNotice(page)
    await expect(page.getByRole('link', { name: 'Collect the library books' })).toBeVisible()
    await checkA11y()
    await page.getByRole('link', { name: 'Collect the library books' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Collect the library books' })).toBeFocused()
    await expectOfflineNotice(page)
    await expect(page).toHaveURL(new RegExp(`/requests/${id}$`))

    // In German (its texts load on first use, so chosen online) and 320 px wide: still readable, nothing cut off.
    await context.setOffline(false)
    await page.getByRole('button', { name: 'Deutsch' }).press('Enter')
    await expect(page.getByRole('navigation', { name: 'Hauptmenü' })).toBeVisible()
    await context.setOffline(true)
    await page.setViewportSize({ width: 320, height: 640 })
    await expectOfflineNotice(page, 'Sie sind offline', /um \d{2}:\d{2} gesehen; es ist nicht aktuell\./)
    await expectNoHorizontalScroll(page)
    await checkA11y()

    // Back online, the notice goes.
    await context.setOffline(false)
    await expect(page.getByRole('region', { name: 'Sie sind offline' })).toHaveCount(0)
  })

  test('a volunteer reads the help they were accepted for offline; offering help offline is refused in words', async ({ page, context, request, checkA11y }) => {
    const point = uniquePoint()
    const requester = await registerPerson(request, 'Rita', 'Asker')
    const accepted = await createRequest(request, requester, { ...point, title: 'Walk the dog on Sunday', urgency: 'high' })
    await approve(request, accepted)
    const open = await createRequest(request, requester, { ...point, title: 'Hang the curtains', urgency: 'low' })
    await approve(request, open)
    const volunteer = await registerPerson(request, 'Vic', 'Helper', point)
    await accept(request, accepted, await offer(request, accepted, volunteer), requester)

    await signIn(page, volunteer)
    await page.goto(`/find-help/${open}`)
    await expect(page.getByRole('heading', { level: 1, name: 'Hang the curtains' })).toBeVisible()
    await followNav(page, 'My offers', 'My offers')
    await expect(page.getByRole('link', { name: 'Walk the dog on Sunday' })).toBeVisible()

    await context.setOffline(true)
    // An action: refused at once, in words, in the error summary.
    await page.goBack()
    await expect(page.getByRole('heading', { level: 1, name: 'Hang the curtains' })).toBeVisible()
    await expectOfflineNotice(page)
    await page.getByRole('button', { name: 'Offer help' }).press('Enter')
    await expect(page.getByRole('alert')).toContainText('You are offline, so this was not sent. Try again when you are back online.')
    await checkA11y()

    await followNav(page, 'My offers', 'My offers')
    await expectOfflineNotice(page)
    await expect(page.getByRole('link', { name: 'Walk the dog on Sunday' })).toBeVisible()
    await checkA11y()
  })
})
