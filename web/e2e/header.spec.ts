import type { Browser, Page } from '@playwright/test'
import { expect, recordSaid, scanA11y, tabTo, test } from './fixtures.js'
import { createRequest, giveRole, offer, registerPerson, signIn, uniquePoint, approve, PASSWORD } from './journeys.js'

/**
 * The header and its patterns (docs/web.md › Accessibility patterns): the menu folds on a phone, marks the
 * current page, and puts first what the person does; a success banner on the page an action lands on, spoken
 * once; the tab title names the service once; a signed-out page load logs no error. Each at 320 and 1280 px, in English and German.
 */
const WIDTHS = [320, 1280] as const
const WORDS = {
  en: { menu: 'Menu', nav: 'Main', service: 'Neighbourly help', signIn: 'Sign in', email: 'Email address', password: 'Password', hello: 'Hello', ask: 'Ask for help', mine: 'Your requests', find: 'Find help nearby', offers: 'My offers', when: 'When I can help', success: 'Success', signOut: 'Sign out', signedOut: 'You are signed out.', save: 'Save', onDuty: /On duty/, saved: 'Saved. You are on duty.', whenTitle: 'When you can help' },
  de: { menu: 'Menü', nav: 'Hauptmenü', service: 'Nachbarschaftshilfe', signIn: 'Anmelden', email: 'E-Mail-Adresse', password: 'Passwort', hello: 'Hallo', ask: 'Um Hilfe bitten', mine: 'Ihre Anfragen', find: 'Hilfe in der Nähe', offers: 'Meine Angebote', when: 'Wann ich helfen kann', success: 'Erfolg', signOut: 'Abmelden', signedOut: 'Sie sind abgemeldet.', save: 'Speichern', onDuty: /Im Dienst/, saved: 'Gespeichert. Sie sind im Dienst.', whenTitle: 'Wann Sie helfen können' },
} as const
type Language = keyof typeof WORDS

async function openPage (browser: Browser, language: Language, width: number): Promise<Page> {
  const context = await browser.newContext({ locale: language === 'de' ? 'de-DE' : 'en-GB', viewport: { width, height: width === 320 ? 640 : 800 } })
  return await context.newPage()
}

async function signInAs (page: Page, language: Language, email: string, first: string): Promise<void> {
  const w = WORDS[language]
  await page.goto('/sign-in')
  await page.getByRole('textbox', { name: w.email }).fill(email)
  await page.getByLabel(w.password, { exact: true }).fill(PASSWORD)
  await page.getByLabel(w.password, { exact: true }).press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: `${w.hello}, ${first}` })).toBeFocused()
}

async function scan (page: Page): Promise<void> {
  await scanA11y(page)
}

/** The names of the menu's links and buttons, in order (unfolding the menu on a phone, and folding it again). */
async function menuItems (page: Page, language: Language): Promise<string[]> {
  const button = page.getByRole('button', { name: WORDS[language].menu })
  const folded = await button.isVisible() && await button.getAttribute('aria-expanded') === 'false'
  if (folded) await button.press('Enter')
  const items = await page.getByRole('navigation', { name: WORDS[language].nav }).getByRole('listitem').allInnerTexts()
  if (folded) await button.press('Enter')
  return items
}

/** Follows a menu link by keyboard, unfolding the menu first where it is folded (a phone). */
async function follow (page: Page, language: Language, link: string, heading: string): Promise<void> {
  const w = WORDS[language]
  const button = page.getByRole('button', { name: w.menu })
  if (await button.isVisible()) {
    if (await button.getAttribute('aria-expanded') === 'false') await button.press('Enter')
  }
  await page.getByRole('navigation', { name: w.nav }).getByRole('link', { name: link, exact: true }).press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeFocused()
}

for (const language of ['en', 'de'] as const) {
  const w = WORDS[language]
  for (const width of WIDTHS) {
    test(`signed out (${language}, ${width} px): no console error, the tab title names the service once`, async ({ browser }) => {
      const page = await openPage(browser, language, width)
      const errors: string[] = []
      page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()) })
      await page.goto('/')
      await expect(page.getByRole('heading', { level: 1, name: w.service })).toBeVisible()
      await expect(page.getByRole('navigation', { name: w.nav })).toBeAttached()
      // The session was asked for (the page shows once it has answered), and nothing failed.
      expect(errors, 'console errors on a signed-out page load').toEqual([])
      await expect(page).toHaveTitle(w.service)
      await page.goto('/sign-in')
      await expect(page.getByRole('heading', { level: 1, name: w.signIn })).toBeVisible()
      await expect(page).toHaveTitle(`${w.signIn} – ${w.service}`)
      expect(errors, 'console errors on a signed-out page load').toEqual([])
      await scan(page)
      await page.context().close()
    })

    test(`the menu (${language}, ${width} px): folded on a phone, current page marked, asking first for someone who asks`, async ({ browser, request }) => {
      const requester = await registerPerson(request, 'Rita', 'Asker')
      await createRequest(request, requester, { ...uniquePoint(), title: 'Lift to the doctor' })
      const page = await openPage(browser, language, width)
      await signInAs(page, language, requester.email, 'Rita')
      const nav = page.getByRole('navigation', { name: w.nav })
      const button = page.getByRole('button', { name: w.menu })
      if (width === 320) {
        // The page, not the menu, is what a phone shows first.
        const top = (await page.getByRole('heading', { level: 1 }).boundingBox())?.y ?? Infinity
        expect(top, 'the h1 starts within the first 200 of 640 px').toBeLessThan(200)
        await expect(button).toHaveAttribute('aria-expanded', 'false')
        await expect(nav.getByRole('link', { name: w.ask })).toBeHidden()
        await scan(page)
        // By keyboard: Tab from the top of the page to the button, open, follow a link; the menu folds again.
        await page.evaluate(() => { (document.activeElement as HTMLElement | null)?.blur() })
        await tabTo(page, button)
        await page.keyboard.press('Enter')
        await expect(button).toHaveAttribute('aria-expanded', 'true')
        const controlled = await button.getAttribute('aria-controls')
        await expect(page.locator(`#${controlled ?? 'none'}`)).toBeVisible()
        await expect(nav.getByRole('link', { name: w.ask })).toBeVisible()
        await scan(page)
        await page.keyboard.press('Escape')
        await expect(button).toHaveAttribute('aria-expanded', 'false')
        await expect(button).toBeFocused()
      } else {
        await expect(button).toBeHidden()
        await expect(nav.getByRole('link', { name: w.ask })).toBeVisible()
      }
      // Asking first for someone who has asked for help; volunteering after it.
      const items = await menuItems(page, language)
      expect(items.slice(0, 2)).toEqual([w.ask, w.mine])
      expect(items.indexOf(w.when)).toBeGreaterThan(items.indexOf(w.mine))
      await follow(page, language, w.mine, w.mine)
      if (width === 320) await expect(button).toHaveAttribute('aria-expanded', 'false')
      if (width === 320) await button.press('Enter')
      await expect(nav.getByRole('link', { name: w.mine })).toHaveAttribute('aria-current', 'page')
      await expect(nav.getByRole('link', { name: w.ask })).not.toHaveAttribute('aria-current')
      await scan(page)
      await page.context().close()
    })

    test(`a success banner (${language}, ${width} px): on the page an action lands on, spoken once, gone on the next page`, async ({ browser, request }) => {
      const volunteer = await registerPerson(request, 'Vera', 'Helper', uniquePoint())
      // She has offered help and never asked: volunteering comes first in her menu.
      const requester = await registerPerson(request, 'Rita', 'Asker')
      const id = await createRequest(request, requester, { ...uniquePoint(), title: 'Carry the shopping' })
      await approve(request, id)
      await offer(request, id, volunteer)
      const page = await openPage(browser, language, width)
      await recordSaid(page)
      await signInAs(page, language, volunteer.email, 'Vera')
      expect((await menuItems(page, language)).slice(0, 3)).toEqual([w.find, w.offers, w.when])
      await follow(page, language, w.when, w.whenTitle)
      const onDuty = page.getByRole('switch', { name: w.onDuty })
      await onDuty.focus()
      await page.keyboard.press('Space')
      await page.getByRole('button', { name: w.save, exact: true }).press('Enter')
      const banner = page.getByRole('region', { name: w.success })
      await expect(banner).toBeVisible()
      await expect(banner).toContainText(w.saved)
      await expect.poll(() => page.evaluate((text) => (window as unknown as { e2eSaid: string[] }).e2eSaid.join('\n').split(text).length - 1, w.saved)).toBe(1)
      await scan(page)
      await follow(page, language, w.offers, w.offers)
      await expect(page.getByRole('region', { name: w.success })).toHaveCount(0)
      // Signing out lands on the start page, which says so.
      const button = page.getByRole('button', { name: w.menu })
      if (width === 320) await button.press('Enter')
      await page.getByRole('navigation', { name: w.nav }).getByRole('button', { name: w.signOut }).press('Enter')
      await expect(page.getByRole('heading', { level: 1, name: w.service })).toBeFocused()
      await expect(page.getByRole('region', { name: w.success })).toContainText(w.signedOut)
      await scan(page)
      await page.context().close()
    })
  }
}

test('a moderator sees the approval in a banner, and moderation comes first in the menu', async ({ page, request, checkA11y }) => {
  const moderator = await registerPerson(request, 'Mona', 'Moderator')
  await giveRole(request, moderator, 2)
  const requester = await registerPerson(request, 'Rita', 'Asker')
  const title = `Lift to the doctor ${Date.now().toString(36)}`
  await createRequest(request, requester, { ...uniquePoint(), title, urgency: 'urgent' })
  await signIn(page, moderator)
  expect((await menuItems(page, 'en'))[0]).toBe('Moderation')
  await follow(page, 'en', 'Moderation', 'Requests waiting for a decision')
  await page.getByRole('article', { name: title }).getByRole('button', { name: `Approve: ${title}` }).press('Enter')
  await expect(page.getByRole('region', { name: 'Success' })).toContainText(`Approved: ${title}.`)
  await checkA11y()
})
