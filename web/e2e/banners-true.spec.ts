import { expect, expectNoHorizontalScroll, tabTo, test } from './fixtures.js'
import { accept, approve, registerPerson, uniquePoint } from './journeys.js'
import { say, signInAs, WIDTHS, type Lang } from './say.js'

/**
 * Finding: success banners stayed after they stopped being true ("sent, a moderator checks it" on a request already
 * open for offers; "your offer is sent" after it was accepted), and on a phone the banner appeared above the page's
 * top, out of sight of the button pressed. Now a banner goes when what it said changes (live updates read the
 * request again), and a new banner is scrolled into view (docs/web.md › Success banners).
 */
for (const lang of ['en', 'de'] as const satisfies readonly Lang[]) {
  for (const width of WIDTHS) {
    test.describe(`success banners that stay true (${lang}, ${width} px)`, () => {
      test.use({ locale: lang === 'de' ? 'de-DE' : 'en-GB', viewport: { width, height: 640 } })

      test('"sent, being checked" goes once the request is open; "your offer is sent" goes once it is accepted; both are on screen when they come', async ({ page, request, checkA11y }) => {
        const s = (key: string, values: Record<string, string | number> = {}) => say(lang, key, values)
        const point = uniquePoint()
        const banner = page.getByRole('region', { name: s('success.title') })
        const rosa = await registerPerson(request, 'Rosa', 'Requester', { ...point, address: '1 Main Street', city: 'Springfield' })
        await signInAs(page, lang, rosa)
        // The questions are tested in ask.spec.ts: here the answers are as "Ask for help" keeps them, and Send is pressed by keyboard.
        const title = `Lift to the surgery ${Math.floor(Math.random() * 1e6)}`
        const answers = { kind: '2', title, description: 'A lift to the surgery on Main Street and back', place: 'coordinates', latitude: String(point.latitude), longitude: String(point.longitude), address: '1 Main Street', city: 'Springfield', often: 'once', timing: 'any', urgency: 'medium', phone: '', notes: '' }
        await page.evaluate(({ key, value }) => { sessionStorage.setItem(key, value) }, { key: `ask-answers:${rosa.id}`, value: JSON.stringify(answers) })
        await page.goto('/ask/check')
        await expect(page.getByRole('heading', { level: 1, name: s('ask.check.heading') })).toBeVisible()
        const send = page.getByRole('button', { name: s('ask.send') })
        await tabTo(page, send, 60)
        await page.keyboard.press('Enter')
        await expect(page.getByRole('heading', { level: 1, name: title })).toBeFocused()
        await expect(banner).toContainText(s('ask.sent'))
        await expect(banner).toBeInViewport()
        await checkA11y()
        const id = Number(/\/requests\/(\d+)$/.exec(page.url())?.[1])

        // A moderator approves: the live update reads the request again, and the banner, no longer true, goes.
        await approve(request, id)
        await expect(page.getByText(s('request.statusLine', { status: s('status.approved') }))).toBeVisible()
        await expect(banner).toHaveCount(0)

        // Vera offers by keyboard, the button far down a phone's page: the banner comes into view.
        const vera = await registerPerson(request, 'Vera', 'Volunteer', point)
        await signInAs(page, lang, vera)
        await page.goto(`/find-help/${id}`)
        await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
        const message = page.getByRole('textbox', { name: new RegExp(`^${s('volunteer.request.message', { name: 'Rosa' })}`) })
        await tabTo(page, message, 60)
        await page.keyboard.type('I can drive you at 9:30.')
        await page.keyboard.press('Tab')
        await expect(page.getByRole('button', { name: s('volunteer.request.send') })).toBeFocused()
        await page.keyboard.press('Enter')
        await expect(banner).toContainText(s('volunteer.request.sent'))
        await expect(banner).toBeInViewport()
        await expect(page.getByRole('heading', { level: 2, name: s('volunteer.request.yourOffer') })).toBeFocused()
        await checkA11y()
        await expectNoHorizontalScroll(page)

        // Rosa accepts: Vera's page, told live, says so, and "your offer is sent" goes.
        const offers = await (await request.get(`/api/v1/requests/${id}/responses`, { headers: { authorization: `Bearer ${rosa.token}` } })).json() as Array<{ id: number }>
        await accept(request, id, offers[0]?.id ?? 0, rosa)
        await expect(page.getByText(s('volunteer.request.acceptedHint'))).toBeVisible()
        await expect(banner).toHaveCount(0)
        await checkA11y()
      })
    })
  }
}
