import { expect, expectSaid, tabTo, test } from './fixtures.js'
import { createRequest, getAs, giveRole, inProgress, postAs, registerPerson, uniquePoint } from './journeys.js'
import { atBothWidths, say, signInAs, WIDTHS } from './say.js'

/**
 * Words, phones and withdrawing (docs/web/help.md): values in the page's language, each side's phone after
 * acceptance, and withdrawing asks first:
 * each in English and German, by keyboard, with axe, at 320 and 1280 px. Texts come from the app's own
 * en.json and de.json, so the test reads what a person reads.
 */
for (const lang of ['en', 'de'] as const) {
  test.describe(`issue 24 (${lang})`, () => {
    test.use({ locale: lang === 'de' ? 'de-DE' : 'en-GB' })

    test('6: my requests name kinds of help, and a found location is written, in the page\'s language', async ({ page, context, request, checkA11y }) => {
      const rita = await registerPerson(request, 'Rita', 'Asker')
      await createRequest(request, rita, { ...uniquePoint(), title: 'Bread from the bakery', request_type_id: 1 })
      await signInAs(page, lang, rita)
      await page.goto('/requests/mine')
      const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Bread from the bakery' }) })
      await atBothWidths(page, checkA11y, say(lang, 'mine.title'), async () => {
        await expect(card).toContainText(say(lang, 'kinds.1'))
      })

      await context.grantPermissions(['geolocation'])
      await context.setGeolocation({ latitude: 52.538, longitude: 13.4 })
      await page.goto('/profile')
      await expect(page.getByRole('heading', { level: 1, name: say(lang, 'profile.title') })).toBeVisible()
      await tabTo(page, page.getByRole('button', { name: say(lang, 'location.useCurrent') }))
      await page.keyboard.press('Enter')
      const [latitude, longitude] = lang === 'de' ? ['52,538', '13,4'] : ['52.538', '13.4']
      await expectSaid(page, say(lang, 'location.found', { latitude, longitude }))
      await expect(page.getByRole('textbox', { name: say(lang, 'location.latitude') })).toHaveValue(latitude)
    })

    test('6: notifications name their request; the volunteer\'s own job says "You are helping"', async ({ page, request, checkA11y }) => {
      const { vera, id } = await inProgress(request, 'Lift to the doctor')
      await signInAs(page, lang, vera)
      await page.goto('/notifications')
      const accepted = say(lang, 'notifications.about', { text: say(lang, 'notifications.types.response_accepted'), title: 'Lift to the doctor' })
      await atBothWidths(page, checkA11y, say(lang, 'notifications.title'), async () => {
        await expect(page.getByRole('link', { name: accepted })).toBeVisible()
      })

      await page.goto('/my-offers')
      const job = page.getByRole('article', { name: 'Lift to the doctor' })
      await atBothWidths(page, checkA11y, say(lang, 'volunteer.offers.title'), async () => {
        await expect(job).toContainText(say(lang, 'volunteer.offers.youAreHelping'))
        await expect(job).not.toContainText(say(lang, 'volunteer.status.in_progress'))
      })
      await job.getByRole('link', { name: 'Lift to the doctor' }).press('Enter')
      await expect(page.getByRole('heading', { level: 1, name: 'Lift to the doctor' })).toBeFocused()
      await expect(page).toHaveURL(new RegExp(`/find-help/${id}$`))
      await expect(page.getByRole('main')).toContainText(say(lang, 'volunteer.offers.youAreHelping'))
    })

    test('6: moderators see when the help is wanted by, and the queue records no look at the contact phone', async ({ page, request, checkA11y }) => {
      const moderator = await registerPerson(request, 'Mona', 'Moderator')
      await giveRole(request, moderator, 2)
      const rita = await registerPerson(request, 'Rita', 'Asker')
      const id = await createRequest(request, rita, { ...uniquePoint(), title: `Prescription from the pharmacy (${lang})`, desired_completion_date: '2031-05-03T12:00:00.000Z', contact_phone: '+49 30 2222222' })
      await signInAs(page, lang, moderator)
      await page.goto('/moderation')
      const card = page.getByRole('article', { name: `Prescription from the pharmacy (${lang})` })
      await atBothWidths(page, checkA11y, say(lang, 'moderation.queue.title'), async () => {
        await expect(card).toContainText(say(lang, 'request.when'))
        await expect(card).toContainText(lang === 'de' ? /3\. Mai 2031/ : /3 May 2031/)
      })
      // The queue shows no contact phone, so Rita's access log stays empty (docs/privacy.md › Access records: who has seen my contact details).
      expect(await getAs(request, `/requests/${id}/access-log`, rita)).toEqual([])
    })

    test('6: "Was the help done?" first, then the rating on its own page saying what it is for', async ({ page, request, checkA11y }) => {
      const { rita, vera, id } = await inProgress(request, 'Carry the shopping')
      await signInAs(page, lang, rita)
      await page.goto(`/requests/${id}`)
      await expect(page.getByRole('heading', { level: 1, name: 'Carry the shopping' })).toBeVisible()
      await tabTo(page, page.getByRole('link', { name: say(lang, 'complete.start') }))
      await page.keyboard.press('Enter')

      const done = say(lang, 'complete.doneQuestion')
      await expect(page.getByRole('heading', { level: 1, name: done })).toBeFocused()
      await atBothWidths(page, checkA11y, done)
      // Nothing chosen: the summary says what to do and its link leads to the question.
      await page.getByRole('button', { name: say(lang, 'complete.continue') }).press('Enter')
      const summary = page.getByRole('alert')
      await summary.getByRole('link', { name: say(lang, 'complete.errors.done') }).press('Enter')
      await expect(page.getByRole('radio', { name: say(lang, 'complete.yes') })).toBeFocused()
      await checkA11y()
      await page.keyboard.press('Space')
      await page.keyboard.press('Tab')
      await expect(page.getByRole('button', { name: say(lang, 'complete.continue') })).toBeFocused()
      await page.keyboard.press('Enter')

      const rate = say(lang, 'complete.rating', { name: vera.first })
      await expect(page.getByRole('heading', { level: 1, name: rate })).toBeFocused()
      await atBothWidths(page, checkA11y, rate, async () => {
        await expect(page.getByText(say(lang, 'complete.ratingHint', { name: vera.first }))).toBeVisible()
      })
      await page.getByRole('radio', { name: say(lang, 'complete.stars_other', { count: 4 }) }).focus()
      await page.keyboard.press('Space')
      await page.getByRole('button', { name: say(lang, 'complete.submit') }).press('Enter')
      await expect(page.getByRole('heading', { level: 1, name: 'Carry the shopping' })).toBeFocused()
      await expectSaid(page, say(lang, 'complete.done'))
      await expect(page.getByText(say(lang, 'request.statusLine', { status: say(lang, 'status.completed') }))).toBeVisible()
    })

    test('7: after acceptance each side sees the other\'s phone as a tel: link', async ({ page, request, checkA11y }) => {
      const { rita, vera, id } = await inProgress(request, 'Walk to the post office', { contact_phone: '+49 30 1234567' }, { phone: '+491511234567' })
      await signInAs(page, lang, rita)
      await page.goto(`/requests/${id}`)
      await atBothWidths(page, checkA11y, 'Walk to the post office', async () => {
        await expect(page.getByRole('link', { name: '+491511234567' })).toHaveAttribute('href', 'tel:+491511234567')
      })
      await tabTo(page, page.getByRole('link', { name: '+491511234567' }))

      await signInAs(page, lang, vera)
      await page.goto(`/find-help/${id}`)
      await atBothWidths(page, checkA11y, 'Walk to the post office', async () => {
        await expect(page.getByRole('link', { name: '+49 30 1234567' })).toHaveAttribute('href', 'tel:+49301234567')
      })
      await tabTo(page, page.getByRole('link', { name: '+49 30 1234567' }))
    })

    test('8: withdrawing an accepted offer asks first; a finished request offers no withdrawal', async ({ page, request, checkA11y }) => {
      const { rita, vera, id } = await inProgress(request, 'Lift to the station')
      await signInAs(page, lang, vera)
      await page.goto(`/find-help/${id}`)
      await expect(page.getByRole('heading', { level: 1, name: 'Lift to the station' })).toBeVisible()
      const withdraw = page.getByRole('button', { name: say(lang, 'volunteer.request.withdraw') })
      await tabTo(page, withdraw)
      await page.keyboard.press('Enter')
      const dialog = page.getByRole('dialog', { name: say(lang, 'volunteer.withdraw.title') })
      await expect(dialog).toContainText(say(lang, 'volunteer.withdraw.acceptedText', { name: rita.first }))
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 })
        await checkA11y('[role=dialog]')
      }
      // Escape keeps the offer, and focus returns to the button.
      await page.keyboard.press('Escape')
      await expect(dialog).toBeHidden()
      await expect(withdraw).toBeFocused()
      const yours = page.getByRole('region', { name: say(lang, 'volunteer.request.yourOffer') })
      await expect(yours).toContainText(say(lang, 'volunteer.responseStatus.accepted'))
      await page.keyboard.press('Enter')
      await dialog.getByRole('button', { name: say(lang, 'volunteer.withdraw.confirm') }).press('Enter')
      await expectSaid(page, say(lang, 'volunteer.request.withdrawn'))
      await expect(yours).toContainText(say(lang, 'volunteer.request.earlier', { status: say(lang, 'volunteer.responseStatus.cancelled') }))

      // Done: the accepted offer is history, with nothing to withdraw.
      const finished = await inProgress(request, 'Parcel to the post office')
      await postAs(request, `/requests/${finished.id}/complete`, finished.rita, { rating: 5 })
      await signInAs(page, lang, finished.vera)
      await page.goto(`/find-help/${finished.id}`)
      await atBothWidths(page, checkA11y, 'Parcel to the post office', async () => {
        await expect(page.getByRole('region', { name: say(lang, 'volunteer.request.yourOffer') })).toContainText(say(lang, 'volunteer.responseStatus.accepted'))
        await expect(page.getByRole('button', { name: say(lang, 'volunteer.request.withdraw') })).toHaveCount(0)
      })
    })
  })
}
