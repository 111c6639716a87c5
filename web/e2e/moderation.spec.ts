import type { Page } from '@playwright/test'
import { expect, expectAnnounced, expectNoHorizontalScroll, scanA11y, test } from './fixtures.js'
import { createRequest, followNav, giveRole, registerPerson, signIn, uniquePoint } from './journeys.js'

/** The queue's item headings in the order shown (the queue is shared by every test's pending requests). */
const queueTitles = (page: Page) => page.getByRole('article').getByRole('heading', { level: 3 }).allInnerTexts()

async function moderator (request: Parameters<typeof registerPerson>[0]) {
  const person = await registerPerson(request, 'Mona', 'Moderator')
  await giveRole(request, person, 2)
  return person
}

test.describe('moderation: the queue by urgency, approve, reject with a reason, decided by me', () => {
  test('decisions by keyboard: each is announced and focus moves to the next request', async ({ page, request, checkA11y }) => {
    const marker = Date.now().toString(36)
    const requester = await registerPerson(request, 'Rita', 'Asker')
    const titles = { low: `Low ${marker} sort the post`, urgent: `Urgent ${marker} no food left`, high: `High ${marker} lift to hospital` }
    for (const urgency of ['low', 'urgent', 'high'] as const) {
      await createRequest(request, requester, { ...uniquePoint(), title: titles[urgency], urgency })
    }
    await signIn(page, await moderator(request))
    await followNav(page, 'Moderation', 'Requests waiting for a decision')
    await expect(page.getByRole('navigation', { name: 'Moderation pages' }).getByRole('link', { name: 'Requests waiting for a decision' })).toHaveAttribute('aria-current', 'page')
    await checkA11y()

    // Most urgent first.
    const shown = await queueTitles(page)
    const mine = shown.filter((title) => title.includes(marker))
    expect(mine).toEqual([titles.urgent, titles.high, titles.low])
    const urgent = page.getByRole('article', { name: titles.urgent })
    await expect(urgent).toContainText('Rita Asker')
    await expect(urgent).toContainText('Milk, bread and vegetables')

    // Approve: announced, and focus on the request that now stands where it stood.
    const afterUrgent = shown[shown.indexOf(titles.urgent) + 1]!
    await urgent.getByRole('button', { name: `Approve: ${titles.urgent}` }).press('Enter')
    await expectAnnounced(page, `Approved: ${titles.urgent}.`)
    // The focused heading is that title (other tests' requests in the shared queue may bear it too).
    await expect(page.getByRole('heading', { level: 3, name: afterUrgent, exact: true }).and(page.locator(':focus'))).toBeFocused()
    await expect(page.getByRole('article', { name: titles.urgent })).toHaveCount(0)

    // Reject needs a reason, asked for in a dialog.
    const rejectButton = page.getByRole('button', { name: `Reject: ${titles.high}` })
    await rejectButton.press('Enter')
    const dialog = page.getByRole('dialog', { name: `Reject “${titles.high}”` })
    await expect(dialog).toBeVisible()
    await checkA11y('[role=dialog]')
    // The dialog itself takes focus, so its title is read first; Tab reaches the reason.
    await expect(dialog).toBeFocused()
    const reason = dialog.getByRole('textbox', { name: 'Reason for rejecting' })
    await page.keyboard.press('Tab')
    await expect(reason).toBeFocused()
    await page.keyboard.press('Tab')
    await expect(dialog.getByRole('button', { name: 'Reject request' })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(dialog.getByRole('alert')).toContainText('Enter the reason for rejecting')
    await expect(reason).toHaveAccessibleDescription(/Enter the reason for rejecting/)
    await checkA11y('[role=dialog]')
    // Escape closes without deciding; focus goes back to the button that opened it.
    await page.keyboard.press('Escape')
    await expect(dialog).toHaveCount(0)
    await expect(rejectButton).toBeFocused()
    await rejectButton.press('Enter')
    await reason.focus()
    await page.keyboard.type('Please say which hospital and when.')
    await dialog.getByRole('button', { name: 'Reject request' }).press('Enter')
    await expect(dialog).toHaveCount(0)
    await expectAnnounced(page, `Rejected: ${titles.high}.`)
    const now = await queueTitles(page)
    expect(now).not.toContain(titles.high)
    const afterHigh = shown.filter((title) => title !== titles.urgent)[shown.filter((title) => title !== titles.urgent).indexOf(titles.high) + 1]!
    await expect(page.getByRole('heading', { level: 3, name: afterHigh, exact: true }).and(page.locator(':focus'))).toBeFocused()

    // Decided by me: each as it stands now.
    await page.getByRole('navigation', { name: 'Moderation pages' }).getByRole('link', { name: 'Decided by me' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Decided by me' })).toBeFocused()
    await expect(page.getByRole('article', { name: titles.urgent })).toContainText('Open for offers')
    await expect(page.getByRole('article', { name: titles.high })).toContainText('Rejected')
    await expect(page.getByRole('article', { name: titles.low })).toHaveCount(0)
    await checkA11y()
  })

  test('a request decided meanwhile by someone else is explained beside it', async ({ page, request }) => {
    const requester = await registerPerson(request, 'Rita', 'Asker')
    const title = `Decided twice ${Date.now().toString(36)}`
    const id = await createRequest(request, requester, { ...uniquePoint(), title })
    await signIn(page, await moderator(request))
    await page.goto('/moderation')
    const item = page.getByRole('article', { name: title })
    await expect(item).toBeVisible()
    const other = await moderator(request)
    const approved = await request.post(`/api/v1/moderation/requests/${id}/approve`, { headers: { authorization: `Bearer ${other.token}` }, data: {} })
    expect(approved.status()).toBe(200)
    await item.getByRole('button', { name: `Approve: ${title}` }).press('Enter')
    await expect(item).toContainText('Someone has already decided on this request.')
    await expectAnnounced(page, 'Someone has already decided on this request.')
  })

  test('German: the queue, the open dialog and "decided by me" pass axe; 320 px and 200% zoom without horizontal scrolling', async ({ browser, request }) => {
    const requester = await registerPerson(request, 'Rita', 'Asker')
    const title = `Einkauf ${Date.now().toString(36)} mit einem recht langen Titel für ein schmales Telefon`
    await createRequest(request, requester, { ...uniquePoint(), title, urgency: 'urgent' })
    const person = await moderator(request)
    const context = await browser.newContext({ locale: 'de-DE' })
    const page = await context.newPage()
    const scan = async (include?: string) => { await scanA11y(page, include) }
    await page.goto('/sign-in')
    await page.getByRole('textbox', { name: 'E-Mail-Adresse' }).fill(person.email)
    await page.getByLabel('Passwort', { exact: true }).fill('correct horse battery')
    await page.getByLabel('Passwort', { exact: true }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Hallo, Mona' })).toBeFocused()
    await page.getByRole('navigation', { name: 'Hauptmenü' }).getByRole('link', { name: 'Moderation' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Hilfegesuche, die auf eine Entscheidung warten' })).toBeFocused()
    const item = page.getByRole('article', { name: title })
    await expect(item).toContainText('Dringend')
    await scan()
    await item.getByRole('button', { name: `Ablehnen: ${title}` }).press('Enter')
    const dialog = page.getByRole('dialog', { name: `„${title}“ ablehnen` })
    await expect(dialog).toBeVisible()
    await scan('[role=dialog]')
    await dialog.getByRole('button', { name: 'Hilfegesuch ablehnen' }).press('Enter')
    await expect(dialog.getByRole('alert')).toContainText('Geben Sie den Grund der Ablehnung ein')
    await scan('[role=dialog]')
    for (const [width, height] of [[320, 640], [640, 400]] as const) {
      await page.setViewportSize({ width, height })
      await expectNoHorizontalScroll(page)
    }
    await page.keyboard.press('Escape')
    await expectNoHorizontalScroll(page)
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.getByRole('navigation', { name: 'Seiten der Moderation' }).getByRole('link', { name: 'Von mir entschieden' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Von mir entschieden' })).toBeFocused()
    await scan()
    await page.setViewportSize({ width: 320, height: 640 })
    await expectNoHorizontalScroll(page)
    await context.close()
  })
})
