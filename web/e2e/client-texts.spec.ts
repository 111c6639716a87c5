import type { Page } from '@playwright/test'
import { expect, expectNoHorizontalScroll, test } from './fixtures.js'
import { accept, admin, approve, choose, createRequest, getAs, offer, postAs, registerPerson } from './journeys.js'
import { nextText } from './sms.js'
import { say, signInAs } from './say.js'

/**
 * "Texts" in a client's record (docs/api/on-behalf.md › Texts to a client, docs/web/on-behalf.md), by keyboard with
 * axe, in English and German at 320 px: the record says the client gets no texts; "Change texts" records how they
 * agreed and the language of their texts (the API keeps who and when); changed again to "No", it is withdrawn.
 */

const uniqueMobile = (): string => `+49151${String(Math.floor(10_000_000 + Math.random() * 89_999_999))}`
const h1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true })

for (const lang of ['en', 'de'] as const) {
  test.describe(`a client's texts (${lang})`, () => {
    test.use({ locale: lang === 'de' ? 'de-DE' : 'en-GB', viewport: { width: 320, height: 800 } })

    test('record the consent to texts and their language, then withdraw it', async ({ page, request, checkA11y }) => {
      const s = (key: string, values: Record<string, string | number> = {}) => say(lang, key, values)
      const scan = async () => { await checkA11y(); await expectNoHorizontalScroll(page) }
      const clara = await registerPerson(request, 'Clara', 'Koch')
      await postAs(request, `/admin/users/${clara.id}/roles/4`, { token: await admin(request) })
      const last = `Schmidt${Math.random().toString(36).slice(2, 7)}`
      const client = await postAs(request, '/clients', clara, { first_name: 'Erna', last_name: last, phone: uniqueMobile(), consent: { how: 'phone' } }) as { id: number }
      const other = lang === 'en' ? 'de' : 'en'
      await signInAs(page, lang, clara)
      await page.goto(`/clients/${client.id}`)
      await expect(h1(page, `Erna ${last}`)).toBeVisible()
      const texts = page.getByRole('region', { name: s('coordinator.texts.heading'), exact: true })
      await expect(texts).toContainText(s('coordinator.texts.none', { name: 'Erna' }))
      await expect(texts).toContainText(s('language.en'))
      await scan()

      // "Change texts": the current answers chosen ("No", English); the coordinator records what Erna said in person.
      await texts.getByRole('link', { name: s('coordinator.texts.open'), exact: true }).press('Enter')
      await expect(h1(page, s('coordinator.texts.title'))).toBeFocused()
      await expect(page.getByRole('radio', { name: s('coordinator.texts.no'), exact: true })).toBeChecked()
      await expect(page.getByRole('radiogroup', { name: s('coordinator.texts.question', { name: 'Erna' }) })).toBeVisible()
      await scan()
      await choose(page, s('coordinator.texts.yes.in_person'))
      await choose(page, s(`language.${other}`))
      await page.getByRole('button', { name: s('coordinator.texts.save'), exact: true }).press('Enter')
      await expect(h1(page, `Erna ${last}`)).toBeFocused()
      await expect(page.getByRole('region', { name: s('success.title') })).toContainText(s('coordinator.texts.done', { name: `Erna ${last}` }))
      await expect(texts).toContainText(s('coordinator.consent.in_person'))
      await expect(texts.getByText(s(`language.${other}`), { exact: true })).toHaveAttribute('lang', other)
      const recorded = await getAs(request, `/clients/${client.id}`, clara) as { texts: { how: string, recorded_by: number } | null, locale: string }
      expect(recorded).toMatchObject({ texts: { how: 'in_person', recorded_by: clara.id }, locale: other })
      await scan()

      // Erna changed her mind: "No" withdraws it; the language stays.
      await texts.getByRole('link', { name: s('coordinator.texts.open'), exact: true }).press('Enter')
      await expect(h1(page, s('coordinator.texts.title'))).toBeFocused()
      await expect(page.getByRole('radio', { name: s('coordinator.texts.yes.in_person'), exact: true })).toBeChecked()
      await choose(page, s('coordinator.texts.no'))
      await page.getByRole('button', { name: s('coordinator.texts.save'), exact: true }).press('Enter')
      await expect(h1(page, `Erna ${last}`)).toBeFocused()
      await expect(texts).toContainText(s('coordinator.texts.none', { name: 'Erna' }))
      expect(await getAs(request, `/clients/${client.id}`, clara)).toMatchObject({ texts: null, locale: other })
      await scan()
    })

    test('the client requests list says which text the client got about what, and how it went', async ({ page, request, baseURL, checkA11y }) => {
      const s = (key: string, values: Record<string, string | number> = {}) => say(lang, key, values)
      const clara = await registerPerson(request, 'Clara', 'Koch')
      await postAs(request, `/admin/users/${clara.id}/roles/4`, { token: await admin(request) })
      const phone = uniqueMobile()
      const client = await postAs(request, '/clients', clara, { first_name: 'Erna', last_name: 'Textlist', phone, consent: { how: 'phone' }, latitude: 52.5, longitude: 13.4, address: '5 Linden Way' }) as { id: number }
      await request.fetch(`/api/v1/clients/${client.id}`, { method: 'PATCH', headers: { authorization: `Bearer ${clara.token}` }, data: { texts: { how: 'phone' } } })
      const title = `Shopping for Erna ${Math.random().toString(36).slice(2, 7)}`
      const id = await createRequest(request, clara, { title, on_behalf_of: { client_id: client.id } })
      await approve(request, id)
      const vera = await registerPerson(request, 'Vera', 'Helper')
      await accept(request, id, await offer(request, id, vera), clara)
      await nextText(baseURL!, phone, 0)
      await signInAs(page, lang, clara)
      await page.goto('/clients/requests')
      await expect(h1(page, s('coordinator.requests.title'))).toBeVisible()
      const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title, exact: true }) })
      await expect(card).toContainText(s('coordinator.requests.texts'))
      await expect(card).toContainText(`${s('coordinator.requests.textTypes.response_accepted')}: ${s('coordinator.requests.textStatus.sent')}`)
      await checkA11y()
      await expectNoHorizontalScroll(page)
    })
  })
}
