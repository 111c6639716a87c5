import type { APIRequestContext, Page } from '@playwright/test'
import { expect, expectAnnounced, expectNoHorizontalScroll, tabTo, test } from './fixtures.js'
import { getAs, registerPerson, type Person } from './journeys.js'
import { say, signInAs, type Lang } from './say.js'
import { codeIn, countTexts, nextText, replyFrom, uniqueMobile } from './sms.js'

/**
 * Texts to a person's own phone (docs/web/accounts.md › Texts to your phone, docs/web/messaging.md), by keyboard with
 * axe, in English at 1280 px and in German at 320 px: a phone added in the profile, "Get texts on this phone", the
 * code read from the text the service wrote (a wrong one first, then a new code), "Texts can go to this phone", texts
 * switched on for some types in the settings and read back after a reload; then a STOP reply fed in and the stopped
 * state on both pages. And a landline, which cannot take texts.
 */

interface OwnPhone { phone: string | null, verified: boolean, stopped: boolean, can_receive_texts: boolean }
interface Settings { sms: { enabled: boolean, types: string[] } }

/** A code that is certainly not `code`: each digit moved by one. */
const wrong = (code: string) => code.replace(/\d/g, (digit) => String((Number(digit) + 1) % 10))
/** "123456" as people type it from a text: "123 456". */
const spaced = (code: string) => `${code.slice(0, 3)} ${code.slice(3)}`

const texts = (page: Page, lang: Lang) => page.getByRole('region', { name: say(lang, 'phoneTexts.title') })
const h1 = (page: Page, name: string) => page.getByRole('heading', { level: 1, name, exact: true })
const codeField = (page: Page, lang: Lang) => page.getByRole('textbox', { name: say(lang, 'codes.code'), exact: true })
const smsBox = (page: Page, lang: Lang, type: string) =>
  page.getByRole('group', { name: say(lang, 'settings.smsTypes') }).getByRole('checkbox', { name: say(lang, `settings.types.${type}`), exact: true })

/** Types into the focused field as a person does: what was there first goes. */
async function typeHere (page: Page, value: string): Promise<void> {
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.press('Backspace')
  await page.keyboard.type(value)
}

async function press (page: Page, target: ReturnType<Page['getByRole']>, key = 'Enter'): Promise<void> {
  await tabTo(page, target, 80)
  await page.keyboard.press(key)
}

const phoneOf = async (api: APIRequestContext, person: Person) => await getAs(api, '/users/me/phone', person) as OwnPhone

for (const [lang, width] of [['en', 1280], ['de', 320]] as const) {
  test.describe(`texts to your phone (${lang}, ${width} px)`, () => {
    test.use({ locale: lang === 'de' ? 'de-DE' : 'en-GB', viewport: { width, height: 800 } })

    test(`${lang}: add a phone, confirm it by the texted code (a wrong one first), choose texts, then STOP`, async ({ page, request, baseURL, checkA11y }) => {
      const check = async () => {
        await checkA11y()
        await expectNoHorizontalScroll(page)
      }
      const person = await registerPerson(request, lang === 'de' ? 'Hanne' : 'Tessa', 'Texts')
      const mobile = uniqueMobile()
      await signInAs(page, lang, person)
      await page.goto('/profile')
      await expect(h1(page, say(lang, 'profile.title'))).toBeVisible()
      await expect(texts(page, lang)).toContainText(say(lang, 'phoneTexts.none'))
      await check()

      // No phone yet: the section's link leads to the phone field, where the number is typed as people say it.
      await press(page, texts(page, lang).getByRole('link', { name: say(lang, 'phoneTexts.addPhone') }))
      await expect(page.getByRole('textbox', { name: new RegExp(`^${say(lang, 'account.phone')}`) })).toBeFocused()
      await typeHere(page, `0151 ${mobile.slice(6)}`)
      await page.keyboard.press('Enter')
      await expectAnnounced(page, say(lang, 'profile.saved'))
      await expect(texts(page, lang)).toContainText(say(lang, 'phoneTexts.unconfirmed', { phone: mobile }))
      await check()

      // "Get texts on this phone" texts a code and leads to the page that takes it.
      const before = await countTexts(baseURL!, mobile)
      await press(page, texts(page, lang).getByRole('button', { name: say(lang, 'phoneTexts.get') }))
      await expect(h1(page, say(lang, 'phoneTexts.code.heading'))).toBeFocused()
      await expect(page.getByText(say(lang, 'phoneTexts.code.sent', { phone: mobile }))).toBeVisible()
      await check()
      const first = codeIn(await nextText(baseURL!, mobile, before))

      // Nothing typed, then a wrong code: each in the summary, whose link leads to the field.
      await codeField(page, lang).focus()
      await page.keyboard.press('Enter')
      await expect(page.getByRole('alert')).toContainText(say(lang, 'phoneTexts.code.required'))
      await expect(page.locator('.error-summary')).toBeFocused()
      await expect(page).toHaveTitle(new RegExp(`^${say(lang, 'errors.titlePrefix')} `))
      await codeField(page, lang).focus()
      await typeHere(page, spaced(wrong(first)))
      await page.keyboard.press('Enter')
      const summaryLink = page.getByRole('alert').getByRole('link', { name: say(lang, 'codes.errors.invalid') })
      await expect(summaryLink).toBeVisible()
      await expect(codeField(page, lang)).toHaveAccessibleDescription(new RegExp(say(lang, 'codes.errors.invalid').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      await check()
      await page.keyboard.press('Tab')
      await expect(summaryLink).toBeFocused()
      await page.keyboard.press('Enter')
      await expect(codeField(page, lang)).toBeFocused()

      // "Send a new code": the first no longer works; the new one, typed with a space, confirms the phone.
      const resentBefore = await countTexts(baseURL!, mobile)
      await press(page, page.getByRole('button', { name: say(lang, 'codes.sendNew') }))
      await expectAnnounced(page, say(lang, 'phoneTexts.code.resent', { phone: mobile }))
      const second = codeIn(await nextText(baseURL!, mobile, resentBefore))
      await codeField(page, lang).focus()
      await typeHere(page, spaced(second))
      await page.keyboard.press('Enter')
      await expect(h1(page, say(lang, 'profile.title'))).toBeFocused()
      await expect(page.getByRole('region', { name: say(lang, 'success.title') })).toContainText(say(lang, 'phoneTexts.code.done'))
      await expect(texts(page, lang)).toContainText(say(lang, 'phoneTexts.ready', { phone: mobile }))
      expect(await phoneOf(request, person)).toEqual({ phone: mobile, verified: true, stopped: false, can_receive_texts: true })
      await check()

      // "Choose which texts you get" lands on the settings' texts section: off by default, then on for some types.
      await press(page, texts(page, lang).getByRole('link', { name: say(lang, 'phoneTexts.choose') }))
      await expect(page.getByRole('heading', { level: 2, name: say(lang, 'settings.sms') })).toBeFocused()
      const smsOn = page.getByRole('switch', { name: new RegExp(say(lang, 'settings.smsOn')) })
      await expect(smsOn).not.toBeChecked()
      await page.keyboard.press('Tab')
      await expect(smsOn).toBeFocused()
      await page.keyboard.press('Space')
      await expect(smsBox(page, lang, 'request_alert')).toBeChecked()
      await expect(smsBox(page, lang, 'reminder')).toBeChecked()
      await expect(smsBox(page, lang, 'request_approved')).not.toBeChecked()
      await check()
      await press(page, smsBox(page, lang, 'request_approved'), 'Space')
      await press(page, smsBox(page, lang, 'reminder'), 'Space')
      await press(page, page.getByRole('button', { name: say(lang, 'settings.save') }))
      await expectAnnounced(page, say(lang, 'settings.saved'))
      const saved = await getAs(request, '/users/me/notification-settings', person) as Settings
      expect(saved.sms.enabled).toBe(true)
      expect(saved.sms.types).toContain('request_approved')
      expect(saved.sms.types).toContain('request_alert')
      expect(saved.sms.types).not.toContain('reminder')

      await page.reload()
      await expect(h1(page, say(lang, 'settings.title'))).toBeVisible()
      await expect(smsOn).toBeChecked()
      await expect(smsBox(page, lang, 'request_approved')).toBeChecked()
      await expect(smsBox(page, lang, 'reminder')).not.toBeChecked()
      await expect(smsBox(page, lang, 'request_alert')).toBeChecked()
      await check()

      // A STOP reply (STOPP in German) from the phone: both pages say texts are stopped and how to get them again.
      await replyFrom(baseURL!, mobile, lang === 'de' ? 'STOPP' : 'STOP')
      await expect.poll(async () => (await phoneOf(request, person)).stopped, { timeout: 15_000 }).toBe(true)
      await page.reload()
      const section = page.getByRole('region', { name: say(lang, 'settings.sms') })
      await expect(section).toContainText(say(lang, 'settings.smsStopped'))
      await expect(page.getByRole('switch', { name: new RegExp(say(lang, 'settings.smsOn')) })).toHaveCount(0)
      await check()
      await press(page, section.getByRole('link', { name: say(lang, 'settings.smsLink') }))
      await expect(page.getByRole('heading', { level: 2, name: say(lang, 'phoneTexts.title') })).toBeFocused()
      await expect(texts(page, lang)).toContainText(`${say(lang, 'phoneTexts.stopped')} ${say(lang, 'phoneTexts.startAgain')}`)
      await check()
    })
  })
}

test('a STOP reply while the profile is open: "Get texts on this phone" is refused in the section\'s error summary, which then says texts are stopped', async ({ page, request, baseURL, checkA11y }) => {
  const mobile = uniqueMobile()
  const person = await registerPerson(request, 'Stella', 'Stop', { phone: mobile })
  await signInAs(page, 'en', person)
  await page.goto('/profile')
  const button = texts(page, 'en').getByRole('button', { name: say('en', 'phoneTexts.get') })
  await expect(button).toBeVisible()
  await replyFrom(baseURL!, mobile, 'stop')
  await expect.poll(async () => (await phoneOf(request, person)).stopped, { timeout: 15_000 }).toBe(true)
  await press(page, button)
  await expect(page.getByRole('alert')).toContainText(say('en', 'phoneTexts.errors.stopped'))
  await expect(page.locator('.error-summary')).toBeFocused()
  await expect(texts(page, 'en')).toContainText(say('en', 'phoneTexts.stopped'))
  await expect(button).toHaveCount(0)
  await checkA11y()
})

test('a landline cannot take texts: the profile says so, the settings say why and lead to the profile\'s texts section', async ({ page, request, checkA11y }) => {
  const person = await registerPerson(request, 'Lotte', 'Landline', { phone: '+49301234567' })
  await signInAs(page, 'en', person)
  await page.goto('/settings/notifications')
  const section = page.getByRole('region', { name: say('en', 'settings.sms') })
  await expect(section).toContainText(say('en', 'settings.smsUnconfirmed'))
  await checkA11y()
  await press(page, section.getByRole('link', { name: say('en', 'settings.smsLink') }))
  await expect(page.getByRole('heading', { level: 2, name: say('en', 'phoneTexts.title') })).toBeFocused()
  await expect(texts(page, 'en')).toContainText(say('en', 'phoneTexts.notMobile', { phone: '+49301234567' }))
  await expect(texts(page, 'en').getByRole('button')).toHaveCount(0)
  await checkA11y()
  // The code page, opened by its address, has nothing to take: it goes to the profile's texts section.
  await page.goto('/profile/phone-code')
  await expect(page).toHaveURL(/\/profile#texts$/)
  await expect(page.getByRole('heading', { level: 2, name: say('en', 'phoneTexts.title') })).toBeFocused()
})
