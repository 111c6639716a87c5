import { readFileSync } from 'node:fs'
import type { APIRequestContext, Page } from '@playwright/test'
import { expect, expectNoHorizontalScroll, expectSaid, tabTo, test } from './fixtures.js'
import { accept, admin, approve, createRequest, getAs, offer, postAs, registerPerson, uniquePoint, type Person } from './journeys.js'
import { atBothWidths, say, signInAs, type Lang } from './say.js'

/**
 * Reports for funders in the browser (docs/api/on-behalf.md › Reports for funders and docs/web/on-behalf.md), in English and German, by keyboard with axe at 320 and
 * 1280 px: the chart's text alternative, the table with the same figures as the API (suppressed ones as "fewer
 * than 5"), months and weeks, a range refused in the error summary, the CSV downloaded; the page is for admins and
 * managers only.
 */

const locale = (lang: Lang) => lang === 'de' ? 'de-DE' : 'en-GB'

type Counts = Record<string, number | null>
interface Period { start: string, requests_created: number, requests_completed: number, people_helped: number | null, by_type: Counts, by_urgency: Counts, suppressed: string[], [key: string]: unknown }
interface Summary { periods: Period[], suppressed_below: number }

/** A manager (role 5, only view_reports), and a request done this month so that the figures are not all zero. */
async function setUp (api: APIRequestContext): Promise<Person> {
  const manager = await registerPerson(api, 'Mia', 'Manager')
  await postAs(api, `/admin/users/${manager.id}/roles/5`, { token: await admin(api) })
  const point = uniquePoint()
  const rita = await registerPerson(api, 'Rita', 'Asker')
  const vera = await registerPerson(api, 'Vera', 'Helper', point)
  const id = await createRequest(api, rita, { ...point, title: 'Shopping for the report' })
  await approve(api, id)
  await accept(api, id, await offer(api, id, vera), rita)
  await postAs(api, `/requests/${id}/complete`, rita, { rating: 5 })
  await createRequest(api, rita, { ...point, title: 'Another one for the report' })
  // A rare kind and urgency, so that this month most likely has 1 to 4 of them: shown as "fewer than 5".
  await createRequest(api, rita, { ...point, title: 'Help with the phone', request_type_id: 5, urgency: 'low' })
  return manager
}

/** The table's rows as the page shows them: the period's name, then each figure. */
async function tableRows (page: Page): Promise<string[][]> {
  return await page.locator('.report-side-by-side .report-table tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? '')))
}

/** The figures the page must show for the API's periods: numbers in the page's language, null as "fewer than 5" or "none". */
function expectedRows (lang: Lang, periods: Period[]): string[][] {
  const number = new Intl.NumberFormat(locale(lang), { maximumFractionDigits: 1 })
  const columns = ['requests_created', 'requests_completed', 'requests_cancelled', 'requests_expired', 'people_helped', 'active_volunteers', 'hours_of_help', 'median_minutes_to_first_offer', 'median_minutes_to_accept']
  return periods.map((period) => columns.map((column) => {
    const value = period[column] as number | null
    if (value !== null) return number.format(value)
    return column === 'people_helped' || column === 'active_volunteers' ? say(lang, 'reports.fewer', { count: 5 }) : say(lang, 'reports.none')
  }))
}

/** The summary the page itself was sent (so that other tests' requests made meanwhile cannot differ from it). */
async function summaryShown (page: Page, before: () => Promise<void>): Promise<Summary> {
  const response = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/reports/summary' && r.request().method() === 'GET')
  await before()
  return await (await response).json() as Summary
}

/** A breakdown table as the page shows it: the column names, then each row's period and figures. */
async function breakdown (page: Page, name: string): Promise<{ names: string[], rows: string[][] }> {
  const table = page.getByRole('table', { name, exact: true })
  return {
    names: await table.locator('thead th').allTextContents(),
    rows: await table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? ''))),
  }
}

/** What a breakdown must show for the API's periods: kinds or urgencies in the page's language, null as "fewer than 5". */
function expectedBreakdown (lang: Lang, periods: Period[], group: 'by_type' | 'by_urgency', first: string): { names: string[], rows: string[][] } {
  const number = new Intl.NumberFormat(locale(lang))
  const keys = Object.keys(periods[0]![group])
  const named = (key: string) => group === 'by_type' ? say(lang, `volunteer.kinds.${key}`) : say(lang, `volunteer.urgency.${key}`)
  return {
    names: [first, ...keys.map(named)],
    rows: periods.map((period) => keys.map((key) => {
      const value = period[group][key] ?? null
      return value === null ? say(lang, 'reports.fewer', { count: 5 }) : number.format(value)
    })),
  }
}

/** Both breakdowns (kinds of help, urgencies) equal the API's figures, each in a named region the keyboard reaches. */
async function expectBreakdowns (page: Page, lang: Lang, periods: Period[], by: 'Months' | 'Weeks'): Promise<void> {
  for (const [group, which] of [['by_type', 'Type'], ['by_urgency', 'Urgency']] as const) {
    const caption = say(lang, `reports.table.caption${which}${by}`)
    const shown = await breakdown(page, caption)
    const expected = expectedBreakdown(lang, periods, group, say(lang, by === 'Months' ? 'reports.table.month' : 'reports.table.week'))
    expect(shown.names).toEqual(expected.names)
    expect(shown.rows.map((row) => row.slice(1))).toEqual(expected.rows)
    const region = page.getByRole('region', { name: caption, exact: true })
    await tabTo(page, region, 80)
    await expect(region).toBeFocused()
  }
}

for (const lang of ['en', 'de'] as const) {
  test.describe(`reports (${lang})`, () => {
    test.use({ locale: locale(lang) })

    test('the chart has a text alternative, the table the same figures, by month and by week; the CSV downloads', async ({ page, request, checkA11y }) => {
      const s = (key: string, values: Record<string, string | number> = {}) => say(lang, key, values)
      const manager = await setUp(request)
      await signInAs(page, lang, manager)
      // The menu leads there (folded behind "Menu" on a phone).
      const menu = page.getByRole('button', { name: s('nav.menu'), exact: true })
      if (await menu.isVisible()) await menu.press('Enter')
      const summary = await summaryShown(page, async () => {
        await page.getByRole('navigation', { name: s('nav.label') }).getByRole('link', { name: s('reports.nav'), exact: true }).press('Enter')
      })
      await expect(page.getByRole('heading', { level: 1, name: s('reports.title') })).toBeFocused()
      // The page's figures are the API's as the manager reads them (another test may add requests meanwhile).
      expect((await getAs(request, '/reports/summary', manager) as Summary).periods.map((period) => period.start)).toEqual(summary.periods.map((period) => period.start))
      expect(summary.periods).toHaveLength(12)
      const chart = page.getByRole('img', { name: s('reports.chart.title') })
      await atBothWidths(page, checkA11y, s('reports.title'), async () => {
        await expect(chart).toBeVisible()
      })
      // The text alternative: what the chart shows, its range and totals, and that the table has every figure.
      const created = summary.periods.reduce((sum, period) => sum + period.requests_created, 0)
      const completed = summary.periods.reduce((sum, period) => sum + period.requests_completed, 0)
      const description = await chart.evaluate((svg) => svg.querySelector('desc')?.textContent ?? '')
      const number = new Intl.NumberFormat(locale(lang))
      expect(description).toContain(number.format(created))
      expect(description).toContain(number.format(completed))
      expect(description).toContain(lang === 'de' ? 'Dieselben Zahlen stehen in der Tabelle.' : 'The same figures are in the table.')
      await expect(chart).toHaveAccessibleDescription(description)
      // The table: one row a month, the same figures as the API's.
      const rows = await tableRows(page)
      expect(rows.map((row) => row.slice(1))).toEqual(expectedRows(lang, summary.periods))
      expect(rows.at(-1)?.[0]).toBe(new Intl.DateTimeFormat(locale(lang), { month: 'long', year: 'numeric' }).format(new Date()))
      // This month's completed request counts; a count from 1 to 4 of people is never shown as a number.
      const thisMonth = summary.periods.at(-1)!
      expect(thisMonth.requests_completed).toBeGreaterThan(0)
      if (thisMonth.people_helped === null) expect(rows.at(-1)?.[5]).toBe(s('reports.fewer', { count: 5 }))
      // The table scrolls sideways in its own region on a phone: the keyboard reaches it.
      const region = page.getByRole('region', { name: s('reports.table.captionMonths') })
      await region.focus()
      await expect(region).toBeFocused()
      // Requests by kind of help and by urgency: the API's figures; a count from 1 to 4 withheld and named.
      await expectBreakdowns(page, lang, summary.periods, 'Months')
      for (const group of ['by_type', 'by_urgency'] as const) {
        for (const [key, count] of Object.entries(thisMonth[group])) expect(thisMonth.suppressed.includes(`${group}.${key}`)).toBe(count === null)
      }
      expect(thisMonth.by_type.Shopping).not.toBe(0)

      // By week, by keyboard; the new figures are said and the table follows the API again.
      const week = page.getByRole('radio', { name: s('reports.byWeek') })
      await week.focus()
      await page.keyboard.press('Space')
      await expect(week).toBeChecked()
      const show = page.getByRole('button', { name: s('reports.show'), exact: true })
      await tabTo(page, show)
      const weeks = await summaryShown(page, async () => { await page.keyboard.press('Enter') })
      await expect(page.getByRole('table', { name: s('reports.table.captionWeeks') })).toBeVisible()
      await expect(page).toHaveURL(/by=week/)
      const from = new URL(page.url()).searchParams.get('from')!
      const to = new URL(page.url()).searchParams.get('to')!
      await expectSaid(page, s('reports.shownWeeks_other', { count: weeks.periods.length }))
      expect((await tableRows(page)).map((row) => row.slice(1))).toEqual(expectedRows(lang, weeks.periods))
      await expect(show).toBeFocused()
      await checkA11y()
      await expectBreakdowns(page, lang, weeks.periods, 'Weeks')
      await expectNoHorizontalScroll(page)

      // The last day before the first: refused in the summary, whose link leads to the field.
      await page.getByLabel(s('reports.to'), { exact: true }).fill('2020-01-01')
      await show.press('Enter')
      const problems = page.locator('.error-summary')
      await expect(problems).toBeFocused()
      await expect(problems.getByRole('link')).toHaveText([s('reports.errors.order')])
      await expect(page).toHaveTitle(new RegExp(`^${s('errors.titlePrefix')} `))
      await checkA11y()
      await problems.getByRole('link').press('Enter')
      await expect(page.getByLabel(s('reports.to'), { exact: true })).toBeFocused()
      await page.getByLabel(s('reports.to'), { exact: true }).fill(to)

      // "Download as CSV": through the app's client (the bearer token), saved under the service's name.
      const download = page.waitForEvent('download')
      await page.getByRole('button', { name: s('reports.csv.button') }).press('Enter')
      const file = await download
      expect(file.suggestedFilename()).toBe(`requests-${from}-${to}.csv`)
      const text = readFileSync(await file.path(), 'utf8')
      expect(text.split('\r\n')[0]).toBe('id,created_at,request_type,urgency,status,cancel_reason,city,grid_cell,minutes_to_first_offer,minutes_to_accept,completed_at,hours_of_help,rating,on_behalf')
      expect(text).not.toContain('Shopping for the report')
      await expectSaid(page, s('reports.csv.done', { name: file.suggestedFilename() }))
    })

    test('not for everyone: a volunteer reading the address is told in words', async ({ page, request }) => {
      const person = await registerPerson(request, 'Paul', 'Plain')
      await signInAs(page, lang, person)
      await page.goto('/reports')
      await expect(page.getByRole('heading', { level: 1, name: say(lang, 'volunteer.noAccess.title') })).toBeVisible()
      await expect(page.getByRole('navigation', { name: say(lang, 'nav.label') }).getByRole('link', { name: say(lang, 'reports.nav'), exact: true })).toHaveCount(0)
    })
  })
}
