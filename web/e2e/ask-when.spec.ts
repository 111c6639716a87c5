import { expect, expectNoHorizontalScroll, fill, scanA11y, test } from './fixtures.js'
import { accept, approve, choose, continueTo, getAs, navLink, offer, registerPerson, uniquePoint } from './journeys.js'
import { say, signInAs, type Lang } from './say.js'

/** The day after tomorrow on this machine's calendar, as the three fields take it, and as YYYY-MM-DD. */
function dayAfterTomorrow (): { fields: readonly [string, string, string], iso: string } {
  const day = new Date()
  day.setDate(day.getDate() + 2)
  const fields = [String(day.getDate()), String(day.getMonth() + 1), String(day.getFullYear())] as const
  return { fields, iso: `${fields[2]}-${fields[1].padStart(2, '0')}-${fields[0].padStart(2, '0')}` }
}

/**
 * Finding: a one-off request had only "by when", so a 10:00 doctor's appointment was stored as a deadline and
 * said as one everywhere. "When do you need it?" now asks at a set time (a window), by a day, or any time,
 * with GOV.UK's date input and times typed as people say them (docs/web/help.md › Asking for help).
 * By keyboard, with axe, in English and German, at 320 and 1280 px.
 */
for (const lang of ['en', 'de'] as const satisfies readonly Lang[]) {
  for (const width of [320, 1280]) {
    test.describe(`when help once is needed (${lang}, ${width} px)`, () => {
      test.use({ locale: lang === 'de' ? 'de-DE' : 'en-GB', viewport: { width, height: 800 } })

      test('an appointment at a set time: its errors in words, then sent as a window and said as one to the volunteer', async ({ page, request }) => {
        const s = (key: string, values?: Record<string, string | number>) => say(lang, key, values)
        const point = uniquePoint()
        const rosa = await registerPerson(request, 'Rosa', 'Rentner', { ...point, address: 'Lindenweg 4' })
        const scan = async () => {
          await scanA11y(page)
          await expectNoHorizontalScroll(page)
        }
        const next = async (heading: string) => { await continueTo(page, heading, s('ask.continue')); await scan() }
        const summary = page.locator('.error-summary')
        const { fields, iso } = dayAfterTomorrow()

        await signInAs(page, lang, rosa)
        await (await navLink(page, s('ask.title'), { nav: s('nav.label'), menu: s('nav.menu') })).press('Enter')
        await expect(page.getByRole('heading', { level: 1, name: s('ask.kind') })).toBeFocused()
        await choose(page, s('kinds.1'))
        await next(s('ask.titleField'))
        await fill(page, s('ask.titleField'), 'Lift to the eye doctor')
        await next(s('ask.description'))
        await fill(page, s('ask.description'), 'Appointment at ten, please wait and bring me back')
        await next(s('ask.place.question'))
        await choose(page, new RegExp(`^${s('ask.place.home')}`))
        await next(s('ask.addressQuestion'))
        await next(s('regular.often'))
        await choose(page, s('regular.once'))
        await next(s('ask.when'))

        // Nothing chosen: said, and linked to the first choice.
        await page.getByRole('button', { name: s('ask.continue'), exact: true }).press('Enter')
        await expect(summary.getByRole('link')).toHaveText([s('ask.errors.timing')])
        await scan()
        await choose(page, s('ask.timing.at'))
        await expect(page.getByRole('radio', { name: s('ask.timing.at') })).toHaveAccessibleDescription(s('ask.timing.atHint'))
        await next(s('ask.at.question'))

        // A day the calendar has not, then a time in words, then an end before the start: each said alone, its link into the field.
        const day = page.getByRole('textbox', { name: s('form.date.day'), exact: true })
        for (const [field, value] of [['day', '31'], ['month', '4'], ['year', fields[2]]] as const) await fill(page, s(`form.date.${field}`), value)
        await fill(page, s('ask.at.from'), '9.30')
        await page.getByRole('button', { name: s('ask.continue'), exact: true }).press('Enter')
        await expect(summary.getByRole('link')).toHaveText([s('ask.errors.onDay')])
        await scan()
        await summary.getByRole('link', { name: s('ask.errors.onDay') }).press('Enter')
        await expect(day).toBeFocused()
        for (const [field, value] of [['day', fields[0]], ['month', fields[1]]] as const) await fill(page, s(`form.date.${field}`), value)
        await fill(page, `${s('ask.at.until')} ${s('form.optional')}`, '9.00')
        await page.getByRole('button', { name: s('ask.continue'), exact: true }).press('Enter')
        await expect(summary.getByRole('link')).toHaveText([s('ask.errors.endsAt')])
        await fill(page, `${s('ask.at.until')} ${s('form.optional')}`, '11.15')
        await next(s('ask.urgency'))
        await choose(page, s('urgency.medium'))
        await next(s('ask.contactQuestion'))
        await next(s('ask.check.heading'))

        // The check page says the window.
        const when = page.locator('.summary-row').filter({ has: page.locator('dt').getByText(s('ask.check.when'), { exact: true }) })
        await expect(when).toContainText('09:30–11:15')
        await page.getByRole('button', { name: s('ask.send') }).press('Enter')
        await expect(page.getByRole('heading', { level: 1, name: 'Lift to the eye doctor' })).toBeFocused()
        const id = Number(/\/requests\/(\d+)$/.exec(page.url())?.[1])
        const sent = await getAs(request, `/requests/${id}`, rosa) as { window_start: string, window_end: string, desired_completion_date: string }
        expect(new Date(sent.window_start).toLocaleString('sv-SE')).toBe(`${iso} 09:30:00`)
        expect(new Date(sent.window_end).toLocaleString('sv-SE')).toBe(`${iso} 11:15:00`)
        expect(sent.desired_completion_date).toBe(sent.window_end)
        await expect(page.getByRole('main')).toContainText(s('schedule.window'))
        await scan()

        // Vera is accepted: her coming help lists the lift at its time.
        const vera = await registerPerson(request, 'Vera', 'Fahrer', point)
        await approve(request, id)
        await accept(request, id, await offer(request, id, vera), rosa)
        await signInAs(page, lang, vera)
        await page.goto('/coming-help')
        await expect(page.getByRole('heading', { level: 1, name: s('coming.title') })).toBeVisible()
        const item = page.getByRole('main').getByRole('listitem').filter({ hasText: 'Lift to the eye doctor' })
        await expect(item).toContainText('09:30')
        await scan()
      })
    })
  }
}

test('by a day: the day\'s end when no time is given; any time: no date at all', async ({ page, request }) => {
  const rosa = await registerPerson(request, 'Rosa', 'Rentner', { ...uniquePoint(), address: 'Lindenweg 4' })
  const { fields, iso } = dayAfterTomorrow()
  await signInAs(page, 'en', rosa)
  for (const timing of ['by', 'any'] as const) {
    await page.goto('/ask/kind')
    await expect(page.getByRole('heading', { level: 1, name: say('en', 'ask.kind') })).toBeVisible()
    await choose(page, say('en', 'kinds.2'))
    await continueTo(page, say('en', 'ask.titleField'))
    await fill(page, say('en', 'ask.titleField'), `Post a parcel (${timing})`)
    await continueTo(page, say('en', 'ask.description'))
    await fill(page, say('en', 'ask.description'), 'A small parcel to the post office')
    await continueTo(page, say('en', 'ask.place.question'))
    await choose(page, /^At my home/)
    await continueTo(page, say('en', 'ask.addressQuestion'))
    await continueTo(page, say('en', 'regular.often'))
    await choose(page, say('en', 'regular.once'))
    await continueTo(page, say('en', 'ask.when'))
    await choose(page, say('en', `ask.timing.${timing}`))
    if (timing === 'by') {
      await continueTo(page, say('en', 'ask.by.question'))
      for (const [field, value] of [['day', fields[0]], ['month', fields[1]], ['year', fields[2]]] as const) await fill(page, say('en', `form.date.${field}`), value)
    }
    await continueTo(page, say('en', 'ask.urgency'))
    await choose(page, say('en', 'urgency.low'))
    await continueTo(page, say('en', 'ask.contactQuestion'))
    await continueTo(page, say('en', 'ask.check.heading'))
    await expect(page.locator('.summary-row').filter({ has: page.locator('dt').getByText(say('en', 'ask.check.when'), { exact: true }) })).toContainText(timing === 'by' ? 'By ' : say('en', 'ask.timing.any'))
    await page.getByRole('button', { name: say('en', 'ask.send') }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: `Post a parcel (${timing})` })).toBeFocused()
    const id = Number(/\/requests\/(\d+)$/.exec(page.url())?.[1])
    const sent = await getAs(request, `/requests/${id}`, rosa) as { window_start: string | null, desired_completion_date: string | null }
    expect(sent.window_start).toBeNull()
    expect(sent.desired_completion_date === null ? null : new Date(sent.desired_completion_date).toLocaleString('sv-SE')).toBe(timing === 'by' ? `${iso} 23:59:00` : null)
  }
})
