import type { BrowserContext, Page } from '@playwright/test'
import { expect, expectNoHorizontalScroll, test } from './fixtures.js'
import { accept, approve, createRequest, followNav, offer, registerPerson, signIn, uniquePoint } from './journeys.js'

/** "at 14:02": the time the page was last seen, as the notice writes it (en-GB and de-DE both write 24-hour hh:mm). */
const LAST_SEEN = /at \d{2}:\d{2}; it is not live\./

/** The notice, a region named by its heading, and the page still there under it. */
async function expectOfflineNotice (page: Page, title = 'You are offline', lastSeen: RegExp = LAST_SEEN): Promise<void> {
  const notice = page.getByRole('region', { name: title })
  await expect(notice).toBeVisible()
  await expect(notice).toContainText(lastSeen)
}

/** What a person last saw of their own requests and accepted help stays readable offline. */
test.describe('without a connection', () => {
  test('a requester reads their requests offline, is told it is not live, and an action is refused in words', async ({ page, context, request, checkA11y }) => {
    const point = uniquePoint()
    const requester = await registerPerson(request, 'Olga', 'Offline')
    const id = await createRequest(request, requester, { ...point, title: 'Collect the library books', urgency: 'medium' })
    await createRequest(request, requester, { ...point, title: 'Post the birthday card', urgency: 'low' })
    await signIn(page, requester)
    await followNav(page, 'Your requests', 'Your requests')
    await expect(page.getByRole('link', { name: 'Collect the library books' })).toBeVisible()
    await expect(page.getByRole('region', { name: 'You are offline' })).toHaveCount(0)
    await page.getByRole('link', { name: 'Collect the library books' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Collect the library books' })).toBeFocused()

    await context.setOffline(true)
    await followNav(page, 'Your requests', 'Your requests')
    await expectOfflineNotice(page)
    await expect(page.getByRole('link', { name: 'Collect the library books' })).toBeVisible()
    await checkA11y()
    await page.getByRole('link', { name: 'Collect the library books' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Collect the library books' })).toBeFocused()
    await expectOfflineNotice(page)
    await expect(page).toHaveURL(new RegExp(`/requests/${id}$`))

    // A request never opened online was not kept: said in words, not an endless "Loading…"; it comes once online.
    await followNav(page, 'Your requests', 'Your requests')
    await page.getByRole('link', { name: 'Post the birthday card' }).press('Enter')
    await expect(page.getByRole('main')).toContainText('Not kept for reading offline: shown when you are back online.')
    await context.setOffline(false)
    await expect(page.getByRole('heading', { level: 1, name: 'Post the birthday card' })).toBeVisible()

    // In German (its texts load on first use, so chosen online) and 320 px wide: still readable, nothing cut off.
    await context.setOffline(false)
    await page.getByRole('button', { name: 'Deutsch' }).press('Enter')
    await expect(page.getByRole('navigation', { name: 'Hauptmenü' })).toBeVisible()
    await context.setOffline(true)
    await page.setViewportSize({ width: 320, height: 640 })
    await expectOfflineNotice(page, 'Sie sind offline', /um \d{2}:\d{2} gesehen; es ist nicht aktuell\./)
    await expectNoHorizontalScroll(page)
    await checkA11y()

    // Back online, the notice goes.
    await context.setOffline(false)
    await expect(page.getByRole('region', { name: 'Sie sind offline' })).toHaveCount(0)
  })

  test('a volunteer reads the help they were accepted for offline; offering help offline is refused in words', async ({ page, context, request, checkA11y }) => {
    const point = uniquePoint()
    const requester = await registerPerson(request, 'Rita', 'Asker')
    const accepted = await createRequest(request, requester, { ...point, title: 'Walk the dog on Sunday', urgency: 'high' })
    await approve(request, accepted)
    const open = await createRequest(request, requester, { ...point, title: 'Hang the curtains', urgency: 'low' })
    await approve(request, open)
    const volunteer = await registerPerson(request, 'Vic', 'Helper', point)
    await accept(request, accepted, await offer(request, accepted, volunteer), requester)

    await signIn(page, volunteer)
    await page.goto(`/find-help/${open}`)
    await expect(page.getByRole('heading', { level: 1, name: 'Hang the curtains' })).toBeVisible()
    // The offer form comes with the page's offers, asked for after the request: seen before leaving, so it was kept.
    await expect(page.getByRole('button', { name: 'Offer help' })).toBeVisible()
    await followNav(page, 'My offers', 'My offers')
    await expect(page.getByRole('link', { name: 'Walk the dog on Sunday' })).toBeVisible()

    await context.setOffline(true)
    // An action: refused at once, in words, in the error summary.
    await page.goBack()
    await expect(page.getByRole('heading', { level: 1, name: 'Hang the curtains' })).toBeVisible()
    await expectOfflineNotice(page)
    await page.getByRole('button', { name: 'Offer help' }).press('Enter')
    await expect(page.getByRole('alert')).toContainText('You are offline, so this was not sent. Try again when you are back online.')
    await checkA11y()

    await followNav(page, 'My offers', 'My offers')
    await expectOfflineNotice(page)
    await expect(page.getByRole('link', { name: 'Walk the dog on Sunday' })).toBeVisible()
    await checkA11y()
  })
})

/**
 * Opens a request from a page of the menu (so the app keeps it), waits until the service worker has kept the
 * app's files (it registers once the page has loaded), then goes offline and reloads: the request is shown,
 * not the browser's offline page nor the sign-in page.
 */
async function openThenReloadOffline (page: Page, context: BrowserContext, menuPage: string, title: string): Promise<void> {
  await followNav(page, menuPage, menuPage)
  await page.getByRole('link', { name: title }).press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeFocused()
  // The page's sections (offers, history) have come too, as a person would have seen them before the connection went.
  await expect(page.getByRole('main')).not.toContainText('Loading…')
  await page.evaluate(async () => { await navigator.serviceWorker.ready })
  await context.setOffline(true)
  await page.reload()
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
  await expectOfflineNotice(page)
}

/** Every address the service worker's caches hold: the app's files only, never an API answer (docs/privacy.md). */
async function cachedAddresses (page: Page): Promise<string[]> {
  return await page.evaluate(async () => {
    const urls: string[] = []
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname)
    }
    return urls
  })
}

/** Offline reading (docs/web.md › Offline reading): a reload without a connection starts the app (service worker) and keeps the person signed in. */
test.describe('a reload without a connection', () => {
  test('a requester reloads offline and still reads their request and list, in English and German; an action is refused in words', async ({ page, context, request, checkA11y }) => {
    const point = uniquePoint()
    const requester = await registerPerson(request, 'Rosa', 'Reload')
    const id = await createRequest(request, requester, { ...point, title: 'Fetch the prescription', urgency: 'medium' })
    await signIn(page, requester)
    await openThenReloadOffline(page, context, 'Your requests', 'Fetch the prescription')
    await expect(page).toHaveURL(new RegExp(`/requests/${id}$`))
    await expect(page.getByRole('banner')).toContainText('Signed in as Rosa Reload')
    await checkA11y()
    await page.getByRole('button', { name: 'Cancel this request' }).press('Enter')
    await page.getByRole('button', { name: 'Yes, cancel it' }).press('Enter')
    await expect(page.getByRole('alert')).toContainText('You are offline, so this was not sent. Try again when you are back online.')
    await followNav(page, 'Your requests', 'Your requests')
    await expectOfflineNotice(page)
    await expect(page.getByRole('link', { name: 'Fetch the prescription' })).toBeVisible()
    await checkA11y()

    // The worker keeps the app's files and nothing else: no API answer, however private (docs/privacy.md).
    const cached = await cachedAddresses(page)
    expect(cached).toContain('/')
    expect(cached.filter((path) => !path.startsWith('/assets/') && !/^\/[\w.-]*$/.test(path)), 'only the app\'s files').toEqual([])
    expect(cached.filter((path) => path.startsWith('/api/'))).toEqual([])

    // German, chosen online; reloaded offline at 320 px: its texts come from the worker's cache too.
    await context.setOffline(false)
    await page.getByRole('button', { name: 'Deutsch' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Ihre Anfragen' })).toBeVisible()
    await context.setOffline(true)
    await page.setViewportSize({ width: 320, height: 640 })
    await page.reload()
    await expect(page.getByRole('heading', { level: 1, name: 'Ihre Anfragen' })).toBeVisible()
    await expectOfflineNotice(page, 'Sie sind offline', /um \d{2}:\d{2} gesehen; es ist nicht aktuell\./)
    await expect(page.getByRole('link', { name: 'Fetch the prescription' })).toBeVisible()
    await expectNoHorizontalScroll(page)
    await checkA11y()

    // Back online, the session is checked again and the page is live.
    await context.setOffline(false)
    await expect(page.getByRole('region', { name: 'Sie sind offline' })).toHaveCount(0)
    await page.getByRole('link', { name: 'Fetch the prescription' }).press('Enter')
    await expect(page.getByRole('button', { name: 'Diese Anfrage zurückziehen' })).toBeVisible()
  })

  test('a volunteer reloads offline and still reads the help they were accepted for; withdrawing is refused in words; signed out, nothing is kept', async ({ page, context, request, checkA11y }) => {
    const point = uniquePoint()
    const requester = await registerPerson(request, 'Ada', 'Asker')
    const accepted = await createRequest(request, requester, { ...point, title: 'Drive to the dentist', urgency: 'high' })
    await approve(request, accepted)
    const volunteer = await registerPerson(request, 'Vera', 'Helper', point)
    await accept(request, accepted, await offer(request, accepted, volunteer), requester)

    await signIn(page, volunteer)
    await openThenReloadOffline(page, context, 'My offers', 'Drive to the dentist')
    await checkA11y()
    await page.getByRole('button', { name: 'Withdraw my offer' }).press('Enter')
    await page.getByRole('button', { name: 'Yes, withdraw my offer' }).press('Enter')
    await expect(page.getByRole('alert')).toContainText('You are offline, so this was not sent. Try again when you are back online.')
    await followNav(page, 'My offers', 'My offers')
    await page.reload()
    await expect(page.getByRole('heading', { level: 1, name: 'My offers' })).toBeVisible()
    await expectOfflineNotice(page)
    await expect(page.getByRole('link', { name: 'Drive to the dentist' })).toBeVisible()
    await checkA11y()

    // Signed out (online), what was kept goes: offline, the same address now asks to sign in.
    await context.setOffline(false)
    await page.reload()
    await expect(page.getByRole('heading', { level: 1, name: 'My offers' })).toBeVisible()
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign out' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Neighbourly help' })).toBeVisible()
    await context.setOffline(true)
    await page.goto('/my-offers')
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible()
    expect(await page.evaluate(() => localStorage.getItem('vcs-last-seen'))).toBeNull()
  })
})
