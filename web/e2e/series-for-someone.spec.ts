import type { APIRequestContext, Page } from '@playwright/test'
import { expect, expectNoHorizontalScroll, expectSaid, fill, scanA11y, test } from './fixtures.js'
import { admin, choose, getAs, postAs, registerPerson, uniquePoint, type Person } from './journeys.js'
import { say, signInAs, typeDate, WIDTHS, type Lang } from './say.js'

/**
 * Regular help on someone's behalf in the browser (docs/web/on-behalf.md, docs/api/on-behalf.md › Series for someone), by
 * keyboard with axe, in English and German at 320 and 1280 px: Clara the coordinator sets up Erna's weekly shopping from
 * Erna's record, with questions that speak of Erna and her home as the place, sees its dates once approved, skips one,
 * changes the times and ends it; a carer with `create` sets up her mother's weekly lift from "Helping Rita"; a carer
 * without it is not offered it.
 */

const ZONE = 'Europe/Berlin'
test.use({ timezoneId: ZONE })
const locale = (lang: Lang) => lang === 'de' ? 'de-DE' : 'en-GB'

/** YYYY-MM-DD `days` from now in the tests' zone. */
const dayAhead = (days: number): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(Date.now() + days * 86_400_000))

async function scan (page: Page): Promise<void> {
  await scanA11y(page)
  await expectNoHorizontalScroll(page)
}
const h1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true })

/** Presses a button or link by the keyboard and waits for the next page's h1 to take focus, then axe. */
async function go (page: Page, target: ReturnType<Page['getByRole']>, heading: string): Promise<void> {
  await target.press('Enter')
  await expect(h1(page, heading)).toBeFocused()
  await scan(page)
}

/** Each of `days` ticked by Space. */
async function tick (page: Page, names: string[]): Promise<void> {
  for (const name of names) {
    const box = page.getByRole('checkbox', { name, exact: true })
    await box.focus()
    await page.keyboard.press('Space')
    await expect(box).toBeChecked()
  }
}

/** `owner` makes `carer` her carer with `can`, accepted. */
async function grant (api: APIRequestContext, owner: Person, carer: Person, can: string[]): Promise<void> {
  const invitation = await postAs(api, '/users/me/trusted-people', owner, { email: carer.email, can }) as { id: number }
  await postAs(api, `/users/me/acting-for/${invitation.id}/accept`, carer)
}

const CLIENTS = { en: { first: 'Erna', last: 'Schmidt', width: 1280 }, de: { first: 'Greta', last: 'Vogel', width: 320 } } as const

for (const lang of ['en', 'de'] as const) {
  const s = (key: string, values: Record<string, string | number> = {}) => say(lang, key, values)

  test.describe(`regular help for someone (${lang})`, () => {
    test.use({ locale: locale(lang) })

    test('a coordinator sets up a client\'s weekly shopping by keyboard, sees its dates, skips one, changes it and ends it', async ({ page, request }) => {
      test.setTimeout(180_000)
      const { first, last, width } = CLIENTS[lang]
      await page.setViewportSize({ width, height: 900 })
      const clara = await registerPerson(request, 'Clara', 'Koch')
      await postAs(request, `/admin/users/${clara.id}/roles/4`, { token: await admin(request) })
      const family = `${last}${Math.random().toString(36).slice(2, 6)}`
      const client = await postAs(request, '/clients', clara, {
        first_name: first, last_name: family, phone: '+49305550101', address: 'Lindenweg 4', city: 'Berlin', ...uniquePoint(), consent: { how: 'phone' },
      }) as { id: number }
      await signInAs(page, lang, clara)
      await page.goto(`/clients/${client.id}`)
      await expect(h1(page, `${first} ${family}`)).toBeVisible()
      const list = page.getByRole('region', { name: s('regular.for.listHeading', { name: first }) })
      await expect(list).toContainText(s('regular.for.none', { name: first }))
      await scan(page)

      // The series questions speak of the client; her home is the place offered first, its address filled in.
      await go(page, page.getByRole('link', { name: s('regular.for.setUp', { name: first }) }), s('ask.for.kind', { name: first }))
      const next = (heading: string, button = s('ask.continue')) => go(page, page.getByRole('button', { name: button, exact: true }), heading)
      await choose(page, s('kinds.1'))
      await next(s('ask.titleField'))
      const title = lang === 'en' ? 'Weekly shopping for Erna' : 'Wocheneinkauf für Greta'
      await fill(page, s('ask.titleField'), title)
      await next(s('ask.for.description', { name: first }))
      await fill(page, s('ask.for.description', { name: first }), lang === 'en' ? 'Milk, bread and apples from the market' : 'Milch, Brot und Äpfel vom Markt')
      await next(s('ask.for.placeQuestion', { name: first }))
      await choose(page, new RegExp(`^${s('coordinator.ask.home', { name: first })}`))
      await next(s('ask.addressQuestion'))
      await expect(page.getByRole('textbox', { name: s('profile.address'), exact: true })).toHaveValue('Lindenweg 4')
      await next(s('regular.for.often', { name: first }))
      // Chosen by "Set up regular help", and still asked, so it can be changed.
      await expect(page.getByRole('radio', { name: new RegExp(`^${s('regular.regular')}`) })).toBeChecked()
      await next(s('regular.days'))
      await expect(page.getByText(s('regular.for.daysHint', { name: first }))).toBeVisible()
      const [tuesday, friday] = lang === 'en' ? ['Tuesday', 'Friday'] : ['Dienstag', 'Freitag']
      await tick(page, [tuesday, friday])
      await next(s('regular.times'))
      await fill(page, s('regular.start'), '09:00')
      await fill(page, s('regular.end'), '11:00')
      await next(s('regular.for.return', { name: first }))
      await choose(page, s('regular.returnNo'))
      await next(s('regular.dates'))
      await typeDate(page, lang, s('regular.from'), dayAhead(1))
      await next(s('ask.urgency'))
      await choose(page, new RegExp(`^${s('urgency.medium')}`))
      await next(s('ask.for.contactQuestion', { name: first }))
      await expect(page.getByRole('textbox', { name: `${s('ask.phone')} ${s('form.optional')}` })).toHaveValue('+49305550101')
      await next(s('ask.for.checkHeading', { name: first }))
      await expect(page.locator('.summary-row').first()).toContainText(`${first} ${family}`)
      await expect(page.locator('.summary-row').filter({ hasText: s('regular.check.often') })).toContainText(s('regular.regular'))
      await go(page, page.getByRole('button', { name: s('regular.send') }), title)
      await expectSaid(page, s('regular.for.sent', { name: first }))
      const short = `${first} ${family.charAt(0)}.`
      await expect(page.locator('.caption')).toHaveText(s('regular.for.caption', { name: short }))
      const id = Number(/\/series\/(\d+)$/.exec(page.url())?.[1])
      expect(await getAs(request, `/request-series/${id}`, clara)).toMatchObject({
        requester_id: clara.id, client_id: client.id, days: ['tue', 'fri'], start_time: '09:00', duration_minutes: 120, template: { address: 'Lindenweg 4', contact_phone: '+49305550101' },
      })

      // Approved: its dates, each to skip; one skipped through its dialog, the rest stay.
      await postAs(request, `/moderation/series/${id}/approve`, { token: await admin(request) }, {})
      await page.reload()
      await expect(h1(page, title)).toBeVisible()
      const coming = page.getByRole('region', { name: s('regular.coming') })
      const dates = coming.getByRole('listitem')
      await expect(dates.first()).toContainText(s('regular.nobodyYet'))
      const before = await dates.count()
      expect(before).toBeGreaterThan(2)
      const firstDate = (await dates.first().getByRole('heading', { level: 3 }).textContent()) ?? ''
      await scan(page)
      await coming.getByRole('button', { name: s('regular.skip.open', { date: firstDate }) }).press('Enter')
      const dialog = page.getByRole('dialog', { name: s('regular.skip.title', { date: firstDate }) })
      await expect(dialog).toBeVisible()
      await scanA11y(page, '[role=dialog]')
      await dialog.getByRole('button', { name: s('regular.skip.confirm') }).press('Enter')
      await expect(h1(page, title)).toBeFocused()
      await expectSaid(page, s('regular.skip.done', { date: firstDate }))
      await expect(dates).toHaveCount(before - 1)
      await expect(coming.getByRole('heading', { level: 3, name: firstDate })).toHaveCount(0)

      // Changed: the times, in one short form; the plan in words follows.
      await go(page, page.getByRole('link', { name: s('regular.change.open') }), s('regular.change.title'))
      await expect(page.getByRole('checkbox', { name: tuesday, exact: true })).toBeChecked()
      await fill(page, s('regular.start'), '10:00')
      await fill(page, s('regular.end'), '09:00')
      await page.getByRole('button', { name: s('regular.change.save') }).press('Enter')
      const summary = page.locator('.error-summary')
      await expect(summary).toBeFocused()
      await expect(summary.getByRole('link')).toHaveText([s('regular.errors.duration')])
      await scan(page)
      await fill(page, s('regular.end'), '12:00')
      await go(page, page.getByRole('button', { name: s('regular.change.save') }), title)
      await expectSaid(page, s('regular.change.done'))
      await expect(page.locator('.inset-text')).toContainText('10:00')
      expect(await getAs(request, `/request-series/${id}`, clara)).toMatchObject({ start_time: '10:00', duration_minutes: 120, status: 'active' })

      // Listed on her record, then ended from its page.
      await go(page, page.getByRole('link', { name: s('regular.for.backToClient', { name: short }) }), `${first} ${family}`)
      await expect(list.getByRole('link', { name: title })).toBeVisible()
      await go(page, list.getByRole('link', { name: title }), title)
      await page.getByRole('button', { name: s('regular.stop') }).press('Enter')
      await page.getByRole('dialog', { name: s('regular.stopTitle') }).getByRole('button', { name: s('regular.stopConfirm') }).press('Enter')
      await expect(h1(page, title)).toBeFocused()
      await expectSaid(page, s('regular.for.stopped', { name: short }))
      await expect(page.getByText(s('request.statusLine', { status: s('regular.status.ended') }))).toBeVisible()
      await scan(page)
    })

    test('a carer with `create` sets up her mother\'s weekly lift; a carer without it is not offered it', async ({ page, request }) => {
      test.setTimeout(150_000)
      await page.setViewportSize({ width: lang === 'en' ? 320 : 1280, height: 900 })
      const [rita, carla, dora] = [await registerPerson(request, 'Rita', 'Mother'), await registerPerson(request, 'Carla', 'Daughter'), await registerPerson(request, 'Dora', 'Neighbour')]
      const ritaName = `${rita.first} ${rita.last}`
      await grant(request, rita, carla, ['create', 'cancel'])
      await grant(request, rita, dora, ['accept'])
      await signInAs(page, lang, carla)
      await page.goto(`/people-i-help/${rita.id}`)
      await expect(h1(page, s('carers.person.title', { name: ritaName }))).toBeVisible()
      await scan(page)
      await go(page, page.getByRole('link', { name: s('regular.for.setUp', { name: ritaName }) }), s('ask.for.kind', { name: ritaName }))
      await expect(page.locator('.caption')).toHaveText(s('carers.askFor', { name: ritaName }))
      const next = (heading: string, button = s('ask.continue')) => go(page, page.getByRole('button', { name: button, exact: true }), heading)
      await choose(page, s('kinds.1'))
      await next(s('ask.titleField'))
      const title = lang === 'en' ? 'Lift to the day centre' : 'Fahrt zur Tagespflege'
      await fill(page, s('ask.titleField'), title)
      await next(s('ask.for.description', { name: ritaName }))
      await fill(page, s('ask.for.description', { name: ritaName }), lang === 'en' ? 'A lift there in the morning and home at noon' : 'Morgens hin und mittags zurück nach Hause')
      await next(s('ask.for.placeQuestion', { name: ritaName }))
      await choose(page, new RegExp(`^${s('ask.place.coordinates')}`))
      await next(s('ask.place.coordinatesQuestion'))
      await fill(page, s('location.latitude'), lang === 'de' ? '52,52' : '52.52')
      await fill(page, s('location.longitude'), lang === 'de' ? '13,405' : '13.405')
      await next(s('ask.addressQuestion'))
      await fill(page, s('profile.address'), '1 Main Street')
      await next(s('regular.for.often', { name: ritaName }))
      await next(s('regular.days'))
      await tick(page, [lang === 'en' ? 'Monday' : 'Montag'])
      await next(s('regular.times'))
      await fill(page, s('regular.start'), '08:00')
      await fill(page, s('regular.end'), '09:00')
      await next(s('regular.for.return', { name: ritaName }))
      await choose(page, s('regular.for.returnYes'))
      await fill(page, s('regular.backTime'), '12:00')
      await next(s('regular.dates'))
      await typeDate(page, lang, s('regular.from'), dayAhead(1))
      await next(s('ask.urgency'))
      await choose(page, new RegExp(`^${s('urgency.low')}`))
      await next(s('ask.for.contactQuestion', { name: ritaName }))
      await next(s('ask.for.checkHeading', { name: ritaName }))
      await expect(page.locator('.inset-text').last()).toHaveText(s('carers.person.checkFor', { name: ritaName }))
      await go(page, page.getByRole('button', { name: s('regular.send') }), title)
      await expectSaid(page, s('regular.for.sent', { name: ritaName }))
      await expect(page.locator('.caption')).toHaveText(s('regular.for.caption', { name: ritaName }))
      const id = Number(/\/series\/(\d+)$/.exec(page.url())?.[1])
      expect(await getAs(request, `/request-series/${id}`, rita)).toMatchObject({ requester_id: rita.id, client_id: null, days: ['mon'], return_time: '12:00' })
      await expect(page.getByRole('link', { name: s('regular.change.open') })).toBeVisible()
      await expect(page.getByRole('button', { name: s('regular.stop') })).toBeVisible()
      await go(page, page.getByRole('link', { name: s('carers.act.back', { name: ritaName }) }), s('carers.person.title', { name: ritaName }))
      await expect(page.getByRole('region', { name: s('regular.for.listHeading', { name: ritaName }) }).getByRole('link', { name: title })).toBeVisible()

      // Dora may accept offers only: neither kind of asking is offered, the address refuses, her series page has no changes.
      await signInAs(page, lang, dora)
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 })
        await page.goto(`/people-i-help/${rita.id}`)
        await expect(h1(page, s('carers.person.title', { name: ritaName }))).toBeVisible()
        await expect(page.getByRole('region', { name: s('regular.for.listHeading', { name: ritaName }) }).getByRole('link', { name: title })).toBeVisible()
        await expect(page.getByRole('link', { name: s('regular.for.setUp', { name: ritaName }) })).toHaveCount(0)
        await expect(page.getByRole('link', { name: s('carers.person.ask', { name: ritaName }) })).toHaveCount(0)
        await scan(page)
      }
      await page.goto(`/ask?for=${rita.id}&regular`)
      await expect(h1(page, s('carers.person.cannotAsk'))).toBeVisible()
      await scan(page)
      await page.goto(`/series/${id}`)
      await expect(h1(page, title)).toBeVisible()
      await expect(page.getByRole('region', { name: s('regular.coming') })).toBeVisible()
      await expect(page.getByRole('link', { name: s('regular.change.open') })).toHaveCount(0)
      await expect(page.getByRole('button', { name: s('regular.stop') })).toHaveCount(0)
      await scan(page)
    })
  })
}
