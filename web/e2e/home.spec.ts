import { expect, expectNoHorizontalScroll, test } from './fixtures.js'

test.describe('start page', () => {
  test('English: landmarks, skip link and axe', async ({ page, gotoPage }) => {
    await gotoPage('/', 'Neighbourly help')
    await expect(page).toHaveTitle('Neighbourly help – Neighbourly help')
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
