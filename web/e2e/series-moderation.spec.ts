import type { APIRequestContext, Page } from '@playwright/test'
import { expect, expectAnnounced, test } from './fixtures.js'
import { getAs, giveRole, navLink, postAs, registerPerson, uniquePoint, type Person } from './journeys.js'
import { atBothWidths, say, signInAs, type Lang } from './say.js'

/**
 * Regular help moderated in the app, by keyboard with axe, in English and German at 320 and 1280 px: the
 * moderation page lists the series waiting below the requests, each approved or rejected with a reason there;
 * and a moderator opening a waiting series' page decides on it there. The requester is never offered the
 * decision on her own. Set-up through the API; what the moderator does, in the browser.
 */

/** YYYY-MM-DD of tomorrow in UTC, the series' zone. */
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)

/** A series of Rita's waiting for a moderator: Mondays and Thursdays 09:00 to 10:00 UTC. */
async function pendingSeries (api: APIRequestContext, rita: Person, title: string): Promise<number> {
  const series = await postAs(api, '/request-series', rita, {
    template: { request_type_id: 2, title, description: 'A lift to the clinic and back home again', address: '1 Main Street', city: 'Springfield', urgency: 'medium', ...uniquePoint() },
    days: ['mon', 'thu'],
    start_time: '09:00',
    duration_minutes: 60,
    starts_on: tomorrow(),
    time_zone: 'UTC',
  }) as { id: number }
  return series.id
}

const statusOf = async (api: APIRequestContext, rita: Person, id: number) => (await getAs(api, `/request-series/${id}`, rita) as { status: string }).status

/** A heading with a count in it ("Regular help: 3 waiting"), whatever the count. */
function counted (lang: Lang, key: string): RegExp {
  const text = say(lang, key, { count: '\u0000' }).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`^${text.replace('\u0000', '\\d+')}$`)
}

async function moderator (api: APIRequestContext): Promise<Person> {
  const mona = await registerPerson(api, 'Mona', 'Moderator')
  await giveRole(api, mona, 2)
  return mona
}

/** Types a reason into the open dialog by keyboard and rejects; the dialog closes. */
async function rejectWithReason (page: Page, lang: Lang, title: string, confirm: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: say(lang, 'moderation.dialog.title', { title }) })
  const reason = dialog.getByRole('textbox', { name: say(lang, 'moderation.dialog.comment') })
  await reason.focus()
  await page.keyboard.type('Please say which clinic it is.')
  await dialog.getByRole('button', { name: confirm }).press('Enter')
  await expect(dialog).toHaveCount(0)
}

for (const lang of ['en', 'de'] as const) {
  const s = (key: string, values: Record<string, string | number> = {}) => say(lang, key, values)
  test.describe(`regular help moderated (${lang})`, () => {
    test.use({ locale: lang === 'de' ? 'de-DE' : 'en-GB', viewport: { width: 1280, height: 800 } })

    test(`the moderation page lists regular help waiting; approved and rejected by keyboard there (${lang})`, async ({ page, request, checkA11y }) => {
      const marker = Date.now().toString(36)
      const rita = await registerPerson(request, 'Rita', 'Regular')
      const [first, second] = [`Lift to dialysis ${marker}`, `Weekly shop ${marker}`]
      const firstId = await pendingSeries(request, rita, first)
      const secondId = await pendingSeries(request, rita, second)
      await signInAs(page, lang, await moderator(request))
      const link = await navLink(page, s('moderation.nav'), { nav: s('nav.label'), menu: s('nav.menu') })
      await link.press('Enter')
      await expect(page.getByRole('heading', { level: 1, name: s('moderation.queue.title') })).toBeFocused()
      await expect(page.getByRole('heading', { level: 2, name: counted(lang, 'moderation.series.count_other') })).toBeVisible()

      // Each with its plan in words, what is asked and where; the page passes axe at both widths.
      const card = page.getByRole('article', { name: first })
      await expect(card).toContainText(s('regular.words.times', { start: '09:00', end: '10:00' }))
      await expect(card).toContainText(s('kinds.2'))
      await expect(card).toContainText('A lift to the clinic and back home again')
      await expect(card.getByRole('link', { name: s('moderation.series.person') })).toHaveAttribute('href', `/people/${rita.id}`)
      await atBothWidths(page, checkA11y, s('moderation.queue.title'))

      // Approve: said, gone from the list, focus on the series now in its place; its dates are made.
      await card.getByRole('button', { name: `${s('moderation.approve')}: ${first}` }).press('Enter')
      await expectAnnounced(page, s('moderation.approved', { title: first }))
      await expect(page.getByRole('article', { name: first })).toHaveCount(0)
      await expect(page.getByRole('heading', { level: 3, name: second })).toBeFocused()
      expect(await statusOf(request, rita, firstId)).toBe('active')
      const dates = await getAs(request, '/requests/my?limit=100', rita) as Array<{ series_id: number | null, status: string }>
      expect(dates.filter((item) => item.series_id === firstId).length).toBeGreaterThan(0)

      // Reject needs a reason, asked in a dialog that passes axe; Escape keeps the series and focus returns.
      const rejectButton = page.getByRole('button', { name: `${s('moderation.reject')}: ${second}` })
      await rejectButton.press('Enter')
      const dialog = page.getByRole('dialog', { name: s('moderation.dialog.title', { title: second }) })
      await expect(dialog).toBeFocused()
      await checkA11y('[role=dialog]')
      await dialog.getByRole('button', { name: s('moderation.series.rejectConfirm') }).press('Enter')
      await expect(dialog.getByRole('alert')).toContainText(s('moderation.errors.commentRequired'))
      await checkA11y('[role=dialog]')
      await page.keyboard.press('Escape')
      await expect(dialog).toHaveCount(0)
      await expect(rejectButton).toBeFocused()
      await rejectButton.press('Enter')
      await rejectWithReason(page, lang, second, s('moderation.series.rejectConfirm'))
      await expectAnnounced(page, s('moderation.rejected', { title: second }))
      await expect(page.getByRole('article', { name: second })).toHaveCount(0)
      expect(await statusOf(request, rita, secondId)).toBe('rejected')
      await atBothWidths(page, checkA11y, s('moderation.queue.title'))
    })

    test(`a moderator decides on a waiting series on its own page; its requester is not offered that (${lang})`, async ({ page, request, checkA11y }) => {
      const marker = Date.now().toString(36)
      const rita = await registerPerson(request, 'Rita', 'Regular')
      const [approved, rejected] = [`Lift to the eye clinic ${marker}`, `Lift to the pool ${marker}`]
      const approvedId = await pendingSeries(request, rita, approved)
      const rejectedId = await pendingSeries(request, rita, rejected)
      await signInAs(page, lang, await moderator(request))
      await page.goto('/moderation')
      await page.getByRole('article', { name: approved }).getByRole('link', { name: approved }).press('Enter')
      const h1 = page.getByRole('heading', { level: 1, name: approved })
      await expect(h1).toBeFocused()
      const decide = page.getByRole('heading', { level: 2, name: s('moderation.series.decideHeading') })
      await expect(decide).toBeVisible()
      // The dates come from the requester's own requests, so a moderator's page does not claim there are none.
      await expect(page.getByRole('heading', { level: 2, name: s('regular.coming') })).toHaveCount(0)
      await atBothWidths(page, checkA11y, approved)

      const rejectButton = page.getByRole('button', { name: s('moderation.reject'), exact: true })
      await rejectButton.press('Enter')
      await expect(page.getByRole('dialog', { name: s('moderation.dialog.title', { title: approved }) })).toBeVisible()
      await checkA11y('[role=dialog]')
      await page.keyboard.press('Escape')
      await expect(rejectButton).toBeFocused()
      await page.getByRole('button', { name: s('moderation.approve'), exact: true }).press('Enter')
      await expect(page.getByText(s('request.statusLine', { status: s('regular.status.active') }))).toBeVisible()
      await expect(h1).toBeFocused()
      await expect(page.getByRole('region', { name: s('success.title') })).toContainText(s('moderation.approved', { title: approved }))
      await expect(decide).toHaveCount(0)
      expect(await statusOf(request, rita, approvedId)).toBe('active')
      await atBothWidths(page, checkA11y, approved)

      // Rejected on its page, with the reason typed in the dialog.
      await page.goto(`/series/${rejectedId}`)
      await expect(page.getByRole('heading', { level: 1, name: rejected })).toBeVisible()
      await page.getByRole('button', { name: s('moderation.reject'), exact: true }).press('Enter')
      await rejectWithReason(page, lang, rejected, s('moderation.series.rejectConfirm'))
      await expect(page.getByText(s('request.statusLine', { status: s('regular.status.rejected') }))).toBeVisible()
      await expect(page.getByRole('heading', { level: 1, name: rejected })).toBeFocused()
      expect(await statusOf(request, rita, rejectedId)).toBe('rejected')

      // Rita, made a moderator too, is still not offered the decision on her own waiting series.
      const own = await pendingSeries(request, rita, `Lift to the library ${marker}`)
      await giveRole(request, rita, 2)
      await signInAs(page, lang, rita)
      await page.goto(`/series/${own}`)
      await expect(page.getByRole('heading', { level: 1, name: `Lift to the library ${marker}` })).toBeVisible()
      await expect(page.getByRole('heading', { level: 2, name: s('regular.coming') })).toBeVisible()
      await expect(page.getByRole('heading', { level: 2, name: s('moderation.series.decideHeading') })).toHaveCount(0)
    })
  })
}
