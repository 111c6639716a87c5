import type { APIRequestContext, Page } from '@playwright/test'
import { expect, expectNoHorizontalScroll, scanA11y, tabTo, test } from './fixtures.js'
import { admin, getAs, PASSWORD, registerPerson, type Person } from './journeys.js'
import { codeIn, countMails, linkIn, nextMail } from './mail.js'
import { say, signInAs, type Lang } from './say.js'

/**
 * Getting back in (docs/api/accounts.md › Getting back in and docs/web/accounts.md) in a real Chromium: "Forgot your password?" and "Sign in with a code
 * instead" by keyboard in both languages with axe on every page, the code read from the .eml the service wrote;
 * once through the e-mail's link; change password on the profile; the verify-email page on the service with
 * EMAIL_VERIFICATION=code (server.ts).
 */
const CODES_URL = `http://127.0.0.1:${process.env.E2E_CODES_PORT}`
const NEW_PASSWORD = 'a brand new passphrase'
const locale = (lang: Lang) => lang === 'de' ? 'de-DE' : 'en-GB'

/** A code that is certainly not `code`: each digit moved by one. */
const wrong = (code: string) => code.replace(/\d/g, (digit) => String((Number(digit) + 1) % 10))

async function typeInto (page: Page, label: string, value: string): Promise<void> {
  const field = page.getByLabel(label, { exact: true })
  await field.focus()
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.press('Backspace')
  await page.keyboard.type(value)
}

/** Enter in the field: the form's own submit, as a keyboard user sends it. */
async function submitFrom (page: Page, label: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).press('Enter')
}

async function expectFocusedHeading (page: Page, name: string): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name })).toBeFocused()
}

async function expectProblem (page: Page, text: string): Promise<void> {
  await expect(page.getByRole('alert')).toContainText(text)
}

async function loginStatus (api: APIRequestContext, email: string, password: string): Promise<number> {
  return (await api.post('/api/v1/auth/login', { data: { email, password } })).status()
}

for (const lang of ['en', 'de'] as const) {
  test.describe(`getting back in (${lang})`, () => {
    test.use({ locale: locale(lang) })

    test('forgot password: address, code from the e-mail (typed with a space, a wrong one first), new password, signed in', async ({ page, request, baseURL, checkA11y }) => {
      const person = await registerPerson(request, lang === 'de' ? 'Greta' : 'Rosa')
      await page.goto('/sign-in')
      await expect(page.getByRole('heading', { level: 1, name: say(lang, 'account.signInTitle') })).toBeVisible()
      await checkA11y()
      await tabTo(page, page.getByRole('link', { name: say(lang, 'account.forgotPassword') }))
      await page.keyboard.press('Enter')
      await expectFocusedHeading(page, say(lang, 'codes.emailQuestion'))
      await checkA11y()

      // Nothing typed: the summary says so and links to the field.
      await submitFrom(page, say(lang, 'codes.emailQuestion'))
      await expectProblem(page, say(lang, 'errors.emailRequired'))
      await checkA11y()
      const before = await countMails(baseURL!, person.email)
      await typeInto(page, say(lang, 'codes.emailQuestion'), person.email)
      await submitFrom(page, say(lang, 'codes.emailQuestion'))
      await expectFocusedHeading(page, say(lang, 'codes.checkEmail'))
      await expect(page.getByText(say(lang, 'codes.sentTo', { email: person.email }))).toBeVisible()
      await checkA11y()
      await page.setViewportSize({ width: 320, height: 700 })
      await expectNoHorizontalScroll(page)
      await page.setViewportSize({ width: 1280, height: 800 })

      const code = codeIn(await nextMail(baseURL!, person.email, before))
      // A wrong code is found out with the new password (the API takes them together): the way back is offered.
      await typeInto(page, say(lang, 'codes.code'), wrong(code))
      await submitFrom(page, say(lang, 'codes.code'))
      await expectFocusedHeading(page, say(lang, 'reset.newPassword'))
      await typeInto(page, say(lang, 'reset.newPassword'), 'short')
      await submitFrom(page, say(lang, 'reset.newPassword'))
      await expectProblem(page, say(lang, 'errors.passwordShort'))
      await typeInto(page, say(lang, 'reset.newPassword'), NEW_PASSWORD)
      await submitFrom(page, say(lang, 'reset.newPassword'))
      await expectProblem(page, say(lang, 'codes.errors.invalid'))
      await expect(page.getByRole('heading', { level: 2, name: say(lang, 'reset.codeFailedHeading') })).toBeVisible()
      await checkA11y()
      await tabTo(page, page.getByRole('link', { name: say(lang, 'reset.enterCodeAgain') }))
      await page.keyboard.press('Enter')
      await expectFocusedHeading(page, say(lang, 'codes.checkEmail'))

      // Typed as it is often read out: "123 456".
      await typeInto(page, say(lang, 'codes.code'), `${code.slice(0, 3)} ${code.slice(3)}`)
      await submitFrom(page, say(lang, 'codes.code'))
      await expectFocusedHeading(page, say(lang, 'reset.newPassword'))
      await typeInto(page, say(lang, 'reset.newPassword'), NEW_PASSWORD)
      await submitFrom(page, say(lang, 'reset.newPassword'))
      await expectFocusedHeading(page, say(lang, 'home.greeting', { name: person.first }))
      await expect(page.getByRole('region', { name: say(lang, 'success.title') })).toContainText(say(lang, 'reset.done'))
      await checkA11y()
      expect(await loginStatus(request, person.email, PASSWORD)).toBe(401)
      expect(await loginStatus(request, person.email, NEW_PASSWORD)).toBe(200)
    })

    test('sign in with a code: address, a wrong code said plainly beside the field, the right one, signed in', async ({ page, request, baseURL, checkA11y }) => {
      const person = await registerPerson(request, lang === 'de' ? 'Jonas' : 'Milo')
      await page.goto('/sign-in?next=%2Fprofile')
      await expect(page.getByRole('heading', { level: 1, name: say(lang, 'account.signInTitle') })).toBeVisible()
      await tabTo(page, page.getByRole('link', { name: say(lang, 'account.withCode') }))
      await page.keyboard.press('Enter')
      await expectFocusedHeading(page, say(lang, 'codes.emailQuestion'))
      await checkA11y()
      const before = await countMails(baseURL!, person.email)
      await typeInto(page, say(lang, 'codes.emailQuestion'), person.email)
      await submitFrom(page, say(lang, 'codes.emailQuestion'))
      await expectFocusedHeading(page, say(lang, 'codes.checkEmail'))
      const code = codeIn(await nextMail(baseURL!, person.email, before))

      await typeInto(page, say(lang, 'codes.code'), '12')
      await submitFrom(page, say(lang, 'codes.code'))
      await expectProblem(page, say(lang, 'codes.errors.codeFormat'))
      await typeInto(page, say(lang, 'codes.code'), wrong(code))
      await submitFrom(page, say(lang, 'codes.code'))
      await expectProblem(page, say(lang, 'codes.errors.invalid'))
      // The summary's link leads to the field, which says the same.
      await tabTo(page, page.getByRole('link', { name: say(lang, 'codes.errors.invalid') }))
      await page.keyboard.press('Enter')
      await expect(page.getByLabel(say(lang, 'codes.code'), { exact: true })).toBeFocused()
      await checkA11y()

      await typeInto(page, say(lang, 'codes.code'), code)
      await submitFrom(page, say(lang, 'codes.code'))
      // `next` was carried through the journey.
      await expectFocusedHeading(page, say(lang, 'profile.title'))
      await checkA11y()
    })
  })
}

test.describe('the e-mail\'s link fills the code in', () => {
  test('sign-in link: the code is filled in, gone from the address bar, used only on the button', async ({ page, request, baseURL }) => {
    const person = await registerPerson(request, 'Lina')
    const before = await countMails(baseURL!, person.email)
    expect((await request.post('/api/v1/auth/code', { data: { email: person.email } })).status()).toBe(202)
    const mail = await nextMail(baseURL!, person.email, before)
    const link = linkIn(mail, '/sign-in/code')
    await page.goto(link.replace(/^https?:\/\/[^/]+/, baseURL!))
    await expect(page.getByRole('heading', { level: 1, name: say('en', 'codes.checkEmail') })).toBeVisible()
    await expect(page.getByLabel(say('en', 'codes.code'), { exact: true })).toHaveValue(codeIn(mail))
    await expect.poll(() => new URL(page.url()).hash).toBe('')
    await scanA11y(page)
    await page.getByLabel(say('en', 'codes.code'), { exact: true }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: say('en', 'home.greeting', { name: person.first }) })).toBeFocused()
  })

  test('reset link: the code is filled in, the new password signs in', async ({ page, request, baseURL }) => {
    const person = await registerPerson(request, 'Karl')
    const before = await countMails(baseURL!, person.email)
    expect((await request.post('/api/v1/auth/password-reset', { data: { email: person.email } })).status()).toBe(202)
    const mail = await nextMail(baseURL!, person.email, before)
    await page.goto(linkIn(mail, '/forgot-password/code').replace(/^https?:\/\/[^/]+/, baseURL!))
    await expect(page.getByLabel(say('en', 'codes.code'), { exact: true })).toHaveValue(codeIn(mail))
    await expect.poll(() => new URL(page.url()).hash).toBe('')
    await submitFrom(page, say('en', 'codes.code'))
    await expectFocusedHeading(page, say('en', 'reset.newPassword'))
    await typeInto(page, say('en', 'reset.newPassword'), NEW_PASSWORD)
    await submitFrom(page, say('en', 'reset.newPassword'))
    await expectFocusedHeading(page, say('en', 'home.greeting', { name: person.first }))
  })

  test('a blocked account is told so plainly at the code', async ({ page, request, baseURL }) => {
    const person = await registerPerson(request, 'Otto')
    expect((await request.post(`/api/v1/admin/users/${person.id}/block`, { headers: { authorization: `Bearer ${await admin(request)}` } })).ok()).toBe(true)
    const before = await countMails(baseURL!, person.email)
    await page.goto('/sign-in/with-code')
    await typeInto(page, say('en', 'codes.emailQuestion'), person.email)
    await submitFrom(page, say('en', 'codes.emailQuestion'))
    await expect(page.getByRole('heading', { level: 1, name: say('en', 'codes.checkEmail') })).toBeFocused()
    const code = codeIn(await nextMail(baseURL!, person.email, before))
    await typeInto(page, say('en', 'codes.code'), code)
    await submitFrom(page, say('en', 'codes.code'))
    await expectProblem(page, say('en', 'errors.blocked'))
  })
})

async function changePassword (page: Page, lang: Lang, current: string, next: string): Promise<void> {
  await typeInto(page, say(lang, 'changePassword.current'), current)
  await typeInto(page, say(lang, 'changePassword.new'), next)
  await submitFrom(page, say(lang, 'changePassword.new'))
}

for (const lang of ['en', 'de'] as const) {
  test.describe(`change password (${lang})`, () => {
    test.use({ locale: locale(lang) })
    test('a wrong current password said plainly; the right one changes it and this browser stays signed in', async ({ page, request, checkA11y }) => {
      const person: Person = await registerPerson(request, lang === 'de' ? 'Frieda' : 'Hugo')
      await signInAs(page, lang, person)
      await page.goto('/profile')
      await expect(page.getByRole('heading', { level: 2, name: say(lang, 'changePassword.title') })).toBeVisible()
      await changePassword(page, lang, 'not my password', NEW_PASSWORD)
      await expect(page.getByRole('alert')).toContainText(say(lang, 'changePassword.errors.wrongCurrent'))
      await checkA11y()
      await changePassword(page, lang, PASSWORD, NEW_PASSWORD)
      await expect(page.getByRole('region', { name: say(lang, 'success.title') })).toContainText(say(lang, 'changePassword.done'))
      await expect(page.getByLabel(say(lang, 'changePassword.current'), { exact: true })).toHaveValue('')
      await checkA11y()
      // The session cookie was renewed with the change: a reload is still signed in.
      await page.reload()
      await expect(page.getByRole('heading', { level: 1, name: say(lang, 'profile.title') })).toBeVisible()
      expect(await loginStatus(request, person.email, NEW_PASSWORD)).toBe(200)
    })
  })
}

test.describe('confirming the address (EMAIL_VERIFICATION=code)', () => {
  test.use({ baseURL: CODES_URL })

  test('the profile says it is not confirmed; a new code, a stale one refused, the link after signing in confirms it', async ({ page, request, checkA11y }) => {
    const person = await registerPerson(request, 'Vera')
    const registration = await nextMail(CODES_URL, person.email, 0)
    await signInAs(page, 'en', person)
    await page.goto('/profile')
    await expect(page.getByText(say('en', 'verify.notYet'))).toBeVisible()
    await tabTo(page, page.getByRole('link', { name: say('en', 'verify.link') }))
    await page.keyboard.press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: say('en', 'verify.title') })).toBeFocused()
    await checkA11y()

    await tabTo(page, page.getByRole('button', { name: say('en', 'codes.sendNew') }))
    await page.keyboard.press('Enter')
    const fresh = await nextMail(CODES_URL, person.email, 1)
    await expect(page.getByRole('main').getByText(say('en', 'codes.resent', { email: person.email }))).toBeVisible()
    // Asking for a new code voided the first one.
    await typeInto(page, say('en', 'codes.code'), codeIn(registration))
    await submitFrom(page, say('en', 'codes.code'))
    await expectProblem(page, say('en', 'codes.errors.invalid'))
    await checkA11y()

    // The e-mail's link opened signed out (another browser): sign in first, then the page comes back filled in.
    await page.context().clearCookies()
    // A fresh page load, as from a mail program (the same path with only a new fragment would not reload).
    await page.goto('about:blank')
    await page.goto(linkIn(fresh, '/verify-email').replace(/^https?:\/\/[^/]+/, CODES_URL))
    await expect(page.getByRole('heading', { level: 1, name: say('en', 'account.signInTitle') })).toBeVisible()
    await typeInto(page, say('en', 'account.email'), person.email)
    await typeInto(page, say('en', 'account.password'), PASSWORD)
    await submitFrom(page, say('en', 'account.password'))
    await expect(page.getByRole('heading', { level: 1, name: say('en', 'verify.title') })).toBeFocused()
    await expect(page.getByLabel(say('en', 'codes.code'), { exact: true })).toHaveValue(codeIn(fresh))
    await submitFrom(page, say('en', 'codes.code'))
    await expect(page.getByRole('heading', { level: 1, name: say('en', 'profile.title') })).toBeFocused()
    await expect(page.getByRole('region', { name: say('en', 'success.title') })).toContainText(say('en', 'verify.done'))
    await expect(page.getByText(say('en', 'verify.notYet'))).toHaveCount(0)
    await checkA11y()
  })
})

test.describe('the profile\'s language (docs/api/messaging.md: e-mails and pushes in it)', () => {
  test.use({ locale: 'de-DE' })
  const profileLocale = async (request: APIRequestContext, person: Person) => ((await getAs(request, '/users/me', person)) as { locale?: string }).locale

  test('set from the language read here after signing in, and again when the person switches', async ({ page, request }) => {
    const person = await registerPerson(request, 'Ida')
    expect(await profileLocale(request, person)).toBe('en')
    await signInAs(page, 'de', person)
    await expect.poll(() => profileLocale(request, person)).toBe('de')
    await tabTo(page, page.getByRole('button', { name: 'English' }))
    await page.keyboard.press('Enter')
    await expect(page.getByRole('button', { name: 'Deutsch' })).toBeVisible()
    await expect.poll(() => profileLocale(request, person)).toBe('en')
  })
})
