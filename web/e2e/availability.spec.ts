import { expect, expectAnnounced, expectNoHorizontalScroll, tabTo, test } from './fixtures.js'
import { followNav, registerPerson, signIn, uniquePoint } from './journeys.js'

const WORDS = {
  en: {
    nav: 'When I can help',
    title: 'When you can help',
    onDuty: /On duty/,
    save: 'Save',
    saved: 'Saved. You are on duty.',
    home: /My home location/,
    point: /Another place/,
    noHomeHint: 'Your profile has no home location yet.',
    noHome: 'Your profile has no home location yet. Choose another place, or add your home location in your profile',
    latitude: 'Latitude',
    longitude: 'Longitude',
    find: 'Find people to help nearby',
    useHome: 'Use my home location',
    findNoHome: 'You have not set a home location yet. Set it on your profile, use your current location, or enter latitude and longitude.',
  },
  de: {
    nav: 'Wann ich helfen kann',
    title: 'Wann Sie helfen können',
    onDuty: /Im Dienst/,
    save: 'Speichern',
    saved: 'Gespeichert. Sie sind im Dienst.',
    home: /Meinem Wohnort/,
    point: /Einem anderen Ort/,
    noHomeHint: 'In Ihrem Profil ist noch kein Wohnort eingetragen.',
    noHome: 'In Ihrem Profil ist noch kein Wohnort eingetragen. Wählen Sie einen anderen Ort oder tragen Sie Ihren Wohnort im Profil ein',
    latitude: 'Breitengrad',
    longitude: 'Längengrad',
    find: 'Menschen in der Nähe helfen',
    useHome: 'Meinen Wohnort verwenden',
    findNoHome: 'Sie haben noch keinen Wohnort angegeben. Geben Sie ihn in Ihrem Profil an, verwenden Sie Ihren aktuellen Standort oder geben Sie Breiten- und Längengrad ein.',
  },
} as const

/** The first save works for a new volunteer; "no home" is an error linked to the choice that fixes it. */
test.describe('"When I can help" for a volunteer without a home location', () => {
  for (const language of ['en', 'de'] as const) {
    for (const width of [1280, 320]) {
      test(`${language}, ${width} px: the place is asked for, and a missing home links to the control that fixes it`, async ({ page, request, checkA11y }) => {
        const words = WORDS[language]
        const point = uniquePoint()
        await page.setViewportSize({ width, height: width === 320 ? 640 : 800 })
        await signIn(page, await registerPerson(request, 'Nina', 'New'))
        if (language === 'de') await page.getByRole('button', { name: 'Deutsch' }).press('Enter')
        await page.goto('/availability')
        await expect(page.getByRole('heading', { level: 1, name: words.title })).toBeVisible()
        // No home yet: "another place" is chosen, and the home option says why it would not work.
        await expect(page.getByRole('radio', { name: words.point })).toBeChecked()
        await expect(page.getByText(words.noHomeHint, { exact: true })).toBeVisible()
        await checkA11y()

        // The first save goes on duty from a typed place, by keyboard.
        const onDuty = page.getByRole('switch', { name: words.onDuty })
        await tabTo(page, onDuty, 60)
        await page.keyboard.press('Space')
        const latitude = page.getByRole('textbox', { name: words.latitude })
        await tabTo(page, latitude, 60)
        await page.keyboard.type(String(point.latitude))
        await page.keyboard.press('Tab')
        await page.keyboard.type(String(point.longitude))
        await page.keyboard.press('Enter')
        await expectAnnounced(page, words.saved)

        // "My home location" without a home: the summary's error is a link to the choice, which fixes it.
        await page.getByRole('radio', { name: words.point }).focus()
        await page.keyboard.press('ArrowUp')
        await expect(page.getByRole('radio', { name: words.home })).toBeChecked()
        await tabTo(page, page.getByRole('button', { name: words.save }))
        await page.keyboard.press('Enter')
        const link = page.getByRole('alert').getByRole('link', { name: words.noHome })
        await expect(link).toBeVisible()
        await expect(page.locator('.error-summary')).toBeFocused()
        await checkA11y()
        await expectNoHorizontalScroll(page)
        await page.keyboard.press('Tab')
        await expect(link).toBeFocused()
        await page.keyboard.press('Enter')
        await expect(page.getByRole('radio', { name: words.home })).toBeFocused()
        await page.keyboard.press('ArrowDown')
        await expect(page.getByRole('radio', { name: words.point })).toBeChecked()
        await tabTo(page, page.getByRole('button', { name: words.save }))
        await page.keyboard.press('Enter')
        await expectAnnounced(page, words.saved)
        await expect(page.getByRole('alert')).toHaveCount(0)

        // Finding help from a home there is not: the error links to the typed place.
        await page.goto('/find-help')
        await expect(page.getByRole('heading', { level: 1, name: words.find })).toBeVisible()
        await page.getByRole('button', { name: words.useHome }).press('Enter')
        const findLink = page.getByRole('alert').getByRole('link', { name: words.findNoHome })
        await expect(findLink).toBeVisible()
        await page.keyboard.press('Tab')
        await expect(findLink).toBeFocused()
        await page.keyboard.press('Enter')
        await expect(page.getByRole('textbox', { name: words.latitude })).toBeFocused()
        await checkA11y()
      })
    }
  }

  test('with a home location, the home is chosen and the first save works', async ({ page, request }) => {
    await signIn(page, await registerPerson(request, 'Hanna', 'Home', uniquePoint()))
    await followNav(page, 'When I can help', 'When you can help')
    await expect(page.getByRole('radio', { name: /My home location/ })).toBeChecked()
    await page.getByRole('switch', { name: /On duty/ }).focus()
    await page.keyboard.press('Space')
    await page.getByRole('button', { name: 'Save' }).press('Enter')
    await expectAnnounced(page, 'Saved. You are on duty.')
  })
})
