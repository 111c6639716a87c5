import type { APIRequestContext } from '@playwright/test'
import { expect, expectSaid, tabTo, test } from './fixtures.js'
import { accept, admin, approve, createRequest, getAs, giveRole, inProgress, offer, postAs, registerPerson, uniquePoint, type Person } from './journeys.js'
import { atBothWidths, say, signInAs, type Lang } from './say.js'

/**
 * docs/web/help.md › Trust on offers, the requester's and the volunteer's side: each offer with its trust signals in words, who has
 * seen the contact details (a request's and a profile's), "no phone given" in words, and under
 * ADDRESS_PRIVACY=parties the city and "Rita A." for strangers. Each in English and German, by keyboard,
 * with axe, at 320 and 1280 px. (Phones as `tel:` links and withdrawing: words.spec.ts.)
 */

/** The second service of server.ts, where strangers see only the city (ADDRESS_PRIVACY=parties). */
const PARTIES_URL = `http://127.0.0.1:${process.env.E2E_PARTIES_PORT}`

const locale = (lang: Lang) => lang === 'de' ? 'de-DE' : 'en-GB'

/** "Member since November 2026" for someone registered now, as the page writes it. */
const sinceNow = (lang: Lang) => say(lang, 'trust.memberSince', { date: new Intl.DateTimeFormat(locale(lang), { month: 'long', year: 'numeric' }).format(new Date()) })

/** A job done for Rita and rated: it counts in the volunteer's signals. */
async function pastJob (api: APIRequestContext, rita: Person, vera: Person, point: { latitude: number, longitude: number }, rating: number): Promise<void> {
  const id = await createRequest(api, rita, { ...point, title: 'Earlier help' })
  await approve(api, id)
  await accept(api, id, await offer(api, id, vera), rita)
  await postAs(api, `/requests/${id}/complete`, rita, { rating })
}

for (const lang of ['en', 'de'] as const) {
  test.describe(`trust on offers and who has seen my details (${lang})`, () => {
    test.use({ locale: locale(lang) })

    test('each offer says who is offering, in words: checks, help given and rating, member since', async ({ page, request, checkA11y }) => {
      const point = uniquePoint()
      const rita = await registerPerson(request, 'Rita', 'Asker')
      const vera = await registerPerson(request, 'Vera', 'Helper', point)
      const nick = await registerPerson(request, 'Nick', 'Newcomer', point)
      const adminToken = { token: await admin(request) }
      for (const kind of ['background', 'identity']) await postAs(request, `/admin/users/${vera.id}/checks`, adminToken, { kind })
      await pastJob(request, rita, vera, point, 5)
      await pastJob(request, rita, vera, point, 4)
      const id = await createRequest(request, rita, { ...point, title: 'Shopping on Saturday' })
      await approve(request, id)
      await offer(request, id, nick, 'I am new here and free on Saturday.')
      await offer(request, id, vera, 'I can come on Saturday morning.')

      const veraSays = [
        say(lang, 'trust.checked', { kinds: `${say(lang, 'trust.kinds.identity')}, ${say(lang, 'trust.kinds.background')}` }),
        say(lang, 'trust.helpedRated_other', { times: 2, rating: lang === 'de' ? '4,5' : '4.5' }),
        sinceNow(lang),
      ].join(' ')
      const nickSays = [say(lang, 'trust.notChecked'), say(lang, 'trust.neverHelped'), sinceNow(lang)].join(' ')
      await signInAs(page, lang, rita)
      await page.goto(`/requests/${id}`)
      const card = (name: string) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name }) })
      await atBothWidths(page, checkA11y, 'Shopping on Saturday', async () => {
        await expect(card('Vera Helper')).toContainText(veraSays)
        await expect(card('Nick Newcomer')).toContainText(nickSays)
      })
      // By keyboard: the signals are read before the offer's button, and accepting still works.
      const acceptVera = page.getByRole('button', { name: say(lang, 'offers.accept', { name: 'Vera Helper' }) })
      await tabTo(page, acceptVera)
      await page.keyboard.press('Enter')
      await expectSaid(page, say(lang, 'offers.accepted', { name: 'Vera Helper' }))
      await expect(card('Vera Helper')).toContainText(veraSays)
    })

    test('who has seen my details: the request\'s page and the profile\'s, reached by keyboard', async ({ page, request, checkA11y }) => {
      const { rita, vera, id } = await inProgress(request, 'Lift to the clinic', { contact_phone: '+49 30 1234567', contact_notes: 'Ring twice' }, { phone: '+491511234567' })
      // Vera reads the request's contact details on her page; an administrator reads them through the API.
      await signInAs(page, lang, vera)
      await page.goto(`/find-help/${id}`)
      await expect(page.getByRole('link', { name: '+49 30 1234567' })).toBeVisible()
      await getAs(request, `/requests/${id}`, { token: await admin(request) })
      // Rita sees Vera's phone on her request: that is a record in Vera's log.
      await signInAs(page, lang, rita)
      await page.goto(`/requests/${id}`)
      await expect(page.getByRole('link', { name: '+491511234567' })).toBeVisible()
      await tabTo(page, page.getByRole('link', { name: say(lang, 'accessLog.linkRequest') }))
      await page.keyboard.press('Enter')
      const title = say(lang, 'accessLog.requestTitle')
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeFocused()
      const record = (name: string) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2, name }) })
      await atBothWidths(page, checkA11y, title, async () => {
        await expect(page.getByText(say(lang, 'accessLog.forRequest', { title: 'Lift to the clinic' }))).toBeVisible()
        const volunteer = record('Vera Helper')
        await expect(volunteer).toContainText(say(lang, 'accessLog.roles.assigned_volunteer'))
        await expect(volunteer).toContainText(say(lang, 'accessLog.fieldNames.contact_phone'))
        await expect(volunteer).toContainText(say(lang, 'accessLog.fieldNames.contact_notes'))
        await expect(record('Service Administrator')).toContainText(say(lang, 'accessLog.roles.admin'))
      })
      await tabTo(page, page.getByRole('link', { name: say(lang, 'accessLog.backRequest') }))
      await page.keyboard.press('Enter')
      await expect(page.getByRole('heading', { level: 1, name: 'Lift to the clinic' })).toBeFocused()

      await signInAs(page, lang, vera)
      await page.goto('/profile')
      await expect(page.getByRole('heading', { level: 1, name: say(lang, 'profile.title') })).toBeVisible()
      await tabTo(page, page.getByRole('link', { name: say(lang, 'accessLog.linkProfile') }), 80)
      await page.keyboard.press('Enter')
      const profileTitle = say(lang, 'accessLog.profileTitle')
      await expect(page.getByRole('heading', { level: 1, name: profileTitle })).toBeFocused()
      await atBothWidths(page, checkA11y, profileTitle, async () => {
        const requester = record('Rita Asker')
        await expect(requester).toContainText(say(lang, 'accessLog.roles.requester'))
        await expect(requester).toContainText(say(lang, 'accessLog.fieldNames.phone'))
        await expect(requester.getByRole('link', { name: 'Lift to the clinic' })).toHaveAttribute('href', `/requests/${id}`)
      })
    })

    test('who has seen my details, when no one has: said in words; someone else\'s request is not found', async ({ page, request, checkA11y }) => {
      const nora = await registerPerson(request, 'Nora', 'Private')
      const id = await createRequest(request, nora, { ...uniquePoint(), title: 'Fetch my prescription', contact_phone: '+49 30 5555555' })
      await signInAs(page, lang, nora)
      await page.goto(`/requests/${id}`)
      await expect(page.getByRole('heading', { level: 1, name: 'Fetch my prescription' })).toBeVisible()
      await page.getByRole('link', { name: say(lang, 'accessLog.linkRequest') }).press('Enter')
      await atBothWidths(page, checkA11y, say(lang, 'accessLog.requestTitle'), async () => {
        await expect(page.getByText(say(lang, 'accessLog.noneRequest'))).toBeVisible()
      })
      await page.goto('/profile/access-log')
      await atBothWidths(page, checkA11y, say(lang, 'accessLog.profileTitle'), async () => {
        await expect(page.getByText(say(lang, 'accessLog.noneProfile'))).toBeVisible()
      })
      const sam = await registerPerson(request, 'Sam', 'Stranger')
      await signInAs(page, lang, sam)
      await page.goto(`/requests/${id}/access-log`)
      await atBothWidths(page, checkA11y, say(lang, 'request.notFound'))
    })

    test('more records than a page: "Show older records" adds them and moves focus to the first it brought', async ({ page, request, checkA11y }) => {
      const nora = await registerPerson(request, 'Nora', 'Private')
      const id = await createRequest(request, nora, { ...uniquePoint(), title: 'Many eyes', contact_phone: '+49 30 5555555' })
      // 52 moderators read the request (with its contact phone): one record each, two more than a page of 50.
      for (let i = 1; i <= 52; i++) {
        const moderator = await registerPerson(request, 'Mod', `Number${i}`)
        await giveRole(request, moderator, 2)
        await getAs(request, `/requests/${id}`, moderator)
      }
      await signInAs(page, lang, nora)
      await page.goto(`/requests/${id}/access-log`)
      const title = say(lang, 'accessLog.requestTitle')
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
      const records = page.getByRole('main').getByRole('listitem')
      await expect(records).toHaveCount(50)
      // Newest first: the last to look is at the top, the first two come with the next page.
      await expect(records.first()).toContainText('Mod Number52')
      const more = page.getByRole('button', { name: say(lang, 'accessLog.more') })
      await tabTo(page, more, 200)
      await page.keyboard.press('Enter')
      await expect(records).toHaveCount(52)
      await expect(page.getByRole('heading', { level: 2, name: 'Mod Number2', exact: true })).toBeFocused()
      await expect(more).toHaveCount(0)
      await atBothWidths(page, checkA11y, title)
    })

    test('the accepted volunteer reading his notifications leaves no record in the requester\'s log', async ({ page, request, checkA11y }) => {
      const { rita, vera, id } = await inProgress(request, 'Take the cat to the vet', { contact_phone: '+49 30 4444444' })
      await signInAs(page, lang, vera)
      await page.goto('/notifications')
      const accepted = say(lang, 'notifications.about', { text: say(lang, 'notifications.types.response_accepted'), title: 'Take the cat to the vet' })
      await atBothWidths(page, checkA11y, say(lang, 'notifications.title'), async () => {
        await expect(page.getByRole('link', { name: accepted })).toBeVisible()
      })
      expect(await getAs(request, `/requests/${id}/access-log`, rita)).toEqual([])
      // Opening the request's page gives him the phone, and that is recorded.
      await page.getByRole('link', { name: accepted }).press('Enter')
      await expect(page.getByRole('heading', { level: 1, name: 'Take the cat to the vet' })).toBeVisible()
      await expect.poll(async () => (await getAs(request, `/requests/${id}/access-log`, rita) as unknown[]).length).toBe(1)
    })

    test('no phone given: each side of an accepted request is told so in words', async ({ page, request, checkA11y }) => {
      const { rita, vera, id } = await inProgress(request, 'Water the plants')
      await signInAs(page, lang, rita)
      await page.goto(`/requests/${id}`)
      await atBothWidths(page, checkA11y, 'Water the plants', async () => {
        await expect(page.getByText(say(lang, 'request.noVolunteerPhone', { name: vera.first }))).toBeVisible()
      })
      await signInAs(page, lang, vera)
      await page.goto(`/find-help/${id}`)
      await atBothWidths(page, checkA11y, 'Water the plants', async () => {
        await expect(page.getByText(say(lang, 'volunteer.request.noPhone', { name: rita.first }))).toBeVisible()
      })
    })
  })

  test.describe(`ADDRESS_PRIVACY=parties (${lang})`, () => {
    test.use({ locale: locale(lang), baseURL: PARTIES_URL })

    test('a stranger sees the town and "Rita A.", and is told the address comes with acceptance; accepted, he sees it', async ({ page, request, checkA11y }) => {
      const point = uniquePoint()
      const rita = await registerPerson(request, 'Rita', 'Asker')
      const sam = await registerPerson(request, 'Sam', 'Stranger', point)
      const id = await createRequest(request, rita, { ...point, title: 'Shopping for Rita', address: '1 Main Street', city: 'Springfield', contact_phone: '+49 30 7654321' })
      const noTown = await createRequest(request, rita, { ...point, title: 'Post a letter', address: '2 Main Street', city: undefined })
      for (const each of [id, noTown]) await approve(request, each)

      await signInAs(page, lang, sam)
      await page.goto(`/find-help/${id}`)
      const main = page.getByRole('main')
      await atBothWidths(page, checkA11y, 'Shopping for Rita', async () => {
        await expect(main).toContainText(`Springfield. ${say(lang, 'volunteer.request.addressHidden')}`)
        await expect(main).toContainText('Rita A.')
        await expect(main).not.toContainText('1 Main Street')
        await expect(main).not.toContainText('Asker')
        await expect(page.getByRole('link', { name: '+49 30 7654321' })).toHaveCount(0)
      })
      await page.goto(`/find-help/${noTown}`)
      await atBothWidths(page, checkA11y, 'Post a letter', async () => {
        await expect(main).toContainText(say(lang, 'volunteer.request.addressHidden'))
        await expect(main).not.toContainText('2 Main Street')
      })

      // Sam offers by keyboard; with his offer pending he still sees only the town.
      await page.goto(`/find-help/${id}`)
      await expect(page.getByRole('heading', { level: 1, name: 'Shopping for Rita' })).toBeVisible()
      await tabTo(page, page.getByRole('button', { name: say(lang, 'volunteer.request.send') }))
      await page.keyboard.press('Enter')
      await expectSaid(page, say(lang, 'volunteer.request.sent'))
      await expect(main).toContainText(say(lang, 'volunteer.request.addressHidden'))
      const offers = await getAs(request, `/requests/${id}/responses`, rita) as Array<{ id: number }>
      await accept(request, id, offers[0]!.id, rita)
      await page.reload()
      await atBothWidths(page, checkA11y, 'Shopping for Rita', async () => {
        await expect(main).toContainText('1 Main Street, Springfield')
        await expect(main).toContainText('Rita Asker')
        await expect(main).not.toContainText(say(lang, 'volunteer.request.addressHidden'))
        await expect(page.getByRole('link', { name: '+49 30 7654321' })).toHaveAttribute('href', 'tel:+49307654321')
      })
    })
  })
}
