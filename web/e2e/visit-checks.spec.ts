import { expect, expectAnnounced, tabTo, test } from './fixtures.js'
import { admin, getAs, inProgress } from './journeys.js'
import { atBothWidths, say, signInAs, type Lang } from './say.js'

// A service with VISIT_CHECKS=on (web/e2e/server.ts); the main one has it off, the default.
const VISITS_URL = `http://127.0.0.1:${process.env.E2E_VISITS_PORT}`

type Visit = { checked_in_at: string | null, checked_out_at: string | null }

/**
 * docs/web/visits.md: the assigned volunteer's "I have arrived", "I have left" and "I have
 * left and I am worried", large and one press each; the requester's "My helper has left". By keyboard, with axe,
 * in English and German, at 320 and 1280 px.
 */
for (const lang of ['en', 'de'] as const satisfies readonly Lang[]) {
  test.describe(`visits checked in and out (${lang})`, () => {
    test.use({ locale: lang === 'de' ? 'de-DE' : 'en-GB', baseURL: VISITS_URL })

    test('the volunteer says she has arrived; the requester reads it and says her helper has left', async ({ page, request, checkA11y }) => {
      const { rita, vera, id } = await inProgress(request, 'Lift to the clinic')
      await signInAs(page, lang, vera)
      await page.goto(`/find-help/${id}`)
      const visitHeading = page.getByRole('heading', { level: 2, name: say(lang, 'visit.title') })
      const arrived = page.getByRole('button', { name: say(lang, 'visit.arrived') })
      await atBothWidths(page, checkA11y, 'Lift to the clinic', async () => {
        await expect(visitHeading).toBeVisible()
        await expect(page.getByText(say(lang, 'visit.arriveHint', { name: 'Rita' }))).toBeVisible()
      })
      await tabTo(page, arrived)
      await page.keyboard.press('Enter')
      await expectAnnounced(page, say(lang, 'visit.done.in'))
      await expect(visitHeading).toBeFocused()
      await expect(arrived).toHaveCount(0)
      const left = page.getByRole('button', { name: say(lang, 'visit.left'), exact: true })
      await atBothWidths(page, checkA11y, 'Lift to the clinic', async () => {
        await expect(left).toBeVisible()
        await expect(page.getByRole('button', { name: say(lang, 'visit.leftWorried') })).toBeVisible()
      })
      const checkedIn = await getAs(request, `/requests/${id}/visit`, vera) as Visit
      expect(checkedIn.checked_in_at).not.toBeNull()
      expect(checkedIn.checked_out_at).toBeNull()

      // Rita's page says Vera is there, and lets her say that Vera has left.
      await signInAs(page, lang, rita)
      await page.goto(`/requests/${id}`)
      const requesterHeading = page.getByRole('heading', { level: 2, name: say(lang, 'visit.requesterTitle') })
      const helperLeft = page.getByRole('button', { name: say(lang, 'visit.helperLeft') })
      await atBothWidths(page, checkA11y, 'Lift to the clinic', async () => {
        await expect(requesterHeading).toBeVisible()
        await expect(page.getByRole('main')).toContainText(lang === 'de' ? 'Vera ist um' : 'Vera arrived at')
        await expect(helperLeft).toBeVisible()
      })
      await tabTo(page, helperLeft, 80)
      await page.keyboard.press('Enter')
      await expectAnnounced(page, say(lang, 'visit.done.helperLeft', { name: 'Vera' }))
      await expect(requesterHeading).toBeFocused()
      await expect(helperLeft).toHaveCount(0)
      await expect(page.getByRole('main')).toContainText(lang === 'de' ? 'angekommen und um' : 'and left at')
      const out = await getAs(request, `/requests/${id}/visit`, rita) as Visit
      expect(out.checked_in_at).toBe(checkedIn.checked_in_at)
      expect(out.checked_out_at).not.toBeNull()

      // Vera's page now says when she came and went; "I have left" is gone.
      await signInAs(page, lang, vera)
      await page.goto(`/find-help/${id}`)
      await expect(visitHeading).toBeVisible()
      await expect(page.getByRole('main')).toContainText(lang === 'de' ? 'angekommen und um' : 'and left at')
      await expect(left).toHaveCount(0)
    })

    test('"I have left and I am worried" tells the moderators at once and nothing on the requester\'s side', async ({ page, request, checkA11y }) => {
      const { rita, vera, id } = await inProgress(request, 'Help with the shopping')
      await signInAs(page, lang, vera)
      await page.goto(`/find-help/${id}`)
      await tabTo(page, page.getByRole('button', { name: say(lang, 'visit.arrived') }))
      await page.keyboard.press('Enter')
      await expectAnnounced(page, say(lang, 'visit.done.in'))
      const worried = page.getByRole('button', { name: say(lang, 'visit.leftWorried') })
      // The button says beforehand what it does, and that Rita is not told.
      await expect(worried).toHaveAccessibleDescription(say(lang, 'visit.worriedHint', { name: 'Rita' }))
      await tabTo(page, worried)
      await page.keyboard.press('Enter')
      await expectAnnounced(page, say(lang, 'visit.done.worried'))
      await atBothWidths(page, checkA11y, 'Help with the shopping')

      const concerns = await getAs(request, '/moderation/concerns', { token: await admin(request) }) as Array<{ request_id: number | null, urgent: boolean, kind: string }>
      expect(concerns.filter((concern) => concern.request_id === id).map(({ urgent, kind }) => ({ urgent, kind }))).toEqual([{ urgent: true, kind: 'report' }])

      await signInAs(page, lang, rita)
      await page.goto(`/requests/${id}`)
      await expect(page.getByRole('heading', { level: 2, name: say(lang, 'visit.requesterTitle') })).toBeVisible()
      await expect(page.getByRole('main')).toContainText(lang === 'de' ? 'angekommen und um' : 'and left at')
      // Her timeline says only that the visit ended; nothing names the worry or the moderators.
      const main = page.getByRole('main')
      await expect(main).toContainText(say(lang, 'history.actions.checked_out'))
      for (const words of [say(lang, 'visit.leftWorried'), say(lang, 'visit.done.worried'), lang === 'de' ? 'Moderation' : 'moderator']) await expect(main).not.toContainText(words)
    })
  })
}

test('without VISIT_CHECKS the request pages offer no visit steps', async ({ page, request }) => {
  const { rita, vera, id } = await inProgress(request, 'Post a parcel')
  /** Opens `path` and waits until the page has the deployment's settings and has drawn with them. */
  const openSettled = async (path: string) => {
    const settings = page.waitForResponse((response) => response.url().endsWith('/api/v1/account-settings'))
    await page.goto(path)
    expect(await (await settings).json()).toMatchObject({ visit_checks: 'off' })
    await expect(page.getByRole('heading', { level: 1, name: 'Post a parcel' })).toBeVisible()
    await page.evaluate(() => new Promise(requestAnimationFrame))
  }
  await signInAs(page, 'en', vera)
  await openSettled(`/find-help/${id}`)
  await expect(page.getByRole('heading', { level: 2, name: say('en', 'visit.title') })).toHaveCount(0)
  await expect(page.getByRole('button', { name: say('en', 'visit.arrived') })).toHaveCount(0)
  await signInAs(page, 'en', rita)
  await openSettled(`/requests/${id}`)
  await expect(page.getByRole('heading', { level: 2, name: say('en', 'visit.requesterTitle') })).toHaveCount(0)
})
