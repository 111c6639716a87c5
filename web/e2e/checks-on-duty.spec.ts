import { expect, expectNoHorizontalScroll, tabTo, test } from './fixtures.js'
import { admin, approve, createRequest, navLink, postAs, registerPerson, signIn, uniquePoint } from './journeys.js'
import { say, type Lang } from './say.js'

// A service that asks volunteers for a background check and training (VOLUNTEER_CHECKS, web/e2e/server.ts).
const CHECKS_URL = `http://127.0.0.1:${process.env.E2E_CHECKS_PORT}`
const KINDS = { en: ['Background check and Training', 'Training'], de: ['Führungszeugnis und Schulung', 'Schulung'] } as const

/**
 * Finding: a new volunteer learnt that her checks were missing only when an offer was refused, and was told to ask
 * "the coordinators". Where she goes on duty she is now told which checks are asked, which of hers are missing, and
 * that administrators and moderators record them; the refused offer names them too (docs/web/help.md › "When I can help").
 */
for (const lang of ['en', 'de'] as const satisfies readonly Lang[]) {
  for (const width of [320, 1280]) {
    test.describe(`checks on the on-duty page (${lang}, ${width} px)`, () => {
      test.use({ baseURL: CHECKS_URL, viewport: { width, height: 800 } })

      test('a volunteer without her checks is told where she goes on duty, and who records them', async ({ page, request, checkA11y }) => {
        const vera = await registerPerson(request, 'Vera', 'Volunteer')
        const rosa = await registerPerson(request, 'Rosa', 'Requester')
        const requestId = await createRequest(request, rosa, { title: 'Lift to the surgery', ...uniquePoint() })
        await approve(request, requestId)
        await signIn(page, vera)
        if (lang === 'de') {
          await page.getByRole('button', { name: 'Deutsch' }).press('Enter')
          await expect(page.getByRole('heading', { level: 1, name: say('de', 'home.greeting', { name: 'Vera' }) })).toBeVisible()
        }

        // From the menu, by keyboard, to where she goes on duty.
        await (await navLink(page, say(lang, 'availability.nav'), { nav: say(lang, 'nav.label'), menu: say(lang, 'nav.menu') })).press('Enter')
        await expect(page.getByRole('heading', { level: 1, name: say(lang, 'availability.title') })).toBeFocused()
        const notice = page.getByRole('region', { name: say(lang, 'availability.checks.title') })
        await expect(notice).toContainText(say(lang, 'availability.checks.asked_other', { kinds: KINDS[lang][0] }))
        await expect(notice).toContainText(say(lang, 'availability.checks.missing_other', { kinds: KINDS[lang][0] }))
        await expect(notice).toContainText(say(lang, 'availability.checks.who'))
        // Read before the form: it comes right after the page's opening words. The form waits for her saved
        // availability; a Tab pressed while it is still loading would have nothing in the page to move to.
        const onDuty = page.getByRole('switch', { name: new RegExp(say(lang, 'availability.onDuty').slice(0, 8)) })
        await expect(onDuty).toBeVisible()
        await page.keyboard.press('Tab')
        await expect(onDuty).toBeFocused()
        await checkA11y()
        await expectNoHorizontalScroll(page)

        // An offer all the same: refused, in words that say who records checks.
        await page.goto(`/find-help/${requestId}`)
        await expect(page.getByRole('heading', { level: 1, name: 'Lift to the surgery' })).toBeVisible()
        const send = page.getByRole('button', { name: say(lang, 'volunteer.request.send') })
        await tabTo(page, send, 60)
        await page.keyboard.press('Enter')
        await expect(page.getByRole('alert')).toContainText(say(lang, 'volunteer.errors.checksMissing'))
        await checkA11y()

        // One check recorded: the note names only the one still missing; both: it goes.
        const adminToken = { token: await admin(request) }
        await postAs(request, `/admin/users/${vera.id}/checks`, adminToken, { kind: 'background' })
        await page.goto('/availability')
        await expect(notice).toContainText(say(lang, 'availability.checks.missing_one', { kinds: KINDS[lang][1] }))
        await checkA11y()
        await postAs(request, `/admin/users/${vera.id}/checks`, adminToken, { kind: 'training' })
        await page.reload()
        await expect(page.getByRole('switch', { name: new RegExp(say(lang, 'availability.onDuty').slice(0, 8)) })).toBeVisible()
        await expect(notice).toHaveCount(0)
      })
    })
  }
}
