import { expect, tabTo, test } from './fixtures.js'
import { accept, approve, createRequest, getAs, registerPerson, uniquePoint } from './journeys.js'
import { h1, phone, scan } from './phone.js'
import { say, signInAs, WIDTHS } from './say.js'

/**
 * A request's timeline is its parties' (docs/api.md): a volunteer reading an open request she is not a party to,
 * and offering help on it, makes the app ask nothing of it (no 404 in the browser's console), in English and German,
 * at 320 and 1280 px, by keyboard with axe; once her offer is accepted she is a party and sees the timeline.
 */
for (const lang of ['en', 'de'] as const) {
  test(`a request's timeline is asked for only when the reader may see it (${lang})`, async ({ browser, request }) => {
    const s = (key: string, values: Record<string, string | number> = {}) => say(lang, key, values)
    const point = uniquePoint()
    const rita = await registerPerson(request, 'Rita', 'Asker')
    const vera = await registerPerson(request, 'Vera', 'Helper', point)
    const title = `Shopping on Friday (${lang})`
    const id = await createRequest(request, rita, { ...point, title })
    await approve(request, id)

    const { page, problems } = await phone(browser, lang)
    const asked: string[] = []
    const errors: string[] = []
    page.on('request', (sent) => { if (new URL(sent.url()).pathname.endsWith('/history')) asked.push(sent.url()) })
    page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()) })
    await signInAs(page, lang, vera)
    await page.goto(`/find-help/${id}`)
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 })
      await expect(h1(page, title)).toBeVisible()
      await expect(page.getByRole('heading', { level: 2, name: s('volunteer.request.yourOffer') })).toBeVisible()
      await scan(page)
    }
    // Offering by keyboard makes her no party yet: still nothing asked.
    const send = page.getByRole('button', { name: s('volunteer.request.send') })
    await tabTo(page, send)
    await send.press('Enter')
    await expect(page.getByRole('heading', { level: 2, name: s('volunteer.request.yourOffer') })).toBeFocused()
    await expect(page.getByText(s('volunteer.request.withdraw'))).toBeVisible()
    await expect(page.getByRole('heading', { level: 2, name: s('history.title') })).toHaveCount(0)
    await scan(page)
    expect(asked, 'history asked for a request the reader is no party to').toEqual([])

    // Accepted: she is its assigned volunteer, and the timeline is hers to read.
    const offers = await getAs(request, `/requests/${id}/responses`, rita) as Array<{ id: number }>
    await accept(request, id, offers[0]!.id, rita)
    await page.reload()
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 })
      await expect(page.getByRole('heading', { level: 2, name: s('history.title') })).toBeVisible()
      await expect(page.locator('.timeline-item').filter({ hasText: s('history.actions.accepted') })).toBeVisible()
      await scan(page)
    }
    expect(asked.length).toBeGreaterThan(0)
    expect(errors, 'console errors').toEqual([])
    expect(problems, 'CSP violations or uncaught errors').toEqual([])
    await page.context().close()
  })
}
