import type { APIRequestContext, Page } from '@playwright/test'
import { expect, expectNoHorizontalScroll, fill, test } from './fixtures.js'
import { accept, admin, approve, choose, continueTo, offer, postAs, registerPerson, uniquePoint, type Person } from './journeys.js'
import { say, signInAs, WIDTHS, type Lang } from './say.js'

/**
 * Finding: the questions a coordinator answers for a client spoke to her as if she needed the help ("What kind of
 * help do you need?"), and the volunteer she accepted read only "Erna S.", no surname for the doorbell. Now each
 * question is about the client ("What kind of help does Erna need?"), and once accepted the volunteer reads the whole
 * name (RequestDetail.client.full_name, for parties only: docs/api/on-behalf.md › Coordinators and clients).
 */
const h1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true })

async function coordinator (api: APIRequestContext, first: string, last: string): Promise<Person> {
  const person = await registerPerson(api, first, last)
  await postAs(api, `/admin/users/${person.id}/roles/4`, { token: await admin(api) })
  return person
}

for (const lang of ['en', 'de'] as const satisfies readonly Lang[]) {
  for (const width of WIDTHS) {
    test.describe(`a client's request in words (${lang}, ${width} px)`, () => {
      test.use({ locale: lang === 'de' ? 'de-DE' : 'en-GB', viewport: { width, height: 800 } })

      test('the coordinator is asked about the client; the accepted volunteer reads the client\'s full name', async ({ page, request, checkA11y }) => {
        const s = (key: string, values: Record<string, string | number> = {}) => say(lang, key, values)
        const point = uniquePoint()
        const first = lang === 'en' ? 'Erna' : 'Greta'
        const family = `Schmidt${Math.floor(Math.random() * 1e6)}`
        const clara = await coordinator(request, 'Clara', 'Koch')
        const client = await postAs(request, '/clients', clara, { first_name: first, last_name: family, phone: '+493012345678', address: 'Lindenweg 4', city: 'Berlin', ...point, consent: { how: 'phone' } }) as { id: number }
        await signInAs(page, lang, clara)
        const check = async () => {
          await checkA11y()
          await expectNoHorizontalScroll(page)
        }

        // Each question about the client, by keyboard, none to the coordinator as if she needed the help.
        await page.goto(`/clients/${client.id}/ask`)
        await expect(h1(page, s('ask.for.kind', { name: first }))).toBeFocused()
        await expect(page.getByText(s('ask.for.intro', { name: first }))).toBeVisible()
        await expect(h1(page, s('ask.kind'))).toHaveCount(0)
        // Continue without an answer: the error speaks of the client too.
        await page.getByRole('button', { name: s('ask.continue'), exact: true }).press('Enter')
        await expect(page.locator('.error-summary').getByRole('link')).toHaveText([s('ask.for.errors.kind', { name: first })])
        await check()
        await choose(page, s('kinds.1'))
        await continueTo(page, s('ask.titleField'), s('ask.continue'))
        await fill(page, s('ask.titleField'), `Shopping for ${first}`)
        await continueTo(page, s('ask.for.description', { name: first }), s('ask.continue'))
        await fill(page, s('ask.for.description', { name: first }), 'Milk, bread and apples from the market')
        await continueTo(page, s('ask.for.placeQuestion', { name: first }), s('ask.continue'))
        await check()
        await choose(page, new RegExp(`^${s('coordinator.ask.home', { name: first })}`))
        await continueTo(page, s('ask.addressQuestion'), s('ask.continue'))
        // "How often" speaks of the client too; once here (her regular help: series-for-someone.spec.ts).
        await continueTo(page, s('regular.for.often', { name: first }), s('ask.continue'))
        await choose(page, new RegExp(`^${s('regular.once')}`))
        await continueTo(page, s('ask.for.when', { name: first }), s('ask.continue'))
        await choose(page, s('ask.timing.any'))
        await continueTo(page, s('ask.urgency'), s('ask.continue'))
        await choose(page, s('urgency.medium'))
        await continueTo(page, s('ask.for.contactQuestion', { name: first }), s('ask.continue'))
        await expect(page.getByText(s('ask.for.phoneHint'))).toBeVisible()
        await check()
        await continueTo(page, s('ask.for.checkHeading', { name: first }), s('ask.continue'))
        await expect(page.getByRole('term').filter({ hasText: s('ask.for.checkDescription', { name: first }) })).toBeVisible()
        await check()
        await continueTo(page, `Shopping for ${first}`, s('ask.send'))
        const id = Number(/\/requests\/(\d+)$/.exec(page.url())?.[1])

        // Vera offers: before she is accepted the request names no client to her.
        await approve(request, id)
        const vera = await registerPerson(request, 'Vera', 'Volunteer', point)
        const response = await offer(request, id, vera)
        await signInAs(page, lang, vera)
        await page.goto(`/find-help/${id}`)
        await expect(h1(page, `Shopping for ${first}`)).toBeVisible()
        await expect(page.getByText(s('coordinator.ask.for'), { exact: true })).toHaveCount(0)
        await expect(page.getByText(new RegExp(family))).toHaveCount(0)

        // Accepted: she is a party, and reads the surname for the doorbell.
        await accept(request, id, response, clara)
        await page.reload()
        await expect(h1(page, `Shopping for ${first}`)).toBeVisible()
        const forRow = page.locator('.facts div').filter({ has: page.getByText(s('coordinator.ask.for'), { exact: true }) })
        await expect(forRow.locator('dd')).toHaveText(`${first} ${family}`)
        await check()
      })
    })
  }
}
