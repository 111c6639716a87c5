import type { Page } from '@playwright/test'
import { expect, expectNoHorizontalScroll, expectSaid, fill, recordSaid, scanA11y, tabTo, test } from './fixtures.js'
import { accept, activeSeries, approve, choose, continueTo, createRequest, dayAhead, getAs, navLink, offer, registerPerson, signIn, uniquePoint } from './journeys.js'
import { say, signInAs, typeDate } from './say.js'

/**
 * Help on a schedule in the browser (docs/web/schedule.md), by keyboard with axe, in English and German: regular
 * help set up one question a page up to its summary in words; the series page with its dates and who helps on
 * each, and stopping it; coming help with "I'll be there"; the calendar address; "Ask again" after nobody could
 * help in time, and "Yes, still needed". Set-up through the API; real time throughout (web/e2e/server.ts runs the
 * schedule's jobs every second), so windows lie a day or more ahead.
 */

const ZONE = 'Europe/Berlin'
test.use({ timezoneId: ZONE })

/** "5 December" (with the year when not this year's), as the page says a day. */
function sayDay (day: string, locale: string): string {
  const [year, month, date] = day.split('-').map(Number)
  const withYear = year !== new Date().getFullYear()
  return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', ...(withYear ? { year: 'numeric' } : {}), timeZone: 'UTC' }).format(new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, date ?? 1)))
}

/** Axe and nothing wider than the window, at every step. */
async function scan (page: Page, include?: string): Promise<void> {
  await scanA11y(page, include)
  await expectNoHorizontalScroll(page)
}

test('regular help in plain words, one question a page, by keyboard: days, times, a way back, dates, the summary to check, sent (en)', async ({ page, request }) => {
  const home = uniquePoint()
  const rita = await registerPerson(request, 'Rita', 'Regular', { ...home, address: '1 Main Street', city: 'Springfield' })
  await signIn(page, rita)
  const heading = (name: string) => page.getByRole('heading', { level: 1, name, exact: true })
  const summary = page.locator('.error-summary')
  const next = async (name: string, button = 'Continue') => { await continueTo(page, name, button); await scan(page) }

  await (await navLink(page, 'Ask for help')).press('Enter')
  await expect(heading('What kind of help do you need?')).toBeFocused()
  await choose(page, 'Transport and escort')
  await next('Short title')
  await fill(page, 'Short title', 'Lift to dialysis')
  await next('What do you need help with?')
  await fill(page, 'What do you need help with?', 'A lift to the clinic on Main Street and back home')
  await next('Where do you need help?')
  await choose(page, /^At my home/)
  await next('What is the address?')
  await next('How often do you need this help?')
  await choose(page, 'Regularly, on the same days each week')
  await next('On which days?')

  // Checkboxes by Space; Continue with none says so in the summary, whose link leads to the first day.
  await page.getByRole('button', { name: 'Continue' }).press('Enter')
  await expect(summary).toBeFocused()
  await expect(summary.getByRole('link')).toHaveText(['Choose at least one day'])
  await summary.getByRole('link').press('Enter')
  await expect(page.getByRole('checkbox', { name: 'Monday' })).toBeFocused()
  for (const day of ['Tuesday', 'Thursday']) {
    await page.getByRole('checkbox', { name: day }).focus()
    await page.keyboard.press('Space')
    await expect(page.getByRole('checkbox', { name: day })).toBeChecked()
  }
  await next('At what time, and until when?')

  // An end before the start is refused beside the field and in the summary.
  await fill(page, 'From', '7.30')
  await fill(page, 'Until', '07:00')
  await page.getByRole('button', { name: 'Continue' }).press('Enter')
  await expect(summary.getByRole('link')).toHaveText(['Enter an end 15 minutes to 12 hours after the start, on the same day'])
  await expect(page).toHaveTitle(/^Error: /)
  await fill(page, 'Until', '10:30')
  await next('Do you need a way back on the same day?')
  await choose(page, 'Yes, at a time I give')
  await fill(page, 'Time to go back', '12:00')
  await next('From which date?')
  const from = dayAhead(7, ZONE)
  await typeDate(page, 'en', 'First day', from)
  await next('How urgent is it?')
  await choose(page, /^Medium/)
  await next('How can the volunteer reach you?')
  await next('Check your answers before sending your request')

  // The whole plan in one sentence, then each answer with its Change link.
  const plan = `Every Tuesday and Thursday, 07:30 to 10:30, and back at 12:00, from ${sayDay(from, 'en-GB')}.`
  await expect(page.locator('.inset-text')).toHaveText(plan)
  await expect(page.getByRole('link', { name: 'Change Days' })).toBeVisible()
  await page.getByRole('link', { name: 'Change Way back' }).press('Enter')
  await expect(heading('Do you need a way back on the same day?')).toBeFocused()
  await expect(page.getByRole('textbox', { name: 'Time to go back' })).toHaveValue('12:00')
  await next('Check your answers before sending your request')

  await continueTo(page, 'Lift to dialysis', 'Send regular help')
  await expect(page).toHaveURL(/\/series\/\d+$/)
  await expect(page.getByText('Status: Waiting for a moderator')).toBeVisible()
  await expect(page.locator('.inset-text')).toHaveText(plan.slice(0, -1))
  await expectSaid(page, 'Your regular help was sent.')
  await scan(page)
  const id = Number(/\/series\/(\d+)$/.exec(page.url())?.[1])
  expect(await getAs(request, `/request-series/${id}`, rita)).toMatchObject({
    days: ['tue', 'thu'],
    start_time: '07:30',
    duration_minutes: 180,
    return_time: '12:00',
    starts_on: from,
    ends_on: null,
    time_zone: ZONE,
    status: 'pending_moderation',
    template: { title: 'Lift to dialysis', address: '1 Main Street', urgency: 'medium' },
  })
})

test('the series page lists the coming dates with who is helping, and stopping it asks first (de, 320 px)', async ({ browser, request }) => {
  const rita = await registerPerson(request, 'Rita', 'Reihe')
  const vera = await registerPerson(request, 'Vera', 'Helper')
  const series = await activeSeries(request, rita, 'Fahrt zur Dialyse', ZONE)
  await accept(request, series.first, await offer(request, series.first, vera), rita)

  const context = await browser.newContext({ locale: 'de-DE', timezoneId: ZONE, viewport: { width: 320, height: 800 } })
  const page = await context.newPage()
  await recordSaid(page)
  await signInAs(page, 'de', { ...rita })
  await (await navLink(page, 'Ihre Anfragen', { nav: 'Hauptmenü', menu: 'Menü' })).press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: 'Ihre Anfragen' })).toBeFocused()
  const link = page.getByRole('region', { name: 'Ihre regelmäßige Hilfe' }).getByRole('link', { name: 'Fahrt zur Dialyse' })
  await tabTo(page, link)
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: 'Fahrt zur Dialyse' })).toBeFocused()
  await expect(page.getByText(say('de', 'request.statusLine', { status: 'Aktiv' }))).toBeVisible()
  await expect(page.locator('.inset-text')).toHaveText(`Jeden Montag, Mittwoch und Freitag, 09:00 bis 10:00 Uhr, ab ${sayDay(dayAhead(1, ZONE), 'de-DE')}`)
  const dates = page.getByRole('region', { name: 'Nächste Termine' }).getByRole('listitem')
  await expect(dates.first()).toContainText('Vera Helper hilft')
  await expect(dates.nth(1)).toContainText('Noch hilft niemand')
  await scan(page)

  // Stopping: a dialog first; then every coming date is cancelled.
  await page.getByRole('button', { name: 'Diese regelmäßige Hilfe beenden' }).press('Enter')
  const dialog = page.getByRole('dialog', { name: 'Diese regelmäßige Hilfe beenden?' })
  await expect(dialog).toBeVisible()
  await scan(page, '[role=dialog]')
  await dialog.getByRole('button', { name: 'Ja, beenden' }).press('Enter')
  await expect(page.getByText(say('de', 'request.statusLine', { status: 'Beendet' }))).toBeVisible()
  await expectSaid(page, say('de', 'regular.stopped'))
  await expect(page.getByText('Noch keine Termine.')).toBeVisible()
  await scan(page)
  expect(await getAs(request, `/request-series/${series.id}`, rita)).toMatchObject({ status: 'ended' })
  await context.close()
})

test('nobody could help in time: "Ask again" sends it once more; an open request can be said to be still needed (en)', async ({ page, request }) => {
  const rita = await registerPerson(request, 'Rita', 'Again')
  const point = uniquePoint()
  // A date a moment ahead, approved at once: the schedule's job (every second here) closes it as expired once it passes.
  const expired = await createRequest(request, rita, { ...point, title: 'Post the parcel', desired_completion_date: new Date(Date.now() + 1_500).toISOString() })
  // And one with a window starting a moment ahead: asking again asks for the day, at the same times.
  const start = Date.now() + 1_500
  const windowed = await createRequest(request, rita, { ...point, title: 'Lift to the pharmacy', window_start: new Date(start).toISOString(), window_end: new Date(start + 3_600_000).toISOString() })
  await approve(request, expired)
  await approve(request, windowed)
  for (const id of [expired, windowed]) {
    await expect.poll(async () => (await getAs(request, `/requests/${id}`, rita) as { cancel_reason: string | null }).cancel_reason, { timeout: 15_000 }).toBe('expired')
  }
  const open = await createRequest(request, rita, { ...point, title: 'Water the plants' })
  await approve(request, open)

  await signIn(page, rita)
  await page.goto(`/requests/${expired}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Post the parcel' })).toBeVisible()
  await expect(page.getByRole('heading', { level: 2, name: 'Nobody could help in time' })).toBeVisible()
  await scan(page)
  await tabTo(page, page.getByRole('button', { name: 'Ask again' }), 60)
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: 'Post the parcel' })).toBeFocused()
  await expect(page).not.toHaveURL(new RegExp(`/requests/${expired}$`))
  await expect(page.getByText('Status: Waiting for a moderator')).toBeVisible()
  await expectSaid(page, 'Asked again.')
  const again = Number(/\/requests\/(\d+)$/.exec(page.url())?.[1])
  expect(await getAs(request, `/requests/${again}`, rita)).toMatchObject({ title: 'Post the parcel', address: '1 Main Street', status: 'pending_moderation', desired_completion_date: null })

  await page.goto(`/requests/${windowed}`)
  await expect(page.getByRole('heading', { level: 2, name: 'Nobody could help in time' })).toBeVisible()
  const day = page.getByLabel('On which day?')
  // The same weekday next week is suggested; the same times of day are kept.
  const suggested = await day.inputValue()
  await tabTo(page, page.getByRole('button', { name: 'Ask again' }), 60)
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: 'Lift to the pharmacy' })).toBeFocused()
  const moved = await getAs(request, `/requests/${Number(/\/requests\/(\d+)$/.exec(page.url())?.[1])}`, rita) as { window_start: string, window_end: string }
  expect(Date.parse(moved.window_start) - start).toBe(7 * 86_400_000 - (start % 60_000))
  expect(Date.parse(moved.window_end) - Date.parse(moved.window_start)).toBe(3_600_000)
  expect(dayAhead(7, ZONE)).toBe(suggested)

  await page.goto(`/requests/${open}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Water the plants' })).toBeVisible()
  await tabTo(page, page.getByRole('button', { name: 'Yes, still needed' }), 60)
  await page.keyboard.press('Enter')
  await expectSaid(page, 'Thank you. Your request stays open.')
  await expect(page.getByRole('heading', { level: 1, name: 'Water the plants' })).toBeFocused()
  await scan(page)
})
