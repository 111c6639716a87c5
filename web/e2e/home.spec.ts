import { expect, expectNoHorizontalScroll, test } from './fixtures.js'

test.describe('start page', () => {
  test('English: landmarks, skip link and axe', async ({ page, gotoPage }) => {
    await gotoPage('/', 'Neighbourly help')
    await expect(page).toHaveTitle('Neighbourly help')
    await expect(page.locator('html')).toHaveAttribute('lang', 'en')
    await page.keyboard.press('Tab')
    const skip = page.getByRole('link', { name: 'Skip to main content' })
    await expect(skip).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('main')).toBeFocused()
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' })).toBeVisible()
  })

  test('the language can be switched to German and back by keyboard', async ({ page, gotoPage, checkA11y }) => {
    await gotoPage('/', 'Neighbourly help')
    const deutsch = page.getByRole('button', { name: 'Deutsch' })
    await deutsch.focus()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Nachbarschaftshilfe' })).toBeVisible()
    await expect(page.locator('html')).toHaveAttribute('lang', 'de')
    await checkA11y()
    // The choice is kept across a reload.
    await page.reload()
    await expect(page.getByRole('heading', { level: 1, name: 'Nachbarschaftshilfe' })).toBeVisible()
    await page.getByRole('button', { name: 'English' }).press('Space')
    await expect(page.getByRole('heading', { level: 1, name: 'Neighbourly help' })).toBeVisible()
  })

  test('a German browser gets German first', async ({ browser }) => {
    const context = await browser.newContext({ locale: 'de-DE' })
    const page = await context.newPage()
    await page.goto('/')
    await expect(page.getByRole('heading', { level: 1, name: 'Nachbarschaftshilfe' })).toBeVisible()
    await context.close()
  })

  test('320 px wide and 200% zoom: no horizontal scrolling', async ({ page, gotoPage }) => {
    await page.setViewportSize({ width: 320, height: 640 })
    await gotoPage('/', 'Neighbourly help')
    await expectNoHorizontalScroll(page)
    // 200% zoom of a 1280 × 800 window lays the page out in 640 × 400 CSS px.
    await page.setViewportSize({ width: 640, height: 400 })
    await expectNoHorizontalScroll(page)
  })

  test('an unknown app address shows the not-found page', async ({ gotoPage }) => {
    await gotoPage('/no/such/page', 'Page not found')
  })

  test('a page whose code cannot be loaded says so, and "Try again" loads it', async ({ page, gotoPage, checkA11y }) => {
    await gotoPage('/', 'Neighbourly help')
    // As when the connection drops, or a new version of the app has replaced the files.
    await page.route('**/assets/sign-in-*.js', (route) => route.abort('internetdisconnected'))
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign in' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'This page could not be loaded' })).toBeFocused()
    await expect(page.getByRole('alert')).toHaveText('The page could not be loaded. Check your connection, then try again.')
    await expect(page).toHaveTitle('Error: This page could not be loaded – Neighbourly help')
    await checkA11y()
    // Another page is shown as usual.
    await page.getByRole('link', { name: 'Neighbourly help' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Neighbourly help' })).toBeFocused()
    await page.goBack()
    // Focused before the next key: the app moves focus to the h1 a frame after it appears.
    await expect(page.getByRole('heading', { level: 1, name: 'This page could not be loaded' })).toBeFocused()
    await page.unroute('**/assets/sign-in-*.js')
    await page.getByRole('button', { name: 'Try again' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible()
  })

  test('without the German texts a German browser gets the page in English, and choosing German says why not', async ({ browser }) => {
    const context = await browser.newContext({ locale: 'de-DE' })
    const page = await context.newPage()
    await page.route('**/assets/de-*.json', (route) => route.abort('internetdisconnected'))
    await page.goto('/')
    await expect(page.getByRole('heading', { level: 1, name: 'Neighbourly help' })).toBeVisible()
    // English words, marked as English for screen readers.
    await expect(page.locator('html')).toHaveAttribute('lang', 'en')
    await page.getByRole('button', { name: 'Deutsch' }).press('Enter')
    const why = 'No connection to the service. Check your connection and try again.'
    await expect(page.getByRole('banner').getByText(why)).toBeVisible()
    await expect(page.getByRole('status')).toHaveText(why)
    await expect(page.locator('html')).toHaveAttribute('lang', 'en')
    await page.unroute('**/assets/de-*.json')
    await page.getByRole('button', { name: 'Deutsch' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Nachbarschaftshilfe' })).toBeVisible()
    await expect(page.getByRole('banner').getByText(why)).toHaveCount(0)
    await context.close()
  })
})

test('the CSP is in force and a violation is seen by the test fixture', async ({ browser, baseURL }) => {
  const page = await browser.newPage()
  const messages: string[] = []
  page.on('console', (message) => messages.push(message.text()))
  const response = await page.goto(`${baseURL ?? ''}/`)
  const csp = response?.headers()['content-security-policy'] ?? ''
  expect(csp).toContain("script-src 'self'")
  expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/)
  await page.evaluate(() => {
    const script = document.createElement('script')
    script.textContent = 'window.inlineRan = true'
    document.body.append(script)
  })
  expect(await page.evaluate(() => (window as unknown as { inlineRan?: boolean }).inlineRan)).toBeUndefined()
  await expect.poll(() => messages.some((text) => /Refused to|Content Security Policy/i.test(text))).toBe(true)
  await page.close()
})

test('on a slow connection the page says it is loading, in both languages, until the app arrives', async ({ page }) => {
  let release!: () => void
  const released = new Promise<void>((resolve) => { release = resolve })
  // Holds the app's code, as a slow connection would.
  await page.route(/\/assets\/[^/]*\.js$/, async (route) => {
    await released
    await route.continue()
  })
  // 'commit': the page's own load waits for its module scripts, which are held.
  await page.goto('/', { waitUntil: 'commit' })
  await expect(page.getByText('Loading… · Wird geladen…')).toBeVisible()
  await expect(page.locator('[lang="de"]', { hasText: 'Wird geladen…' })).toBeVisible()
  release()
  await expect(page.getByRole('heading', { level: 1, name: 'Neighbourly help' })).toBeVisible()
  await expect(page.getByText('Wird geladen…')).toHaveCount(0)
})
