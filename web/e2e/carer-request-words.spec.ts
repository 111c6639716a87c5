import type { Page } from '@playwright/test'
import { expect, tabTo, test } from './fixtures.js'
import { accept, approve, createRequest, getAs, offer, postAs, registerPerson, uniquePoint } from './journeys.js'
import { h1, phone, scan } from './phone.js'
import { say, signInAs, WIDTHS } from './say.js'

/**
 * What Rosa reads about help asked and given for her, in English and German, by keyboard with axe at 320 and 1280 px:
 * the notification of the request her carer Sabine made names Sabine and leads to Rosa's own view of her request
 * (not the volunteer's "you cannot offer help"); her coming help says who is coming ("Vera Helper is coming") for a
 * date Vera confirmed, that Vera has not confirmed yet for another, and "You asked for this help" while nobody is.
 */

const HOUR = 3_600_000
const window = (hours: number) => ({ window_start: new Date(Date.now() + hours * HOUR).toISOString(), window_end: new Date(Date.now() + (hours + 1) * HOUR).toISOString() })

async function atWidths (page: Page, heading: string, check: () => Promise<void>): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 })
    await expect(h1(page, heading)).toBeVisible()
    await check()
    await scan(page)
  }
  await page.setViewportSize({ width: 320, height: 800 })
}

for (const lang of ['en', 'de'] as const) {
  test(`Rosa's notification names her carer and opens her own request; her coming help says who is coming (${lang})`, async ({ browser, request }) => {
    test.setTimeout(120_000)
    const s = (key: string, values: Record<string, string | number> = {}) => say(lang, key, values)
    const point = uniquePoint()
    const rosa = await registerPerson(request, 'Rosa', 'Müller')
    const sabine = await registerPerson(request, 'Sabine', 'Müller')
    const vera = await registerPerson(request, 'Vera', 'Helper', point)
    const grant = await postAs(request, '/users/me/trusted-people', rosa, { email: sabine.email, can: ['create'] }) as { id: number }
    await postAs(request, `/users/me/acting-for/${grant.id}/accept`, sabine)
    const forRosa = `Lift to the doctor (${lang})`
    const made = await createRequest(request, sabine, { ...point, title: forRosa, on_behalf_of: { user_id: rosa.id } })

    // Rosa's own dates: one Vera confirmed, one she has not confirmed yet, one nobody has taken.
    const dated = async (title: string, hours: number, by?: 'accepted' | 'confirmed') => {
      const id = await createRequest(request, rosa, { ...point, title, ...window(hours) })
      await approve(request, id)
      if (by !== undefined) await accept(request, id, await offer(request, id, vera), rosa)
      if (by === 'confirmed') await postAs(request, `/requests/${id}/confirm`, vera)
      return id
    }
    await dated('Dialysis on Monday', 48, 'confirmed')
    await dated('Dialysis on Wednesday', 96, 'accepted')
    await dated('Dialysis on Friday', 144)
    expect((await getAs(request, `/requests/${made}`, rosa) as { requester_id: number }).requester_id).toBe(rosa.id)

    const { page, problems } = await phone(browser, lang)
    await signInAs(page, lang, rosa)
    await page.goto('/notifications')
    const told = page.getByRole('link', { name: s('notifications.about', { text: s('notifications.types.request_created_for_you', { person: 'Sabine Müller' }), title: forRosa }) })
    await atWidths(page, s('notifications.title'), async () => { await expect(told).toBeVisible() })
    await tabTo(page, told)
    await told.press('Enter')
    await expect(h1(page, forRosa)).toBeFocused()
    await atWidths(page, forRosa, async () => {
      // Her own request's page: its status and cancel, not the volunteer's offer form.
      await expect(page.getByText(s('request.awaitingModeration'))).toBeVisible()
      await expect(page.getByRole('button', { name: s('cancel.open') })).toBeVisible()
      await expect(page.getByText(s('volunteer.errors.ownRequest'))).toHaveCount(0)
    })

    await page.goto('/coming-help')
    const card = (title: string) => page.locator('.card').filter({ hasText: title })
    await atWidths(page, s('coming.title'), async () => {
      await expect(card('Dialysis on Monday')).toContainText(s('coming.coming', { name: 'Vera Helper' }))
      await expect(card('Dialysis on Wednesday')).toContainText(s('coming.helpingYou', { name: 'Vera Helper' }))
      await expect(card('Dialysis on Friday')).toContainText(s('coming.asked'))
      await expect(card('Dialysis on Monday')).not.toContainText(s('coming.asked'))
    })
    expect(problems, 'CSP violations or uncaught errors').toEqual([])
    await page.context().close()
  })
}
