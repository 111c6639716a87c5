import type { APIRequestContext, Page } from '@playwright/test'
import { expect, expectNoHorizontalScroll, expectSaid, fill, recordSaid, scanA11y, test } from './fixtures.js'
import { admin, approve, choose, continueTo, getAs, navLink, offer, postAs, registerPerson, uniquePoint, type Person } from './journeys.js'
import { say, signInAs, type Lang } from './say.js'

/**
 * The coordinator's workspace (docs/web/on-behalf.md) and a request's history, by keyboard with axe, in English and
 * German at 320 px (and 640 × 400, 200% zoom): a coordinator finds no client by the name the caller gives, adds
 * them with their consent (an error summary first), finds them again by their number, asks for help for them in
 * the requester's steps with the client's address and phone filled in, and sees the request in the client list
 * with what to tell the client, from "we are checking" to "Jonas will come on …"; the request's page shows its
 * history as a timeline; the volunteer's page shows it too, and a second coordinator acts on the request.
 */

const ZONE = 'Europe/Berlin'
const locale = (lang: Lang) => lang === 'de' ? 'de-DE' : 'en-GB'
const NAV = (lang: Lang) => ({ nav: say(lang, 'nav.label'), menu: say(lang, 'nav.menu') })

async function scan (page: Page): Promise<void> {
  await scanA11y(page)
  await expectNoHorizontalScroll(page)
}

/** A person with the coordinator role (id 4), given by the admin. */
async function coordinator (api: APIRequestContext, first: string, last: string): Promise<Person> {
  const person = await registerPerson(api, first, last)
  await postAs(api, `/admin/users/${person.id}/roles/4`, { token: await admin(api) })
  return person
}

/** A phone number of the test's own, so that a search by number finds only this client. */
const uniquePhone = (): string => `+4930${String(Math.floor(1_000_000 + Math.random() * 8_999_999))}`

const h1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true })

/** Types into the one search field and presses Enter, as a coordinator on the phone would. */
async function search (page: Page, lang: Lang, text: string): Promise<void> {
  const field = page.getByRole('searchbox', { name: say(lang, 'coordinator.find.label') })
  await field.focus()
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.press('Backspace')
  await page.keyboard.type(text)
  await page.keyboard.press('Enter')
}

const PEOPLE = { en: { first: 'Erna', last: 'Schmidt', jonas: 'Jonas' }, de: { first: 'Greta', last: 'Vogel', jonas: 'Jonas' } } as const

for (const lang of ['en', 'de'] as const) {
  test.describe(`the coordinator's workspace (${lang})`, () => {
    test.use({ locale: locale(lang), timezoneId: ZONE, viewport: { width: 320, height: 800 } })

    test('find or add a client with consent, ask for help for them, and what to tell them; the history timeline', async ({ page, request }) => {
      test.setTimeout(180_000)
      const { first, last } = PEOPLE[lang]
      const suffix = Math.random().toString(36).slice(2, 7)
      const family = `${last}${suffix}`
      const clara = await coordinator(request, 'Clara', 'Koch')
      const phone = uniquePhone()
      const point = uniquePoint()
      await signInAs(page, lang, clara)

      // The workspace from the menu; a name nobody has yet.
      await (await navLink(page, say(lang, 'coordinator.nav'), NAV(lang))).press('Enter')
      await expect(h1(page, say(lang, 'coordinator.find.title'))).toBeFocused()
      await scan(page)
      await search(page, lang, `${first} ${family}`)
      const none = say(lang, 'coordinator.find.none', { q: `${first} ${family}` })
      // The page's paragraph: the live region may say the same words on their own (expectSaid checks those).
      await expect(page.locator('p').filter({ hasText: none })).toBeVisible()
      await expectSaid(page, none)

      // "Add a new client" keeps the name searched for; saving without consent shows the error summary.
      await page.getByRole('link', { name: say(lang, 'coordinator.find.add') }).press('Enter')
      await expect(h1(page, say(lang, 'coordinator.add.title'))).toBeFocused()
      await expect(page.getByRole('textbox', { name: say(lang, 'coordinator.add.firstName') })).toHaveValue(first)
      await expect(page.getByRole('textbox', { name: say(lang, 'coordinator.add.lastName') })).toHaveValue(family)
      await fill(page, `${say(lang, 'coordinator.add.phone')} ${say(lang, 'form.optional')}`, `${phone.slice(0, 3)} ${phone.slice(3, 5)} ${phone.slice(5)}`)
      await fill(page, `${say(lang, 'coordinator.add.address')} ${say(lang, 'form.optional')}`, 'Lindenweg 4')
      await fill(page, `${say(lang, 'coordinator.add.city')} ${say(lang, 'form.optional')}`, 'Berlin')
      await fill(page, `${say(lang, 'coordinator.add.needs')} ${say(lang, 'form.optional')}`, 'wheelchair, needs help on stairs')
      await page.getByRole('button', { name: say(lang, 'coordinator.add.save') }).press('Enter')
      const summary = page.locator('.error-summary')
      await expect(summary).toBeFocused()
      await expect(summary.getByRole('link')).toHaveText([say(lang, 'coordinator.add.errors.consent')])
      await expect(page).toHaveTitle(new RegExp(`^${say(lang, 'errors.titlePrefix')} `))
      await scan(page)
      await summary.getByRole('link').press('Enter')
      await expect(page.getByRole('radio', { name: say(lang, 'coordinator.consent.phone') })).toBeFocused()
      await page.keyboard.press('Space')
      await expect(page.getByRole('radio', { name: say(lang, 'coordinator.consent.phone') })).toBeChecked()
      await page.getByRole('button', { name: say(lang, 'coordinator.add.save') }).press('Enter')
      await expect(h1(page, `${first} ${family}`)).toBeFocused()
      await expect(page.getByRole('region', { name: say(lang, 'success.title') })).toContainText(say(lang, 'coordinator.add.added', { name: `${first} ${family}` }))
      await expect(page.getByText(phone)).toBeVisible()
      await scan(page)

      // Found again by the number, typed as it is said on the phone ("0049 30 …": the digits without 00 or + count).
      const spoken = `00${phone.slice(1, 3)} ${phone.slice(3, 5)} ${phone.slice(5)}`
      await page.getByRole('navigation', { name: say(lang, 'coordinator.pagesLabel') }).getByRole('link', { name: say(lang, 'coordinator.find.title') }).press('Enter')
      await expect(h1(page, say(lang, 'coordinator.find.title'))).toBeFocused()
      await search(page, lang, spoken)
      const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name: `${first} ${family}` }) })
      await expect(card).toBeVisible()
      await expectSaid(page, say(lang, 'coordinator.find.found_one', { count: 1, q: spoken }))
      await scan(page)

      // Asking for help for the client, in the requester's steps: the address and phone are the client's.
      await card.getByRole('link', { name: new RegExp(`^${say(lang, 'coordinator.client.ask', { name: first })}`) }).press('Enter')
      // The questions speak about the client to the coordinator, not to her as if she needed the help.
      const kind = say(lang, 'ask.for.kind', { name: first })
      await expect(h1(page, kind)).toBeFocused()
      await expect(page.getByText(say(lang, 'coordinator.ask.caption', { name: `${first} ${family.charAt(0)}.` }))).toBeVisible()
      await scan(page)
      await choose(page, say(lang, 'kinds.1'))
      await continueTo(page, say(lang, 'ask.titleField'), say(lang, 'ask.continue'))
      const title = `${lang === 'en' ? 'Shopping for Erna' : 'Einkauf für Greta'} ${suffix}`
      await fill(page, say(lang, 'ask.titleField'), title)
      await continueTo(page, say(lang, 'ask.for.description', { name: first }), say(lang, 'ask.continue'))
      await fill(page, say(lang, 'ask.for.description', { name: first }), lang === 'en' ? 'Milk, bread and apples from the market' : 'Milch, Brot und Äpfel vom Markt')
      await continueTo(page, say(lang, 'ask.for.placeQuestion', { name: first }), say(lang, 'ask.continue'))
      // No home on record for this client, and "where I am now" is the coordinator's device: neither is offered.
      await expect(page.getByRole('radio', { name: new RegExp(`^${say(lang, 'ask.place.here')}`) })).toHaveCount(0)
      await choose(page, new RegExp(`^${say(lang, 'ask.place.coordinates')}`))
      await continueTo(page, say(lang, 'ask.place.coordinatesQuestion'), say(lang, 'ask.continue'))
      await fill(page, say(lang, 'location.latitude'), String(point.latitude))
      await fill(page, say(lang, 'location.longitude'), String(point.longitude))
      await continueTo(page, say(lang, 'ask.addressQuestion'), say(lang, 'ask.continue'))
      await expect(page.getByRole('textbox', { name: say(lang, 'profile.address'), exact: true })).toHaveValue('Lindenweg 4')
      // "How often" speaks of the client; once here (regular help for a client: series-for-someone.spec.ts).
      await continueTo(page, say(lang, 'regular.for.often', { name: first }), say(lang, 'ask.continue'))
      await choose(page, new RegExp(`^${say(lang, 'regular.once')}`))
      // Her appointment is at a set time: the day in three fields, the time as she says it.
      await continueTo(page, say(lang, 'ask.for.when', { name: first }), say(lang, 'ask.continue'))
      await choose(page, say(lang, 'ask.timing.at'))
      await continueTo(page, say(lang, 'ask.at.question'), say(lang, 'ask.continue'))
      for (const [field, value] of [['day', '2'], ['month', '5'], ['year', '2031']] as const) await fill(page, say(lang, `form.date.${field}`), value)
      await fill(page, say(lang, 'ask.at.from'), '10.30')
      await continueTo(page, say(lang, 'ask.urgency'), say(lang, 'ask.continue'))
      await choose(page, say(lang, 'urgency.medium'))
      await continueTo(page, say(lang, 'ask.for.contactQuestion', { name: first }), say(lang, 'ask.continue'))
      await expect(page.getByRole('textbox', { name: `${say(lang, 'ask.phone')} ${say(lang, 'form.optional')}` })).toHaveValue(phone)
      await continueTo(page, say(lang, 'ask.for.checkHeading', { name: first }), say(lang, 'ask.continue'))
      await expect(page.locator('.summary-row').first()).toContainText(`${first} ${family}`)
      await expect(page.locator('.summary-row').filter({ hasText: say(lang, 'regular.check.often') })).toContainText(say(lang, 'regular.once'))
      await scan(page)
      await continueTo(page, title, say(lang, 'ask.send'))
      await expectSaid(page, say(lang, 'coordinator.ask.sent', { name: first }))
      const id = Number(/\/requests\/(\d+)$/.exec(page.url())?.[1])
      const detail = await getAs(request, `/requests/${id}`, clara) as { client_id: number | null, contact_phone: string | null, requester_id: number }
      expect(detail).toMatchObject({ contact_phone: phone, requester_id: clara.id })
      expect(detail.client_id).not.toBeNull()

      // The request's page: for whom, and its history as a timeline.
      const short = `${first} ${family.charAt(0)}.`
      await expect(page.getByRole('link', { name: short })).toBeVisible()
      // The client's details and the request, in the client's name, not "your".
      await expect(page.getByRole('link', { name: say(lang, 'accessLog.linkClient', { name: first }) })).toBeVisible()
      await expect(page.getByText(say(lang, 'request.awaitingModerationOther'))).toBeVisible()
      const history = page.getByRole('region', { name: say(lang, 'history.title') })
      await expect(history.getByRole('listitem').first()).toContainText(say(lang, 'history.actions.created'))
      await expect(history.getByRole('listitem').first()).toContainText(say(lang, 'history.byFor', { name: 'Clara Koch', role: say(lang, 'history.roles.coordinator'), whom: short }))
      await scan(page)

      // The client list says what to tell the client, as the request moves on.
      const tell = (message: string) => say(lang, 'coordinator.tell.line', { name: first, message })
      const listed = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2, name: title, exact: true }) })
      const openList = async () => {
        await page.goto('/clients/requests')
        await expect(h1(page, say(lang, 'coordinator.requests.title'))).toBeVisible()
      }
      await openList()
      await expect(listed).toContainText(tell(say(lang, 'coordinator.tell.checking')))
      await scan(page)
      await approve(request, id)
      await openList()
      await expect(listed).toContainText(tell(say(lang, 'coordinator.tell.nobody')))

      // Jonas offers; the coordinator accepts by keyboard on the request's page.
      const jonas = await registerPerson(request, 'Jonas', 'Berg', point)
      await offer(request, id, jonas, 'I can bring it on Thursday.')
      await listed.getByRole('link', { name: title }).press('Enter')
      await expect(h1(page, title)).toBeFocused()
      await page.getByRole('button', { name: say(lang, 'offers.accept', { name: 'Jonas Berg' }) }).press('Enter')
      await expectSaid(page, say(lang, 'offers.accepted', { name: 'Jonas Berg' }))
      await expect(history.getByRole('listitem').filter({ hasText: say(lang, 'history.actions.accepted') })).toContainText(say(lang, 'history.byFor', { name: 'Clara Koch', role: say(lang, 'history.roles.coordinator'), whom: short }))
      await expect(history.getByRole('listitem').filter({ hasText: say(lang, 'history.actions.offer_made') })).toContainText(say(lang, 'history.by', { name: 'Jonas Berg', role: say(lang, 'history.roles.volunteer') }))
      await scan(page)

      await openList()
      const comes = say(lang, 'coordinator.tell.comes', { name: 'Jonas', when: '§' }).split('§')
      await expect(listed.locator('.tell')).toHaveText(new RegExp(`^${tell(comes[0] ?? '')}.*10:30.*${(comes[1] ?? '').replace('.', '\\.')}$`))
      await scan(page)
      // 200% zoom of a 1280 × 800 window.
      await page.setViewportSize({ width: 640, height: 400 })
      await expectNoHorizontalScroll(page)
    })
  })
}

test('the history timeline on the volunteer\'s page, and a second coordinator acting on a client\'s request (de, 1280 px)', async ({ browser, request }) => {
  const point = uniquePoint()
  const clara = await coordinator(request, 'Clara', 'Koch')
  const otto = await coordinator(request, 'Otto', 'Lenz')
  const client = await postAs(request, '/clients', clara, { first_name: 'Erna', last_name: 'Schmidt', phone: uniquePhone(), address: 'Lindenweg 4', city: 'Berlin', ...point, consent: { how: 'in_person' } }) as { id: number }
  const created = await postAs(request, '/requests', clara, { request_type_id: 1, title: 'Einkauf am Freitag', description: 'Milch, Brot und Äpfel vom Markt', urgency: 'medium', on_behalf_of: { client_id: client.id } }) as { id: number }
  await approve(request, created.id)
  const jonas = await registerPerson(request, 'Jonas', 'Berg', point)
  await offer(request, created.id, jonas, 'Ich kann am Freitag.')

  const context = await browser.newContext({ locale: 'de-DE', timezoneId: ZONE, viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  await recordSaid(page)
  // Otto, who did not ask, accepts as every coordinator may.
  await signInAs(page, 'de', otto)
  await page.goto(`/requests/${created.id}`)
  await expect(h1(page, 'Einkauf am Freitag')).toBeVisible()
  await page.getByRole('button', { name: say('de', 'offers.accept', { name: 'Jonas Berg' }) }).press('Enter')
  await expectSaid(page, say('de', 'offers.accepted', { name: 'Jonas Berg' }))
  const history = page.getByRole('region', { name: say('de', 'history.title') })
  const coordinatorRole = say('de', 'history.roles.coordinator')
  await expect(history.getByRole('listitem').first()).toContainText(say('de', 'history.byFor', { name: 'Clara Koch', role: coordinatorRole, whom: 'Erna S.' }))
  await expect(history.getByRole('listitem').filter({ hasText: say('de', 'history.actions.accepted') })).toContainText(say('de', 'history.byFor', { name: 'Otto Lenz', role: coordinatorRole, whom: 'Erna S.' }))
  await scan(page)

  // Jonas, now helping, sees the same history on his page, for whom the help is and what she needs.
  await signInAs(page, 'de', jonas)
  await page.goto(`/find-help/${created.id}`)
  await expect(h1(page, 'Einkauf am Freitag')).toBeVisible()
  // A party now, he reads her surname in full, for the doorbell.
  await expect(page.getByText('Erna Schmidt', { exact: true })).toBeVisible()
  const items = page.getByRole('region', { name: say('de', 'history.title') }).getByRole('listitem')
  await expect(items.first()).toContainText(say('de', 'history.actions.created'))
  await expect(items.filter({ hasText: say('de', 'history.actions.offer_made') })).toContainText(say('de', 'history.by', { name: 'Jonas Berg', role: say('de', 'history.roles.volunteer') }))
  // Reached by keyboard: the timeline's entries come after the offer, in reading order.
  await page.getByRole('heading', { level: 2, name: say('de', 'history.title') }).scrollIntoViewIfNeeded()
  await scan(page)
  await context.close()
})
