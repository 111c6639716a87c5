import { expect, expectNoHorizontalScroll, fill, PASSWORD, tabTo, test, uniqueEmail } from './fixtures.js'
import { codeIn, nextMail } from './mail.js'
import { say } from './say.js'

/**
 * Registering on a service that confirms addresses by a code (EMAIL_VERIFICATION=code, server.ts), by keyboard
 * with axe: the account carries the language of the page, so the code's e-mail is in it; the page after
 * registering says a code was sent and takes it.
 */
const CODES_URL = `http://127.0.0.1:${process.env.E2E_CODES_PORT}`
const SUBJECT = { en: 'Confirm your e-mail address', de: 'Bestätigen Sie Ihre E-Mail-Adresse' } as const

for (const lang of ['de', 'en'] as const) {
  test.describe(`registering in ${lang === 'de' ? 'German' : 'English'}`, () => {
    test.use({ baseURL: CODES_URL, locale: lang === 'de' ? 'de-DE' : 'en-GB' })

    test('the code e-mail is in the page\'s language; the next page says it was sent and confirms the address with it', async ({ page, checkA11y }) => {
      const email = uniqueEmail(`register-${lang}`)
      await page.goto('/register')
      await expect(page.getByRole('heading', { level: 1, name: say(lang, 'account.registerTitle') })).toBeVisible()
      await checkA11y()
      await fill(page, say(lang, 'account.firstName'), 'Greta')
      await fill(page, say(lang, 'account.lastName'), 'Gast')
      await fill(page, say(lang, 'account.email'), email)
      const password = page.getByLabel(say(lang, 'account.password'), { exact: true })
      await tabTo(page, password)
      await page.keyboard.type(PASSWORD)
      await tabTo(page, page.getByRole('button', { name: say(lang, 'account.register') }))
      await page.keyboard.press('Enter')

      await expect(page.getByRole('heading', { level: 1, name: say(lang, 'verify.title') })).toBeFocused()
      await expect(page.getByText(say(lang, 'verify.intro', { email }))).toBeVisible()
      await expect(page.getByRole('region', { name: say(lang, 'success.title') })).toContainText(say(lang, 'account.registered', { name: 'Greta' }))
      await checkA11y()
      for (const width of [320, 1280]) {
        await page.setViewportSize({ width, height: 800 })
        await expectNoHorizontalScroll(page)
      }

      const mail = await nextMail(CODES_URL, email, 0)
      expect(mail.subject).toBe(SUBJECT[lang])
      await fill(page, say(lang, 'codes.code'), codeIn(mail))
      await page.getByLabel(say(lang, 'codes.code'), { exact: true }).press('Enter')
      await expect(page.getByRole('heading', { level: 1, name: say(lang, 'profile.title') })).toBeFocused()
      await expect(page.getByRole('region', { name: say(lang, 'success.title') })).toContainText(say(lang, 'verify.done'))
      await checkA11y()
    })
  })
}
