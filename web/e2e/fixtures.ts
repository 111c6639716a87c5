import { AxeBuilder } from '@axe-core/playwright'
import { test as base, expect, type Locator, type Page } from '@playwright/test'

/** WCAG 2.2 A and AA; axe's best-practice rules too. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']

/**
 * The scan of the page, or of `include` (a CSS selector). Legacy mode runs axe.run in the page itself: the
 * default opens a blank page per scan to merge the frames' results (the app has no frames), which made axe
 * half of the browser tests' CPU (docs/development.md). Only violations are reported in full.
 */
function axe (page: Page, include?: string): AxeBuilder {
  const builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).withTags(AXE_TAGS).setLegacyMode()
  return include === undefined ? builder : builder.include(include)
}

export interface Fixtures {
  /** Scans the page (or `include`, a CSS selector) and fails on any violation, with the results attached. */
  checkA11y: (include?: string) => Promise<void>
  /** Opens `path`, waits until the page's h1 is shown, then scans it. */
  gotoPage: (path: string, heading: string | RegExp) => Promise<void>
}

export const test = base.extend<Fixtures>({
  page: async ({ page }, use) => {
    // A console message about a refused resource is a Content-Security-Policy violation: fail on it.
    const refused: string[] = []
    page.on('console', (message) => {
      if (/Refused to|Content Security Policy/i.test(message.text())) refused.push(message.text())
    })
    page.on('pageerror', (error) => refused.push(`page error: ${error.message}`))
    await recordSaid(page)
    await use(page)
    expect(refused, 'CSP violations or uncaught errors').toEqual([])
  },
  checkA11y: async ({ page }, use, testInfo) => {
    await use(async (include?: string) => {
      const results = await axe(page, include).analyze()
      await testInfo.attach('axe-results', { body: JSON.stringify(results.violations, null, 2), contentType: 'application/json' })
      const summary = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)
      expect(summary, `axe violations on ${page.url()}`).toEqual([])
    })
  },
  gotoPage: async ({ page, checkA11y }, use) => {
    await use(async (path: string, heading: string | RegExp) => {
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
      await checkA11y()
    })
  },
})

export { expect }

/** Reaches `target` by pressing Tab from where focus is now, as a keyboard user would. */
export async function tabTo (page: Page, target: Locator, limit = 40): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((element) => element === document.activeElement)) return
    await page.keyboard.press('Tab')
  }
  await expect(target).toBeFocused()
}

/**
 * No horizontal scrolling: the page is no wider than the window. And nothing cut off: no element that hides
 * what overflows it (overflow hidden or clip) is narrower or lower than its content. Not counted: text fields,
 * which scroll their own text; what is hidden for screen readers only (a box of 1 px or less: ours and React
 * Aria's visually hidden texts and inputs); the map, which pans.
 */
export async function expectNoHorizontalScroll (page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
  expect(overflow, 'horizontal overflow in CSS px').toBeLessThanOrEqual(0)
  const cut = await page.evaluate(() => [...document.querySelectorAll('body *')].flatMap((element) => {
    if (element.matches('input, textarea, select, .leaflet-container, .leaflet-container *')) return []
    const box = element.getBoundingClientRect()
    if (box.width <= 1 && box.height <= 1) return []
    const style = getComputedStyle(element)
    const hides = (value: string) => value === 'hidden' || value === 'clip'
    const wide = hides(style.overflowX) && element.scrollWidth > element.clientWidth + 1
    const tall = hides(style.overflowY) && element.scrollHeight > element.clientHeight + 1
    return wide || tall ? [`<${element.tagName.toLowerCase()} class="${element.getAttribute('class') ?? ''}">: ${element.scrollWidth}×${element.scrollHeight} in ${element.clientWidth}×${element.clientHeight}`] : []
  }))
  expect(cut, 'content cut off').toEqual([])
}

/**
 * Nothing on the page moves by CSS: no element has a transition or animation time, and no animation runs.
 * For pages under `prefers-reduced-motion: reduce`. (Leaflet's keyboard pans glide by script: docs/web/help.md › Map.)
 */
export async function expectNoMotion (page: Page): Promise<void> {
  const moving = await page.evaluate(() => {
    const still = (time: string) => time.split(',').every((part) => ['0s', 'auto'].includes(part.trim()))
    const found = [...document.querySelectorAll('*')].flatMap((element) => {
      const style = getComputedStyle(element)
      return still(style.transitionDuration) && still(style.animationDuration)
        ? []
        : [`<${element.tagName.toLowerCase()} class="${element.getAttribute('class') ?? ''}">: transition ${style.transitionDuration}, animation ${style.animationDuration}`]
    })
    return [...found, ...document.getAnimations().map((animation) => `running: ${animation.constructor.name}`)]
  })
  expect(moving, `motion on ${page.url()} despite prefers-reduced-motion`).toEqual([])
}

let counter = 0
export function uniqueEmail (label: string): string {
  counter += 1
  return `${label}.${Date.now().toString(36)}.${process.pid}.${counter}@example.org`
}

export const PASSWORD = 'correct horse battery'

/** Types into the field with this label, reached by the keyboard rather than by a click. */
export async function fill (page: Page, label: string, value: string): Promise<void> {
  const field = page.getByRole('textbox', { name: label, exact: true })
  await field.focus()
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.press('Backspace')
  await page.keyboard.type(value)
}

export async function register (page: Page, email: string, first = 'Ada'): Promise<void> {
  await page.goto('/register')
  await fill(page, 'First name', first)
  await fill(page, 'Last name', 'Lovelace')
  await fill(page, 'Email address', email)
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByRole('button', { name: 'Create account' }).press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: `Hello, ${first}` })).toBeFocused()
}

/**
 * The polite live region has said `text` at some point since the page loaded: for a message that a later
 * one (the title of the page an action led to) may replace, when the two are more than a moment apart.
 */
/** Records everything the live region says, in order, for expectSaid (the region itself holds only the latest). */
export async function recordSaid (page: Page): Promise<void> {
  await page.addInitScript(() => {
    const said: string[] = []
    Object.assign(window, { e2eSaid: said })
    new MutationObserver(() => {
      const text = document.querySelector('[role=status][aria-live]')?.textContent ?? ''
      if (text !== '' && said.at(-1) !== text) said.push(text)
    }).observe(document, { childList: true, subtree: true, characterData: true })
  })
}

export async function expectSaid (page: Page, text: string): Promise<void> {
  await expect.poll(() => page.evaluate(() => (window as unknown as { e2eSaid: string[] }).e2eSaid.join('\n'))).toContain(text)
}

/**
 * The polite live region ends with `text`. Messages that come within a moment of each other are
 * said together, and a keyboard-fast test can make several, so only the last is pinned here.
 */
export async function expectAnnounced (page: Page, text: string): Promise<void> {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  await expect(page.getByRole('status')).toHaveText(new RegExp(`(^|\\s)${escaped}$`))
}

/** The same scan as checkA11y, for a page of a context the test opened itself (another language or size). */
export async function scanA11y (page: Page, include?: string): Promise<void> {
  const results = await axe(page, include).analyze()
  expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`), `axe violations on ${page.url()}`).toEqual([])
}
