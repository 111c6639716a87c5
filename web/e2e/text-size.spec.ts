import type { Page } from '@playwright/test'
import { expect, expectNoHorizontalScroll, test } from './fixtures.js'
import { accept, approve, createRequest, north, offer, registerPerson, signIn, uniquePoint } from './journeys.js'

/**
 * The browser's minimum font size: every text set smaller is drawn at `px`. The headless Chromium of these
 * tests ignores the profile's webkit.webprefs.minimum_font_size, and CDP has only Page.setFontSizes (the
 * default size, which rem already follows), so the setting's effect is applied here: each element whose
 * computed size is smaller gets `px` (docs/web.md › Text size).
 */
async function minimumFontSize (page: Page, px: number): Promise<void> {
  await page.evaluate((min) => {
    for (const element of document.querySelectorAll<HTMLElement>('body, body *')) {
      if (Number.parseFloat(getComputedStyle(element).fontSize) < min) element.style.setProperty('font-size', `${min}px`, 'important')
    }
  }, px)
}

/** 400% zoom (320 × 256 CSS px of a 1280 × 1024 window) and a minimum font size of 24 px. */
test('at 400% zoom with a minimum font size of 24 px, nothing scrolls sideways or is cut off', async ({ page, request }) => {
  test.setTimeout(120_000)
  const home = uniquePoint()
  const requester = await registerPerson(request, 'Rita', 'Asker')
  const id = await createRequest(request, requester, { ...north(home, 300), title: 'Carry the shopping upstairs', urgency: 'urgent' })
  await approve(request, id)
  const volunteer = await registerPerson(request, 'Vera', 'Helper', home)
  await accept(request, id, await offer(request, id, volunteer), requester)
  await page.setViewportSize({ width: 320, height: 256 })
  await signIn(page, volunteer)
  const pages: Array<[string, string | RegExp]> = [
    ['/', /^Hello, /],
    ['/find-help', 'Find people to help nearby'],
    [`/find-help?lat=${home.latitude}&lon=${home.longitude}&radius=5000`, 'Find people to help nearby'],
    [`/find-help?lat=${home.latitude}&lon=${home.longitude}&radius=5000&view=map`, 'Find people to help nearby'],
    [`/find-help/${id}`, 'Carry the shopping upstairs'],
    ['/my-offers', 'My offers'],
    ['/availability', 'When you can help'],
    ['/requests/mine', 'Your requests'],
    ['/ask', 'What kind of help do you need?'],
  ]
  const failures: string[] = []
  for (const language of ['en', 'de'] as const) {
    if (language === 'de') await page.getByRole('button', { name: 'Deutsch' }).press('Enter')
    for (const [path, heading] of pages) {
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1, ...(language === 'en' ? { name: heading } : {}) })).toBeVisible()
      await minimumFontSize(page, 24)
      try {
        await expectNoHorizontalScroll(page)
      } catch (error) {
        failures.push(`${language} ${path}: ${(error as Error).message.split('\n').slice(0, 12).join(' ')}`)
      }
    }
  }
  expect(failures).toEqual([])
})
