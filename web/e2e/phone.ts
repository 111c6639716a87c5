import type { Browser, Page } from '@playwright/test'
import { expect, expectNoHorizontalScroll, recordSaid, scanA11y } from './fixtures.js'
import type { Lang } from './say.js'

/**
 * Steps of the carers' specs, where two people act in browsers of their own at a phone's width: the
 * browser, the check of each page (axe, no sideways scroll), and moving on by keyboard to the next page.
 */

const locale = (lang: Lang) => lang === 'de' ? 'de-DE' : 'en-GB'

/** A phone-sized browser of its own in `lang`, failing on CSP refusals and uncaught errors as the fixture's page does. */
export async function phone (browser: Browser, lang: Lang): Promise<{ page: Page, problems: string[] }> {
  const context = await browser.newContext({ locale: locale(lang), viewport: { width: 320, height: 800 } })
  const page = await context.newPage()
  const problems: string[] = []
  page.on('console', (message) => { if (/Refused to|Content Security Policy/i.test(message.text())) problems.push(message.text()) })
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  await recordSaid(page)
  return { page, problems }
}

/** Axe and nothing wider than the phone's screen. */
export async function scan (page: Page): Promise<void> {
  await scanA11y(page)
  await expectNoHorizontalScroll(page)
}

export const h1 = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name, exact: typeof name === 'string' })

/** Presses a button or link by the keyboard and waits for the next page's h1 to take focus. */
export async function go (page: Page, target: ReturnType<Page['getByRole']>, heading: string | RegExp): Promise<void> {
  await target.press('Enter')
  await expect(h1(page, heading)).toBeFocused()
  await scan(page)
}
