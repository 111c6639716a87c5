import { expect, fill, test } from './fixtures.js'
import { admin, choose, continueTo, createRequest, getAs, postAs, registerPerson, uniquePoint } from './journeys.js'
import { atBothWidths, say, signInAs, typeDate } from './say.js'

/**
 * Words of regular help in the person's language, by keyboard with axe, in English and German at 320 and 1280
 * px: regular help is not asked "Urgent: today" (and an earlier such answer is asked again); a return trip's
 * title is in the requester's language on her series page; a carer is named in words in the access log.
 */

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)

for (const lang of ['en', 'de'] as const) {
  const s = (key: string, values: Record<string, string | number> = {}) => say(lang, key, values)
  test.describe(`regular help in words (${lang})`, () => {
    test.use({ locale: lang === 'de' ? 'de-DE' : 'en-GB', timezoneId: 'UTC', viewport: { width: 1280, height: 800 } })

    test(`regular help is not offered "Urgent: today"; changing once to regularly asks the urgency again (${lang})`, async ({ page, request, checkA11y }) => {
      const rita = await registerPerson(request, 'Rita', 'Regular', { ...uniquePoint(), address: '1 Main Street', city: 'Springfield' })
      await signInAs(page, lang, rita)
      const next = async (heading: string) => { await continueTo(page, heading, s('ask.continue')) }
      const urgencies = page.getByRole('radio')
      await page.goto('/ask')
      await expect(page.getByRole('heading', { level: 1, name: s('ask.kind') })).toBeFocused()
      await choose(page, s('kinds.2'))
      await next(s('ask.titleField'))
      await fill(page, s('ask.titleField'), 'Lift to dialysis')
      await next(s('ask.description'))
      await fill(page, s('ask.description'), 'A lift to the clinic on Main Street and back home')
      await next(s('ask.place.question'))
      await choose(page, new RegExp(`^${s('ask.place.home')}`))
      await next(s('ask.addressQuestion'))
      await next(s('regular.often'))
      await choose(page, s('regular.once'))
      await next(s('ask.when'))
      await choose(page, s('ask.timing.any'))
      // Once: all four, "Urgent: today" among them, chosen.
      await next(s('ask.urgency'))
      await expect(urgencies).toHaveCount(4)
      await choose(page, s('urgency.urgent'))
      await next(s('ask.contactQuestion'))
      await next(s('ask.check.heading'))

      // Now regularly: the new questions, then the urgency again, since "today" is no answer for regular help.
      await page.getByRole('link', { name: `${s('ask.check.change')} ${s('regular.check.often')}` }).press('Enter')
      await expect(page.getByRole('heading', { level: 1, name: s('regular.often') })).toBeFocused()
      await choose(page, s('regular.regular'))
      await next(s('regular.days'))
      const tuesday = new Intl.DateTimeFormat(lang === 'de' ? 'de-DE' : 'en-GB', { weekday: 'long', timeZone: 'UTC' }).format(new Date('2027-03-16T12:00:00Z'))
      await page.getByRole('checkbox', { name: tuesday }).focus()
      await page.keyboard.press('Space')
      await next(s('regular.times'))
      await fill(page, s('regular.start'), '07:30')
      await fill(page, s('regular.end'), '10:30')
      await next(s('regular.return'))
      await choose(page, s('regular.returnNo'))
      await next(s('regular.dates'))
      await typeDate(page, lang, s('regular.from'), tomorrow())
      await next(s('ask.urgency'))
      await atBothWidths(page, checkA11y, s('ask.urgency'), async () => {
        await expect(urgencies).toHaveCount(3)
        await expect(page.getByRole('radio', { name: s('urgency.urgent') })).toHaveCount(0)
        await expect(page.getByRole('radiogroup')).toHaveAccessibleDescription(s('ask.urgencyRegularHint'))
        for (const radio of await urgencies.all()) await expect(radio).not.toBeChecked()
      })
      await choose(page, s('urgency.high'))
      await next(s('ask.check.heading'))
      await continueTo(page, 'Lift to dialysis', s('regular.send'))
      const id = Number(/\/series\/(\d+)$/.exec(page.url())?.[1])
      expect(await getAs(request, `/request-series/${id}`, rita)).toMatchObject({ template: { urgency: 'high' } })
    })

    test(`a return trip is named in the requester's language on her series page (${lang})`, async ({ page, request, checkA11y }) => {
      const rita = await registerPerson(request, 'Rita', 'Regular')
      await request.patch('/api/v1/users/me', { headers: { authorization: `Bearer ${rita.token}` }, data: { locale: lang } })
      const title = lang === 'de' ? 'Fahrt zur Dialyse' : 'Lift to dialysis'
      const series = await postAs(request, '/request-series', rita, {
        template: { request_type_id: 2, title, description: 'A lift to the clinic and back home again', address: '1 Main Street', urgency: 'medium', ...uniquePoint() },
        days: ['mon', 'wed', 'fri'],
        start_time: '08:00',
        duration_minutes: 60,
        return_time: '12:00',
        starts_on: tomorrow(),
        time_zone: 'UTC',
      }) as { id: number }
      await postAs(request, `/moderation/series/${series.id}/approve`, { token: await admin(request) }, {})
      await signInAs(page, lang, rita)
      await page.goto(`/series/${series.id}`)
      const back = `${lang === 'de' ? 'Rückfahrt' : 'Return'}: ${title}`
      const coming = page.getByRole('region', { name: s('regular.coming') })
      await atBothWidths(page, checkA11y, title, async () => {
        await expect(coming.getByText(back, { exact: true }).first()).toBeVisible()
        // In German, no English word for it.
        if (lang === 'de') await expect(coming.getByText(/Return: /)).toHaveCount(0)
      })
    })

    test(`the access log names a carer in words (${lang})`, async ({ page, request, checkA11y }) => {
      const rita = await registerPerson(request, 'Rita', 'Person')
      const carl = await registerPerson(request, 'Carl', 'Carer')
      const grant = await postAs(request, '/users/me/trusted-people', rita, { email: carl.email, can: ['accept'] }) as { id: number }
      await postAs(request, `/users/me/acting-for/${grant.id}/accept`, carl)
      const id = await createRequest(request, rita, { ...uniquePoint(), title: 'Lift to the clinic', contact_phone: '+49 30 1234567' })
      // Carl reads Rita's request with its contact phone: a record in her log, as her carer.
      await getAs(request, `/requests/${id}`, carl)
      await signInAs(page, lang, rita)
      await page.goto(`/requests/${id}/access-log`)
      const heading = s('accessLog.requestTitle')
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
      const record = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2, name: 'Carl Carer' }) })
      await atBothWidths(page, checkA11y, heading, async () => {
        await expect(record).toContainText(s('accessLog.roles.carer'))
        if (lang === 'de') await expect(record).not.toContainText(/\bcarer\b/)
      })
    })
  })
}
