import type { APIRequestContext, Page } from '@playwright/test'
import { expect, expectNoHorizontalScroll, expectSaid, fill, test } from './fixtures.js'
import { accept, admin, approve, getAs, offer, postAs, registerPerson, uniquePoint, type Person } from './journeys.js'
import { say, signInAs, type Lang } from './say.js'

/**
 * A client's record, changed and erased by a coordinator (docs/api/on-behalf.md › Coordinators and clients and docs/web/on-behalf.md), by keyboard with axe, in English
 * and German at 320 px: "Change details" changes the phone number, shown on the client's page and kept by the
 * API; "Erase this client's record" asks first (Escape keeps it), is refused in words while a volunteer is helping
 * with a request of theirs, and once that help is done erases the record and leads back to the search.
 */

const locale = (lang: Lang) => lang === 'de' ? 'de-DE' : 'en-GB'
const uniquePhone = (): string => `+4930${String(Math.floor(1_000_000 + Math.random() * 8_999_999))}`
const h1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true })

/** A coordinator (role 4), a client of hers, and a request of the client's that a volunteer is helping with now. */
async function setUp (api: APIRequestContext, last: string): Promise<{ clara: Person, client: { id: number }, requestId: number }> {
  const point = uniquePoint()
  const clara = await registerPerson(api, 'Clara', 'Koch')
  await postAs(api, `/admin/users/${clara.id}/roles/4`, { token: await admin(api) })
  const client = await postAs(api, '/clients', clara, { first_name: 'Erna', last_name: last, phone: uniquePhone(), address: 'Lindenweg 4', city: 'Berlin', ...point, consent: { how: 'phone' } }) as { id: number }
  const created = await postAs(api, '/requests', clara, { request_type_id: 1, title: 'Shopping on Friday', description: 'Milk, bread and apples from the market', urgency: 'medium', on_behalf_of: { client_id: client.id } }) as { id: number }
  await approve(api, created.id)
  const jonas = await registerPerson(api, 'Jonas', 'Berg', point)
  await accept(api, created.id, await offer(api, created.id, jonas), clara)
  return { clara, client, requestId: created.id }
}

/** axe, and nothing scrolls sideways. */
async function scan (page: Page, checkA11y: () => Promise<void>): Promise<void> {
  await checkA11y()
  await expectNoHorizontalScroll(page)
}

for (const lang of ['en', 'de'] as const) {
  test.describe(`a client's record (${lang})`, () => {
    test.use({ locale: locale(lang), viewport: { width: 320, height: 800 } })

    test('change the phone number; erasing asks first, is refused while help is under way, then erases', async ({ page, request, checkA11y }) => {
      const s = (key: string, values: Record<string, string | number> = {}) => say(lang, key, values)
      const last = `Schmidt${Math.random().toString(36).slice(2, 7)}`
      const name = `Erna ${last}`
      const { clara, client, requestId } = await setUp(request, last)
      await signInAs(page, lang, clara)
      await page.goto(`/clients/${client.id}`)
      await expect(h1(page, name)).toBeVisible()

      // "Change details": the form of "Add a new client", filled in; an impossible number first, then a new one.
      await page.getByRole('link', { name: s('coordinator.change.open'), exact: true }).press('Enter')
      await expect(h1(page, s('coordinator.change.title'))).toBeFocused()
      await expect(page.getByRole('textbox', { name: s('coordinator.add.lastName'), exact: true })).toHaveValue(last)
      await scan(page, checkA11y)
      const phoneField = `${s('coordinator.add.phone')} ${s('form.optional')}`
      await fill(page, phoneField, 'call me')
      await page.keyboard.press('Enter')
      const summary = page.locator('.error-summary')
      await expect(summary).toBeFocused()
      await expect(summary.getByRole('link')).toHaveText([s('errors.phoneInvalid')])
      const phone = uniquePhone()
      // Typed as people say it, "030 1234567": the Berlin number in E.164 (SMS_DEFAULT_COUNTRY is Germany here).
      await fill(page, phoneField, `0${phone.slice(3, 5)} ${phone.slice(5)}`)
      await page.keyboard.press('Enter')
      await expect(h1(page, name)).toBeFocused()
      await expect(page.getByRole('region', { name: s('success.title') })).toContainText(s('coordinator.change.done', { name }))
      await expect(page.getByText(phone)).toBeVisible()
      expect(await getAs(request, `/clients/${client.id}`, clara)).toMatchObject({ phone, address: 'Lindenweg 4', consent: { how: 'phone' } })
      await scan(page, checkA11y)

      // Erasing asks first, saying what it does; Escape keeps the record and gives focus back to the button.
      const erase = page.getByRole('button', { name: s('coordinator.erase.open'), exact: true })
      await erase.press('Enter')
      const dialog = page.getByRole('dialog', { name: s('coordinator.erase.title', { name }) })
      await expect(dialog).toBeVisible()
      await expect(dialog).toContainText(s('coordinator.erase.finished'))
      await expect(dialog).toContainText(s('coordinator.erase.refused'))
      await scan(page, checkA11y)
      await page.keyboard.press('Escape')
      await expect(dialog).toHaveCount(0)
      await expect(erase).toBeFocused()
      expect(await getAs(request, `/clients/${client.id}`, clara)).toMatchObject({ id: client.id })

      // Confirmed while Jonas is helping: refused, and why, in words (said too); the record stays.
      const confirm = dialog.getByRole('button', { name: s('coordinator.erase.confirm'), exact: true })
      await erase.press('Enter')
      await confirm.press('Enter')
      await expect(dialog).toHaveCount(0)
      await expect(page.getByRole('alert')).toHaveText(s('errors.clientRequestInProgress'))
      await expectSaid(page, s('errors.clientRequestInProgress'))
      await expect(h1(page, name)).toBeVisible()
      await scan(page, checkA11y)

      // The help done, the record is erased: back at the search, with the banner; the record is gone.
      await postAs(request, `/requests/${requestId}/complete`, clara, { rating: 5 })
      await erase.press('Enter')
      await confirm.press('Enter')
      await expect(h1(page, s('coordinator.find.title'))).toBeFocused()
      await expect(page).toHaveURL(/\/clients$/)
      await expect(page.getByRole('region', { name: s('success.title') })).toContainText(s('coordinator.erase.done', { name }))
      await expect(page.getByRole('heading', { level: 3, name })).toHaveCount(0)
      const gone = await request.get(`/api/v1/clients/${client.id}`, { headers: { authorization: `Bearer ${clara.token}` } })
      expect(gone.status()).toBe(404)
      expect((await getAs(request, `/requests/${requestId}`, clara) as { client: unknown }).client).toBeNull()
      await scan(page, checkA11y)
    })
  })
}
