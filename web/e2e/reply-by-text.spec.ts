import type { APIRequestContext } from '@playwright/test'
import { expect, expectNoHorizontalScroll, scanA11y, test } from './fixtures.js'
import { approve, createRequest, germanPage, north, registerPerson, signIn, uniquePoint, type Person } from './journeys.js'
import { say } from './say.js'
import { confirmPhone, nextText, replyFrom } from './sms.js'

/**
 * docs/api/messaging.md › Texts › Replies with a code, and docs/web/on-behalf.md's timeline: a volunteer with only a
 * phone offers help by replying YES and the code to the alert texted to him; the requester's timeline says the offer
 * came by text message.
 */

async function put (api: APIRequestContext, person: Person, path: string, data: unknown): Promise<void> {
  const response = await api.put(`/api/v1${path}`, { headers: { authorization: `Bearer ${person.token}` }, data })
  expect(response.ok(), `PUT ${path}: ${response.status()} ${await response.text()}`).toBe(true)
}

for (const lang of ['en', 'de'] as const) {
  test(`an offer made by replying YES to an alert shows in the requester's timeline as by text message (${lang})`, async ({ page, browser, request, baseURL }) => {
    const s = (key: string, values: Record<string, string | number> = {}) => say(lang, key, values)
    const point = uniquePoint()
    const rosa = await registerPerson(request, 'Rosa', 'Byphone', lang === 'de' ? { locale: 'de' } : {})
    const jonas = await registerPerson(request, 'Jonas', 'Texter')
    await put(request, jonas, '/users/me/availability', { on_duty: true, ...north(point, 400), radius_meters: 5000 })
    const phone = await confirmPhone(request, baseURL!, jonas)
    await put(request, jonas, '/users/me/notification-settings', { sms: { enabled: true, types: ['request_alert'] } })

    const title = lang === 'de' ? 'Fahrt zum Augenarzt' : 'Lift to the eye doctor'
    const id = await createRequest(request, rosa, { title, ...point })
    await approve(request, id)
    // The alert goes by text within the service's next round, with the code that answers it.
    const alert = await nextText(baseURL!, phone, 1)
    const code = /\bYES (\d{4})\b/.exec(alert.text)?.[1]
    expect(code, alert.text).toBeDefined()
    await replyFrom(baseURL!, phone, `yes ${code!}`)
    expect((await nextText(baseURL!, phone, 2)).text).toBe(`Thank you! Your offer to help with "${title}" is sent. We will text you when it is accepted.`)

    const rosaPage = lang === 'de' ? await germanPage(browser, rosa, undefined, 320) : page
    if (lang === 'en') await signIn(rosaPage, rosa)
    await rosaPage.goto(`/requests/${id}`)
    await expect(rosaPage.getByRole('heading', { level: 1, name: title })).toBeVisible()
    const offered = rosaPage.locator('.timeline-item').filter({ hasText: s('history.actions.offer_made') })
    await expect(offered).toContainText(s('history.details.bySms'))
    await expect(offered).toContainText('Jonas Texter')
    await scanA11y(rosaPage)
    if (lang === 'de') {
      await expectNoHorizontalScroll(rosaPage)
      await rosaPage.context().close()
    }
  })
}
