import type { APIRequestContext, Page } from '@playwright/test'
import { expect, expectNoHorizontalScroll, expectSaid, recordSaid, scanA11y, tabTo, test } from './fixtures.js'
import { accept, activeSeries, approve, createRequest, getAs, offer, postAs, registerPerson, signIn, uniquePoint, type Person } from './journeys.js'
import { signInAs } from './say.js'

/**
 * Help on a schedule in the browser (docs/api/schedule.md), by keyboard with axe, in English and German: regular
 * help set up one question a page up to its summary in words; the series page with its dates and who helps on
 * each, and stopping it; coming help with "I'll be there"; the calendar address; "Ask again" after nobody could
 * help in time, and "Yes, still needed". Set-up through the API; real time throughout (web/e2e/server.ts runs the
 * schedule's jobs every second), so windows lie a day or more ahead.
 */

const ZONE = 'Europe/Berlin'
test.use({ timezoneId: ZONE })

/** Axe and nothing wider than the window, at every step. */
async function scan (page: Page, include?: string): Promise<void> {
  await scanA11y(page, include)
  await expectNoHorizontalScroll(page)
}

/** A request of Rita's with a window `hoursAhead` from now, accepted from Vera: in progress, hers to come to. */
async function visit (api: APIRequestContext, rita: Person, vera: Person, title: string, hoursAhead: number): Promise<number> {
  const start = Date.now() + hoursAhead * 3_600_000
  const id = await createRequest(api, rita, { ...uniquePoint(), title, window_start: new Date(start).toISOString(), window_end: new Date(start + 3_600_000).toISOString() })
  await approve(api, id)
  await accept(api, id, await offer(api, id, vera), rita)
  return id
}

test('coming help: dates in words, "I\'ll be there" on the one due, "I can\'t this time" asks first (en)', async ({ page, request }) => {
  const rita = await registerPerson(request, 'Rita', 'Asker')
  const vera = await registerPerson(request, 'Vera', 'Coming')
  // Tomorrow's is due for confirmation (within CONFIRM_BEFORE_HOURS); next week's can be given up.
  const soon = await visit(request, rita, vera, 'Lift to the eye clinic', 20)
  await visit(request, rita, vera, 'Carry the shopping upstairs', 24 * 6)
  await signIn(page, vera)
  await tabTo(page, page.getByRole('main').getByRole('link', { name: 'Coming help' }))
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: 'Coming help' })).toBeFocused()
  const card = (title: string) => page.getByRole('listitem').filter({ hasText: title })
  await expect(card('Lift to the eye clinic')).toContainText('You are helping Rita Asker.')
  await expect(card('Lift to the eye clinic')).toContainText('Please confirm that you will be there.')
  // The date in words: the day's name, day and month (en-GB), in this device's zone.
  await expect(card('Lift to the eye clinic').getByRole('heading', { level: 3 })).toHaveText(/^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday) \d{1,2} \w+, \d{2}:\d{2}/)
  await scan(page)

  await tabTo(page, card('Lift to the eye clinic').getByRole('button', { name: /^I'll be there \(Lift to the eye clinic, / }), 60)
  await page.keyboard.press('Enter')
  await expect(card('Lift to the eye clinic')).toContainText('You confirmed that you will be there.')
  await expectSaid(page, 'Thank you. You confirmed that you will be there')
  expect((await getAs(request, `/requests/${soon}`, vera) as { confirmed_at: string | null }).confirmed_at).not.toBeNull()

  await card('Carry the shopping upstairs').getByRole('button', { name: /^I can't this time \(Carry the shopping upstairs, / }).press('Enter')
  const dialog = page.getByRole('dialog', { name: 'Withdraw your offer?' })
  await expect(dialog).toContainText('Rita Asker accepted your offer and is counting on you.')
  await scan(page, '[role=dialog]')
  await dialog.getByRole('button', { name: 'Yes, withdraw my offer' }).press('Enter')
  await expectSaid(page, 'You are no longer helping with “Carry the shopping upstairs”.')
  await expect(card('Carry the shopping upstairs')).toHaveCount(0)
  await expect(page.getByRole('heading', { level: 2, name: 'Coming up' })).toBeFocused()
})

test('add to my calendar: the address to copy, a new one stops the old, stop sharing (de, 320 px)', async ({ browser, request }) => {
  const rita = await registerPerson(request, 'Rita', 'Kalender')
  const vera = await registerPerson(request, 'Vera', 'Kalender')
  await visit(request, rita, vera, 'Fahrt zur Augenklinik', 30)
  const context = await browser.newContext({ locale: 'de-DE', timezoneId: ZONE, viewport: { width: 320, height: 800 }, permissions: ['clipboard-read', 'clipboard-write'] })
  const page = await context.newPage()
  await recordSaid(page)
  await signInAs(page, 'de', vera)
  await page.goto('/coming-help')
  await expect(page.getByRole('heading', { level: 1, name: 'Anstehende Hilfe' })).toBeVisible()
  await tabTo(page, page.getByRole('link', { name: 'In meinen Kalender aufnehmen' }))
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: 'In meinen Kalender aufnehmen' })).toBeFocused()
  await scan(page)

  await page.getByRole('button', { name: 'Meine Kalenderadresse erstellen' }).press('Enter')
  const field = page.getByRole('textbox', { name: 'Kalenderadresse' })
  await expect(field).toBeFocused()
  const first = await field.inputValue()
  expect(first).toMatch(/\/api\/v1\/calendar\/[^/]+\.ics$/)
  const feed = await request.get(first)
  expect(feed.status()).toBe(200)
  expect(await feed.text()).toContain('Fahrt zur Augenklinik')
  await scan(page)
  await page.getByRole('button', { name: 'Adresse kopieren' }).press('Enter')
  await expectSaid(page, 'Die Adresse ist kopiert.')
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first)

  await page.getByRole('button', { name: 'Neue Adresse erstellen' }).press('Enter')
  await expectSaid(page, 'Eine neue Adresse ist bereit.')
  await expect(field).not.toHaveValue(first)
  const second = await field.inputValue()
  expect((await request.get(first)).status()).toBe(404)
  expect((await request.get(second)).status()).toBe(200)

  await page.getByRole('button', { name: 'Nicht mehr teilen' }).press('Enter')
  await expectSaid(page, 'Teilen beendet.')
  await expect(field).toHaveCount(0)
  expect((await request.get(second)).status()).toBe(404)
  await scan(page)
  await context.close()
})

test('the volunteer who helped well last time is asked first, and can say "I can\'t this time" (en)', async ({ page, request }) => {
  const rita = await registerPerson(request, 'Rita', 'Again')
  const vera = await registerPerson(request, 'Vera', 'Preferred')
  const series = await activeSeries(request, rita, 'Lift to physiotherapy', ZONE)
  // Vera helps on the first date and is rated 5: she becomes the preferred volunteer. A new time makes the dates
  // anew, and each new one is offered to her alone first (series_invitation).
  await accept(request, series.first, await offer(request, series.first, vera), rita)
  await postAs(request, `/requests/${series.first}/complete`, rita, { rating: 5 })
  await request.patch(`/api/v1/request-series/${series.id}`, { headers: { authorization: `Bearer ${rita.token}` }, data: { start_time: '10:00' } })
  const mine = await getAs(request, '/requests/my?limit=100', rita) as Array<{ id: number, series_id: number | null, status: string, window_start: string }>
  const next = mine.filter((item) => item.series_id === series.id && item.status === 'approved').sort((a, b) => Date.parse(a.window_start) - Date.parse(b.window_start))[0]!
  await expect.poll(async () => (await getAs(request, '/notifications?limit=100', vera) as Array<{ type: string, request_id: number }>)
    .some((item) => item.type === 'series_invitation' && item.request_id === next.id)).toBe(true)

  await signIn(page, vera)
  await page.goto(`/find-help/${next.id}`)
  await expect(page.getByRole('heading', { level: 3, name: 'You are asked first' })).toBeVisible()
  await scan(page)
  await tabTo(page, page.getByRole('button', { name: 'I can\'t this time' }), 60)
  await page.keyboard.press('Enter')
  await expectSaid(page, 'Thank you for saying so. Other volunteers are being asked now.')
  await expect(page.getByRole('button', { name: 'I can\'t this time' })).toHaveCount(0)
  // Offering help stays open to her as to anyone.
  await expect(page.getByRole('button', { name: 'Offer help' })).toBeVisible()
})
