import type { Browser, Page } from '@playwright/test'
import { expect, expectNoHorizontalScroll, scanA11y, tabTo, test } from './fixtures.js'
import { PASSWORD, registerPerson, type Person } from './journeys.js'

/**
 * Signing out (docs/web/accounts.md › Signing out): the menu's "Sign out" ends this device's session, the
 * profile's "Sign out on every device" ends them all. Each device is a browser context of its own.
 */
const WORDS = {
  en: { locale: 'en-GB', menu: 'Menu', nav: 'Main', email: 'Email address', password: 'Password', hello: 'Hello', profile: 'Your profile', signIn: 'Sign in', signOut: 'Sign out', signedOut: 'You are signed out.', everywhereTitle: 'Sign out everywhere', everywhere: 'Sign out on every device', signedOutEverywhere: 'You are signed out on every device.', service: 'Neighbourly help' },
  de: { locale: 'de-DE', menu: 'Menü', nav: 'Hauptmenü', email: 'E-Mail-Adresse', password: 'Passwort', hello: 'Hallo', profile: 'Ihr Profil', signIn: 'Anmelden', signOut: 'Abmelden', signedOut: 'Sie sind abgemeldet.', everywhereTitle: 'Überall abmelden', everywhere: 'Auf allen Geräten abmelden', signedOutEverywhere: 'Sie sind auf allen Geräten abgemeldet.', service: 'Nachbarschaftshilfe' },
} as const
type Language = keyof typeof WORDS

async function device (browser: Browser, language: Language, width: number): Promise<Page> {
  const context = await browser.newContext({ locale: WORDS[language].locale, viewport: { width, height: width === 320 ? 640 : 800 } })
  return await context.newPage()
}

async function signInOn (page: Page, language: Language, person: Person): Promise<void> {
  const w = WORDS[language]
  await page.goto('/sign-in')
  await page.getByRole('textbox', { name: w.email }).fill(person.email)
  await page.getByLabel(w.password, { exact: true }).fill(PASSWORD)
  await page.getByLabel(w.password, { exact: true }).press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: `${w.hello}, ${person.first}` })).toBeFocused()
}

/** Presses a button of the menu by keyboard, unfolding the menu first where it is folded (a phone). */
async function pressInMenu (page: Page, language: Language, name: string): Promise<void> {
  const w = WORDS[language]
  const menu = page.getByRole('button', { name: w.menu })
  if (await menu.isVisible() && await menu.getAttribute('aria-expanded') === 'false') await menu.press('Enter')
  await page.getByRole('navigation', { name: w.nav }).getByRole('button', { name }).press('Enter')
}

/** Still signed in after a reload: the session cookie renews the session. */
async function expectSignedIn (page: Page, language: Language, person: Person): Promise<void> {
  await page.reload()
  await expect(page.getByRole('heading', { level: 1, name: `${WORDS[language].hello}, ${person.first}` })).toBeVisible()
}

async function expectSignedOut (page: Page, language: Language): Promise<void> {
  const w = WORDS[language]
  await page.reload()
  await expect(page.getByRole('heading', { level: 1, name: w.service })).toBeVisible()
  const menu = page.getByRole('button', { name: w.menu })
  if (await menu.isVisible() && await menu.getAttribute('aria-expanded') === 'false') await menu.press('Enter')
  await expect(page.getByRole('navigation', { name: w.nav }).getByRole('link', { name: w.signIn })).toBeVisible()
}

for (const [language, width] of [['en', 1280], ['de', 320]] as const) {
  const w = WORDS[language]
  test(`signing out ends this device's session; "everywhere" ends all (${language}, ${width} px)`, async ({ browser, request }) => {
    const person = await registerPerson(request, language === 'de' ? 'Rosa' : 'Vera')
    const phone = await device(browser, language, width)
    const library = await device(browser, language, width)
    const laptop = await device(browser, language, width)
    for (const page of [phone, library, laptop]) await signInOn(page, language, person)

    // At the library: the menu's "Sign out" ends that session alone.
    await pressInMenu(library, language, w.signOut)
    await expect(library.getByRole('heading', { level: 1, name: w.service })).toBeFocused()
    await expect(library.getByRole('region', { name: language === 'de' ? 'Erfolg' : 'Success' })).toContainText(w.signedOut)
    await expectSignedOut(library, language)
    await expectSignedIn(phone, language, person)
    await expectSignedIn(laptop, language, person)

    // On the phone, from the profile: every device is signed out, this one too.
    await phone.goto('/profile')
    await expect(phone.getByRole('heading', { level: 1, name: w.profile })).toBeVisible()
    await expect(phone.getByRole('heading', { level: 2, name: w.everywhereTitle })).toBeVisible()
    await expectNoHorizontalScroll(phone)
    await scanA11y(phone)
    const everywhere = phone.getByRole('button', { name: w.everywhere })
    await tabTo(phone, everywhere, 120)
    await phone.keyboard.press('Enter')
    await expect(phone.getByRole('heading', { level: 1, name: w.service })).toBeFocused()
    await expect(phone.getByRole('region', { name: language === 'de' ? 'Erfolg' : 'Success' })).toContainText(w.signedOutEverywhere)
    await expectSignedOut(phone, language)
    await expectSignedOut(laptop, language)
    for (const page of [phone, library, laptop]) await page.context().close()
  })
}
