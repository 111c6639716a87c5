import type { Page } from '@playwright/test'
import { expect, expectNoHorizontalScroll, tabTo, test } from './fixtures.js'
import { approve, createRequest, north, registerPerson, signIn, uniquePoint } from './journeys.js'

/** The words of both languages that this test reads. */
const WORDS = {
  en: {
    home: 'Use my home location',
    showAs: 'Show the requests as',
    map: 'Map',
    within: (km: number) => `Within ${km} km`,
    found: '1 request within 5 km',
    none: 'No requests within 1 km. Try a larger distance.',
    shown: (n: number) => `${n} request${n === 1 ? '' : 's'} on this part of the map.`,
    mapName: 'Map of the requests',
    search: 'The black dot is the place you search from, the dashed circle 5 km around it.',
  },
  de: {
    home: 'Meinen Wohnort verwenden',
    showAs: 'Anfragen anzeigen als',
    map: 'Karte',
    within: (km: number) => `Im Umkreis von ${km} km`,
    found: '1 Hilfegesuch im Umkreis von 5 km',
    none: 'Keine Hilfegesuche im Umkreis von 1 km. Versuchen Sie eine größere Entfernung.',
    shown: (n: number) => `${n} Anfrage${n === 1 ? '' : 'n'} in diesem Kartenausschnitt.`,
    mapName: 'Karte der Anfragen',
    search: 'Der schwarze Punkt ist der Ort, von dem aus gesucht wird, der gestrichelte Kreis 5 km um ihn herum.',
  },
} as const

/** Chooses a distance in the radio group by keyboard. */
async function chooseDistance (page: Page, name: string): Promise<void> {
  const option = page.getByRole('radio', { name })
  await option.focus()
  await page.keyboard.press('Space')
  await expect(option).toBeChecked()
}

/** The map opens fitted to the search circle, draws it, and says what the list says. */
test.describe('the map shows what the list shows', () => {
  for (const language of ['en', 'de'] as const) {
    for (const width of [1280, 320]) {
      test(`${language}, ${width} px: the map opens fitted to the circle of the search, and follows a new distance`, async ({ page, request, checkA11y }) => {
        const words = WORDS[language]
        const home = uniquePoint()
        const requester = await registerPerson(request, 'Rita', 'Asker')
        // 3.5 km away: inside the 5 km circle, far outside the view of a map opened at street zoom.
        const id = await createRequest(request, requester, { ...north(home, 3500), title: 'Fetch the prescription', urgency: 'high' })
        await approve(request, id)
        const volunteer = await registerPerson(request, 'Vera', 'Helper', home)
        await page.setViewportSize({ width, height: width === 320 ? 640 : 800 })
        await signIn(page, volunteer)
        if (language === 'de') await page.getByRole('button', { name: 'Deutsch' }).press('Enter')
        await page.goto('/find-help')
        await page.getByRole('button', { name: words.home }).press('Enter')
        await expect(page.getByRole('main').getByText(words.found).first()).toBeVisible()

        const asMap = page.getByRole('navigation', { name: words.showAs }).getByRole('link', { name: words.map })
        await tabTo(page, asMap, 80)
        await page.keyboard.press('Enter')
        await expect(page.getByRole('application', { name: words.mapName })).toBeVisible()
        // The list's words and the map's agree; the circle and the point are drawn and explained.
        await expect(page.getByRole('main').getByText(words.found)).toBeVisible()
        await expect(page.getByText(words.shown(1))).toBeVisible()
        await expect(page.locator(`.leaflet-marker-pane [href="/find-help/${id}"]`)).toBeAttached()
        await expect(page.locator('path.map-search-circle')).toHaveCount(1)
        await expect(page.locator('path.map-search-point')).toHaveCount(1)
        await expect(page.getByText(words.search)).toBeVisible()
        await expectNoHorizontalScroll(page)
        await checkA11y()

        // A smaller distance: list and map both say none; back to 5 km, both say one.
        await chooseDistance(page, words.within(1))
        await expect(page.getByRole('main').getByText(words.none)).toBeVisible()
        await expect(page.getByText(words.shown(0))).toBeVisible()
        await chooseDistance(page, words.within(5))
        await expect(page.getByRole('main').getByText(words.found)).toBeVisible()
        await expect(page.getByText(words.shown(1))).toBeVisible()
        await checkA11y()
      })
    }
  }
})
