import { generateKeyPairSync, randomBytes } from 'node:crypto'
import type { APIRequestContext, Page } from '@playwright/test'
import { expect, expectAnnounced, expectNoHorizontalScroll, tabTo, test } from './fixtures.js'
import { getAs, registerPerson, type Person } from './journeys.js'
import { unsubscribeTokenFor } from './unsubscribe-mail.js'
import { atBothWidths, say, signInAs, type Lang } from './say.js'

/**
 * docs/web/messaging.md: the notification settings page (channels, types, quiet hours, time zone) saved and read back by
 * keyboard; "Allow alerts on this device" saying plainly that this browser cannot; the devices list; the e-mail
 * footer's unsubscribe page; the service worker showing a push delivered through the DevTools protocol.
 */

interface Settings { email: { enabled: boolean, types: string[] }, push: { enabled: boolean, types: string[] }, quiet_hours: { start: string, end: string } | null, time_zone: string }

const settingsOf = async (api: APIRequestContext, person: Person) => await getAs(api, '/users/me/notification-settings', person) as Settings

async function openSettings (page: Page, lang: Lang): Promise<void> {
  await page.goto('/profile')
  await page.getByRole('link', { name: say(lang, 'settings.profileLink') }).press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: say(lang, 'settings.title') })).toBeFocused()
}

const typeBox = (page: Page, lang: Lang, channel: 'email' | 'push', type: string) =>
  page.getByRole('group', { name: say(lang, `settings.${channel}Types`) }).getByRole('checkbox', { name: say(lang, `settings.types.${type}`), exact: true })

for (const lang of ['en', 'de'] as const) {
  test.describe(`${lang}`, () => {
    test.use({ locale: lang === 'de' ? 'de-DE' : 'en-GB', timezoneId: 'Europe/Berlin' })

    test(`${lang}: settings saved and read back by keyboard, at 320 and 1280 px; mistakes in the error summary`, async ({ page, request, checkA11y }) => {
      const person = await registerPerson(request, 'Sina', 'Settings')
      await signInAs(page, lang, person)
      await openSettings(page, lang)
      await expect(page.getByText(say(lang, 'settings.accountAlways'))).toBeVisible()
      await expect(page.getByText(say(lang, 'settings.sent.none'))).toBeVisible()
      // The defaults of docs/api/messaging.md: e-mail for the requester's news, not for alerts; push on for every type; no quiet hours.
      await expect(page.getByRole('switch', { name: new RegExp(say(lang, 'settings.emailOn')) })).toBeChecked()
      await expect(typeBox(page, lang, 'email', 'request_approved')).toBeChecked()
      await expect(typeBox(page, lang, 'email', 'request_alert')).not.toBeChecked()
      await expect(typeBox(page, lang, 'push', 'request_alert')).toBeChecked()
      await expect(page.getByRole('radio', { name: say(lang, 'settings.quietNone') })).toBeChecked()
      // The device's own zone is suggested: named in the hint and first in the list.
      const zone = page.getByRole('combobox', { name: say(lang, 'settings.timeZone') })
      await expect(zone).toHaveAccessibleDescription(say(lang, 'settings.timeZoneHint', { zone: 'Europe/Berlin' }))
      await expect(zone.locator('option').first()).toHaveText(say(lang, 'settings.thisDevice', { zone: 'Europe/Berlin' }))
      await atBothWidths(page, checkA11y, say(lang, 'settings.title'))

      // By keyboard: e-mail for alerts but not for a rejection, push off, quiet hours 22:30 to 6:45, Lisbon's time.
      await typeBox(page, lang, 'email', 'request_rejected').focus()
      await page.keyboard.press('Space')
      await typeBox(page, lang, 'email', 'request_alert').focus()
      await page.keyboard.press('Space')
      const pushOn = page.getByRole('switch', { name: new RegExp(say(lang, 'settings.pushOn')) })
      await tabTo(page, pushOn)
      await page.keyboard.press('Space')
      await expect(page.getByRole('group', { name: say(lang, 'settings.pushTypes') })).toBeHidden()
      await page.getByRole('radio', { name: say(lang, 'settings.quietNone') }).focus()
      await page.keyboard.press('ArrowDown')
      const start = page.getByRole('textbox', { name: say(lang, 'settings.quietStart'), exact: true })
      const end = page.getByRole('textbox', { name: say(lang, 'settings.quietEnd'), exact: true })
      await tabTo(page, start)
      await page.keyboard.press('ControlOrMeta+A')
      await page.keyboard.type('25:00')
      await page.keyboard.press('Tab')
      await page.keyboard.press('ControlOrMeta+A')
      await page.keyboard.type('6:45')
      await page.keyboard.press('Tab')
      await expect(zone).toBeFocused()
      await page.keyboard.type('Europe/Lisbon')
      await expect(zone).toHaveValue('Europe/Lisbon')
      const save = page.getByRole('button', { name: say(lang, 'settings.save') })
      await tabTo(page, save)
      await page.keyboard.press('Enter')

      // 25:00 is no time: the summary takes focus, its link leads to the field, which says it too.
      const summary = page.getByRole('alert')
      const link = summary.getByRole('link', { name: say(lang, 'settings.errors.quietStart') })
      await expect(link).toBeVisible()
      await expect(page.locator('.error-summary')).toBeFocused()
      await expect(page).toHaveTitle(new RegExp(`^${say(lang, 'errors.titlePrefix')} `))
      await expect(start).toHaveAccessibleDescription(new RegExp(say(lang, 'settings.errors.quietStart')))
      await checkA11y()
      await page.keyboard.press('Tab')
      await expect(link).toBeFocused()
      await page.keyboard.press('Enter')
      await expect(start).toBeFocused()
      await page.keyboard.press('ControlOrMeta+A')
      await page.keyboard.type('22:30')
      await tabTo(page, save)
      await page.keyboard.press('Enter')
      await expectAnnounced(page, say(lang, 'settings.saved'))
      await expect(page.getByRole('region', { name: say(lang, 'success.title') })).toContainText(say(lang, 'settings.saved'))

      const saved = await settingsOf(request, person)
      expect(saved.email.enabled).toBe(true)
      expect(saved.email.types).toContain('request_alert')
      expect(saved.email.types).not.toContain('request_rejected')
      expect(saved.push.enabled).toBe(false)
      expect(saved.quiet_hours).toEqual({ start: '22:30', end: '06:45' })
      expect(saved.time_zone).toBe('Europe/Lisbon')

      // Read back after a reload: the page shows what was saved.
      await page.reload()
      await expect(page.getByRole('heading', { level: 1, name: say(lang, 'settings.title') })).toBeVisible()
      await expect(typeBox(page, lang, 'email', 'request_alert')).toBeChecked()
      await expect(typeBox(page, lang, 'email', 'request_rejected')).not.toBeChecked()
      await expect(pushOn).not.toBeChecked()
      await expect(page.getByRole('radio', { name: say(lang, 'settings.quietSome') })).toBeChecked()
      await expect(start).toHaveValue('22:30')
      await expect(end).toHaveValue('06:45')
      await expect(zone).toHaveValue('Europe/Lisbon')
      await atBothWidths(page, checkA11y, say(lang, 'settings.title'))
    })

    test(`${lang}: this device's alerts: the browser that cannot is told so plainly; a device listed and removed by keyboard`, async ({ page, request, checkA11y }) => {
      const person = await registerPerson(request, 'Dora', 'Devices')
      // A subscription as a browser elsewhere would send it (docs/api/messaging.md: an allowed host, keys of the right length).
      const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
      const p256dh = (publicKey.export({ format: 'der', type: 'spki' })).subarray(-65).toString('base64url')
      const added = await request.post('/api/v1/users/me/push-subscriptions', {
        headers: { authorization: `Bearer ${person.token}` },
        data: { endpoint: `https://fcm.googleapis.com/fcm/send/e2e-${randomBytes(8).toString('hex')}`, keys: { p256dh, auth: randomBytes(16).toString('base64url') } },
      })
      expect(added.status()).toBe(201)
      await signInAs(page, lang, person)
      await openSettings(page, lang)
      const device = page.getByRole('article', { name: say(lang, 'settings.device.device', { host: 'fcm.googleapis.com' }) })
      await expect(device).toContainText(say(lang, 'settings.device.never'))

      // Headless Chromium has no push service and no notifications: the page says so in words, and focus stays put.
      const allow = page.getByRole('button', { name: say(lang, 'settings.device.allow') })
      await tabTo(page, allow, 80)
      await page.keyboard.press('Enter')
      const cannot = ['denied', 'dismissed', 'subscribe-failed', 'unsupported'].map((reason) => say(lang, `settings.device.cannot.${reason}`))
      await expect(page.locator('.push-problem')).toHaveText(new RegExp(`^(${cannot.map((text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`))
      await expect(allow).toBeFocused()
      await atBothWidths(page, checkA11y, say(lang, 'settings.title'))

      // Remove, by keyboard; focus goes to the list's heading, which now says there is none.
      const remove = device.getByRole('button', { name: new RegExp(`^${say(lang, 'settings.device.removeName', { host: 'fcm.googleapis.com', date: 'X' }).split(',')[0]!}`) })
      await tabTo(page, remove, 20)
      await page.keyboard.press('Enter')
      await expectAnnounced(page, say(lang, 'settings.device.removed'))
      await expect(page.getByRole('heading', { level: 3, name: say(lang, 'settings.device.list') })).toBeFocused()
      await expect(page.getByText(say(lang, 'settings.device.none'))).toBeVisible()
      expect(await getAs(request, '/users/me/push-subscriptions', person)).toEqual([])
      await checkA11y()
    })

    test(`${lang}: the unsubscribe page, by keyboard: nothing happens on opening, the button stops that kind of e-mail; a broken link said plainly`, async ({ page, request, checkA11y }) => {
      // No token at all, and a token that is not one.
      await page.goto('/unsubscribe')
      await expect(page.getByRole('heading', { level: 1, name: say(lang, 'settings.unsubscribe.title') })).toBeVisible()
      await expect(page.getByText(say(lang, 'settings.unsubscribe.noToken'))).toBeVisible()
      await expect(page.getByRole('button', { name: say(lang, 'settings.unsubscribe.button') })).toHaveCount(0)
      await checkA11y()
      await page.goto('/unsubscribe#token=not-a-token')
      const button = page.getByRole('button', { name: say(lang, 'settings.unsubscribe.button') })
      await expect(button).toBeVisible()
      // The token leaves the address bar (and so the history) once read.
      await expect.poll(() => new URL(page.url()).hash).toBe('')
      await tabTo(page, button)
      await page.keyboard.press('Enter')
      await expect(page.getByRole('alert')).toHaveText(say(lang, 'settings.unsubscribe.invalid'))
      await checkA11y()
      await expectNoHorizontalScroll(page)

      // A real one, from the footer of an e-mail the service sent (docs/api/messaging.md › Deliveries and e-mail: request_approved goes by e-mail).
      const person = await registerPerson(request, 'Ulla', 'Unsubscribe')
      const unsubscribeToken = await unsubscribeTokenFor(request, person)
      expect((await settingsOf(request, person)).email.types).toContain(unsubscribeToken.type)
      await page.goto(`/unsubscribe#token=${encodeURIComponent(unsubscribeToken.token)}`)
      await expect(button).toBeVisible()
      await checkA11y()
      // Opening the page changed nothing (mail scanners open links).
      expect((await settingsOf(request, person)).email.types).toContain(unsubscribeToken.type)
      await tabTo(page, button)
      await page.keyboard.press('Enter')
      await expect(page.getByRole('heading', { level: 1, name: say(lang, 'settings.unsubscribe.doneTitle') })).toBeFocused()
      await expectAnnounced(page, say(lang, 'settings.unsubscribe.done'))
      await expect(page.getByRole('link', { name: say(lang, 'settings.unsubscribe.settingsLink') })).toBeVisible()
      expect((await settingsOf(request, person)).email.types).not.toContain(unsubscribeToken.type)
      await atBothWidths(page, checkA11y, say(lang, 'settings.unsubscribe.doneTitle'))

      // Signed in, the settings say the same, and "What we sent you" lists the e-mail.
      await page.getByRole('link', { name: say(lang, 'settings.unsubscribe.settingsLink') }).press('Enter')
      await signInAs(page, lang, person)
      await openSettings(page, lang)
      await expect(typeBox(page, lang, 'email', unsubscribeToken.type)).not.toBeChecked()
      await expect(page.getByRole('region', { name: say(lang, 'settings.sent.title') }).getByRole('listitem').first())
        .toContainText(say(lang, 'settings.sent.line', { channel: say(lang, 'settings.sent.channel.email'), status: say(lang, 'settings.sent.status.sent') }))
    })
  })
}

/** The app's service worker, active, and its registration's id as the DevTools protocol knows it. */
async function workerRegistration (page: Page) {
  await page.evaluate(async () => { await navigator.serviceWorker.ready })
  const cdp = await page.context().newCDPSession(page)
  const origin = new URL(page.url()).origin
  const found = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const mine = registrations.find((registration) => registration.scopeURL === `${origin}/` && !registration.isDeleted)
      if (mine !== undefined) resolve(mine.registrationId)
    })
  })
  await cdp.send('ServiceWorker.enable')
  return { cdp, registrationId: await found, origin }
}

test('the service worker shows a push delivered through the DevTools protocol, and opens only this app\'s pages', async ({ page, context }) => {
  await context.grantPermissions(['notifications'])
  await page.goto('/')
  const { cdp, registrationId, origin } = await workerRegistration(page)
  // What the worker asks the browser to show, recorded in the worker itself: the headless shell these tests may run
  // in has no notifications at all (Notification.permission stays "denied" whatever is granted), so
  // getNotifications() is checked only where the browser can show them.
  const worker = context.serviceWorkers().find((candidate) => candidate.url() === `${origin}/sw.js`) ?? await context.waitForEvent('serviceworker')
  await worker.evaluate(() => {
    const scope = self as unknown as { e2eShown: unknown[], registration: ServiceWorkerRegistration }
    scope.e2eShown = []
    const show = scope.registration.showNotification.bind(scope.registration)
    scope.registration.showNotification = async (title, options) => {
      scope.e2eShown.push({ title, ...options })
      await show(title, options)
    }
  })
  const push = async (payload: unknown) => { await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data: JSON.stringify(payload) }) }
  await push({ type: 'request_approved', request_id: 42, title: 'Lift to the doctor', body: 'Your request was approved', url: '/requests/42' })
  // A payload naming another site: the tap would open the inbox, never that site.
  await push({ type: 'request_alert', request_id: 43, title: 'Shopping', body: 'Help needed', url: 'https://elsewhere.example/phish' })
  await expect.poll(() => worker.evaluate(() => (self as unknown as { e2eShown: unknown[] }).e2eShown)).toEqual([
    { title: 'Lift to the doctor', body: 'Your request was approved', icon: '/icon-192.png', badge: '/icon-192.png', tag: 'request-42', data: { url: '/requests/42' } },
    { title: 'Shopping', body: 'Help needed', icon: '/icon-192.png', badge: '/icon-192.png', tag: 'request-43', data: { url: '/notifications' } },
  ])
  if (await page.evaluate(() => Notification.permission) === 'granted') {
    await expect.poll(() => page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((shown) => [shown.title, shown.body])))
      .toEqual([['Lift to the doctor', 'Your request was approved'], ['Shopping', 'Help needed']])
  }
})
