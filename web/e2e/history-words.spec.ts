import { expect, test } from './fixtures.js'
import { approve, createRequest, getAs, registerPerson, uniquePoint } from './journeys.js'
import { h1, phone, scan } from './phone.js'
import { say, signInAs } from './say.js'

/**
 * The timeline tells a requester kindly and truthfully when an alert round found no volunteer free nearby
 * (docs/api/help.md › Catch-up alerts: such a round no longer ends the rounds, they go on), in English and German, at 320 px.
 */
for (const lang of ['en', 'de'] as const) {
  test(`an alert round that found nobody reads as "none free yet, still looking" to the requester (${lang})`, async ({ browser, request }) => {
    // A point of its own, so no volunteer is near it.
    const rita = await registerPerson(request, 'Rita', 'Alone')
    const title = `Lonely errand (${lang})`
    const id = await createRequest(request, rita, { ...uniquePoint(), title })
    await approve(request, id)
    // The first round runs within 2 s of approval (docs/alerts.md).
    await expect.poll(async () => {
      const history = await getAs(request, `/requests/${id}/history`, rita) as Array<{ action: string, details: { alerted?: number } | null }>
      return history.find((entry) => entry.action === 'alert_round')?.details?.alerted
    }, { timeout: 10_000 }).toBe(0)

    const { page, problems } = await phone(browser, lang)
    await signInAs(page, lang, rita)
    await page.goto(`/requests/${id}`)
    await expect(h1(page, title)).toBeVisible()
    const round = page.locator('.timeline-item').filter({ hasText: say(lang, 'history.actions.alert_round') })
    await expect(round).toContainText(say(lang, 'history.details.roundAlerted_zero', { round: 1 }))
    await expect(round).not.toContainText(/\b0\b/)
    await round.scrollIntoViewIfNeeded()
    await scan(page)
    expect(problems).toEqual([])
    await page.context().close()
  })
}
