import type { Page } from '@playwright/test'
import { expect, expectNoHorizontalScroll, fill, tabTo, test } from './fixtures.js'
import { approve, choose, continueTo, createRequest, followNav, north, registerPerson, signIn, uniquePoint } from './journeys.js'

/**
 * Presses a key on the focused map and waits until the map has moved: Leaflet ignores an arrow key while
 * the previous move is still gliding, as a person pressing at a person's pace never notices.
 */
async function moveMap (page: Page, key: string): Promise<void> {
  const pane = page.locator('.leaflet-map-pane')
  const before = await pane.evaluate((element) => (element as HTMLElement).style.transform)
  await page.keyboard.press(key)
  await expect.poll(() => pane.evaluate((element) => (element as HTMLElement).style.transform)).not.toBe(before)
  await expect(page.locator('.leaflet-pan-anim')).toHaveCount(0)
}

/** Presses + or − on the focused map and waits until the zoom has ended (the search circle is drawn anew at each zoom). */
async function zoomMap (page: Page, key: string): Promise<void> {
  const circle = page.locator('path.map-search-circle')
  const before = await circle.getAttribute('d')
  await page.keyboard.press(key)
  await expect(circle).not.toHaveAttribute('d', before ?? '')
  await expect(page.locator('.leaflet-zoom-anim')).toHaveCount(0)
}

/** The point moved to the middle of its row of the 300 m grid (MAP_GRID_METERS' default) that approximate places are shown on. */
function rowMiddle (point: { latitude: number, longitude: number }): { latitude: number, longitude: number } {
  const row = 300 / 111_195
  return { latitude: (Math.floor(point.latitude / row) + 0.5) * row, longitude: point.longitude }
}

/** The map's pictures cannot be had in these tests (MAP_TILE_URL points at a closed port): all of this works without them. */
test.describe('the map: an alternative view of the nearby requests, and a way to choose a place, by keyboard', () => {
  test('a volunteer switches to the map, moves it with the arrow keys and opens a request from its marker', async ({ page, request, checkA11y }) => {
    // Home at the middle of a row of docs/privacy.md › The grid's 300 m grid, so the two requests below are shown two rows
    // apart (600 m) wherever the point falls: 1 row (300 m) would be too close to part with two zooms.
    const home = rowMiddle(uniquePoint())
    const requester = await registerPerson(request, 'Rita', 'Asker')
    const urgent = await createRequest(request, requester, { ...north(home, 200), title: 'Carry the shopping upstairs', urgency: 'urgent' })
    await approve(request, urgent)
    await createRequest(request, requester, { ...north(home, -250), title: 'Lift to the clinic', urgency: 'low' })
    const volunteer = await registerPerson(request, 'Vera', 'Helper', home)

    await signIn(page, volunteer)
    await followNav(page, 'Find help nearby', 'Find people to help nearby')
    await page.getByRole('button', { name: 'Use my home location' }).press('Enter')
    // Within 5 km (the default), the map fitted to the circle draws these two, shown 600 m apart, 13 to 29 px apart.
    await expect(page.getByRole('radio', { name: 'Within 5 km' })).toBeChecked()
    // List or map: two links that keep the search, the current one marked; focus stays where it was.
    const views = page.getByRole('navigation', { name: 'Show the requests as' })
    await expect(views.getByRole('link', { name: 'List' })).toHaveAttribute('aria-current', 'page')
    const asMap = views.getByRole('link', { name: 'Map' })
    await tabTo(page, asMap)
    await page.keyboard.press('Enter')
    await expect(asMap).toHaveAttribute('aria-current', 'page')
    await expect(asMap).toBeFocused()
    await expect(page).toHaveURL(/view=map/)

    const map = page.getByRole('application', { name: 'Map of the requests' })
    await expect(map).toBeVisible()
    await expect(page.getByText('2 requests on this part of the map.')).toBeVisible()
    // Too close to draw apart: one button with their number, named for a screen reader; axe's target-size rule passes.
    const group = page.getByRole('button', { name: '2 requests here' })
    await expect(group).toHaveText('2')
    const marker = page.getByRole('link', { name: 'Carry the shopping upstairs (Urgent, approximate place)' })
    await expect(marker).toHaveCount(0)
    await expect(map).toHaveAccessibleDescription(/move it with the arrow keys/)
    await checkA11y()

    // The group opens their list under the map, focus on its heading; each is a link named as its marker.
    await tabTo(page, group)
    await page.keyboard.press('Enter')
    const list = page.getByRole('region', { name: '2 requests here' })
    await expect(list.getByRole('heading', { level: 2, name: '2 requests here' })).toBeFocused()
    await expect(list.getByRole('link', { name: 'Carry the shopping upstairs (Urgent, approximate place)' })).toBeVisible()
    await expect(list.getByRole('link', { name: 'Lift to the clinic (Low, approximate place)' })).toBeVisible()
    await checkA11y()
    await list.getByRole('button', { name: 'Close this list' }).press('Enter')
    await expect(list).toHaveCount(0)
    await expect(group).toBeFocused()

    // Zoomed in with +, the two stand apart again, each its own link.
    await tabTo(page, map)
    for (let i = 0; i < 2; i++) await zoomMap(page, '+')
    await expect(marker).toBeVisible()
    await expect(page.getByRole('link', { name: 'Lift to the clinic (Low, approximate place)' })).toBeVisible()
    await expect(group).toHaveCount(0)
    await checkA11y()

    // Far up with the keyboard: the requests leave the view, and the words under the map say so.
    await tabTo(page, map)
    for (let i = 0; i < 5; i++) await moveMap(page, 'Shift+ArrowUp')
    await expect(page.getByText('0 requests on this part of the map.')).toBeVisible()
    await expect(marker).toHaveCount(0)
    for (let i = 0; i < 5; i++) await moveMap(page, 'Shift+ArrowDown')
    await expect(page.getByText('2 requests on this part of the map.')).toBeVisible()

    // A marker is a link: Enter opens the request.
    await tabTo(page, marker)
    await page.keyboard.press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Carry the shopping upstairs' })).toBeFocused()
    await page.goBack()
    // Focused before the next key: the app moves focus to the h1 a frame after it appears.
    await expect(page.getByRole('heading', { level: 1, name: 'Find people to help nearby' })).toBeFocused()
    await expect(map).toBeVisible()

    // In German, 320 px wide, and at 200% zoom of a 1280 × 800 window (640 × 400 CSS px): no sideways scrolling, no axe finding.
    await page.getByRole('button', { name: 'Deutsch' }).press('Enter')
    const karte = page.getByRole('application', { name: 'Karte der Anfragen' })
    for (const [width, height] of [[320, 640], [640, 400]] as const) {
      await page.setViewportSize({ width, height })
      await expect(karte).toBeVisible()
      // Opened afresh, fitted to the 5 km circle: the two are one group again.
      await expect(page.getByRole('button', { name: '2 Anfragen hier' })).toBeAttached()
      await expect(page.getByRole('button', { name: 'Vergrößern' })).toBeVisible()
      await expectNoHorizontalScroll(page)
      await checkA11y()
    }
  })

  test('leaving the map right after the window changed size raises no error', async ({ page, request }) => {
    const home = uniquePoint()
    const requester = await registerPerson(request, 'Rita', 'Asker')
    const id = await createRequest(request, requester, { ...north(home, 100), title: 'Water the plants', urgency: 'low' })
    await approve(request, id)
    const volunteer = await registerPerson(request, 'Vera', 'Helper', home)
    await signIn(page, volunteer)
    await page.goto(`/find-help?lat=${home.latitude}&lon=${home.longitude}&radius=5000&view=map`)
    const marker = page.getByRole('link', { name: 'Water the plants (Low, approximate place)' })
    await expect(marker).toBeVisible()
    // Leaflet reports the new view of a resized map 200 ms later; the map is gone by then (a page error fails the test).
    await page.setViewportSize({ width: 640, height: 400 })
    await marker.press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Water the plants' })).toBeFocused()
    await page.waitForTimeout(400)
  })

  test('a requester chooses the place of a request on a map with the arrow keys; the chosen place follows the cross', async ({ page, request, checkA11y }) => {
    const requester = await registerPerson(request, 'Paula', 'Picker')
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await signIn(page, requester)
    await page.goto('/ask/where')
    await choose(page, /^Choose the place on a map/)
    await continueTo(page, 'Choose the place on a map')
    // With no point yet the map shows the world, and showing it chooses nothing: Continue says so.
    const map = page.getByRole('application', { name: 'Map for choosing the place' })
    await expect(map).toBeVisible()
    await expect(page.getByText(/^Chosen place:/)).toHaveCount(0)
    await page.getByRole('button', { name: 'Continue' }).press('Enter')
    await expect(page.locator('.error-summary')).toContainText('Move the map until the cross is on the place')
    await checkA11y()

    // A point typed behind "Enter coordinates" is where the map starts.
    await page.getByRole('link', { name: 'Back' }).press('Enter')
    // The page moves focus to its h1 a frame after it shows: a key pressed before that would go there instead.
    await expect(page.getByRole('heading', { level: 1, name: 'Where do you need help?' })).toBeFocused()
    await choose(page, /^Enter coordinates/)
    await continueTo(page, 'Enter the coordinates')
    await fill(page, 'Latitude', '52.52')
    await fill(page, 'Longitude', '13.405')
    await page.getByRole('link', { name: 'Back' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Where do you need help?' })).toBeFocused()
    await choose(page, /^Choose the place on a map/)
    await continueTo(page, 'Choose the place on a map')
    await expect(page.getByText('Chosen place: 52.52, 13.405')).toBeVisible()
    await checkA11y()

    const chosen = async () => (/Chosen place: (-?[\d.]+), (-?[\d.]+)/.exec(await page.getByText(/^Chosen place:/).innerText() ?? '') ?? []).slice(1).map(Number)
    await tabTo(page, map)
    await moveMap(page, 'ArrowRight')
    await expect.poll(async () => (await chosen())[1]).toBeGreaterThan(13.405)
    // East along the same latitude, to within Leaflet's whole pixels (under a metre at this zoom).
    expect(Math.abs((await chosen())[0]! - 52.52)).toBeLessThan(0.00001)
    await moveMap(page, 'ArrowUp')
    await expect.poll(async () => (await chosen())[0]).toBeGreaterThan(52.52)

    // With reduced motion a zoom (the - key) jumps: no CSS animation or transition runs, tiles do not fade.
    await page.keyboard.press('-')
    await expect(map).not.toHaveClass(/leaflet-fade-anim/)
    expect(await page.evaluate(() => document.getAnimations().length)).toBe(0)

    // The place under the cross is the answer: Continue goes on to the address.
    const [lat, lon] = await chosen()
    await continueTo(page, 'What is the address?')
    await page.getByRole('link', { name: 'Back' }).press('Enter')
    await expect(page.getByText(`Chosen place: ${lat}, ${lon}`)).toBeVisible()
  })

  test('a requester finds the point of a typed address through the geocoder, and is told when it finds nothing', async ({ page, request, checkA11y }) => {
    const requester = await registerPerson(request, 'Gina', 'Geo')
    await signIn(page, requester)
    await page.goto('/ask/where')
    await choose(page, /^Type the address and find it/)
    await continueTo(page, 'What is the address?')
    await page.getByRole('textbox', { name: 'Address' }).fill('Nowhere Lane 99')
    await page.getByRole('button', { name: 'Find this address' }).press('Enter')
    // Said by the live region and shown in the question's group.
    const where = page.getByRole('group', { name: 'What is the address?' })
    await expect(where.getByText('No place found for this address. Set the point another way.')).toBeVisible()
    // Without a place found, Continue says what is missing.
    await page.getByRole('button', { name: 'Continue' }).press('Enter')
    await expect(page.locator('.error-summary').getByRole('link', { name: 'Find the address, then choose the place from the list' })).toBeVisible()
    await page.getByRole('textbox', { name: 'Address' }).fill('Unter den Linden 1')
    await page.getByRole('textbox', { name: 'Town or city (optional)' }).fill('Berlin')
    await page.getByRole('button', { name: 'Find this address' }).press('Enter')
    const place = page.getByRole('list', { name: 'Places found' }).getByRole('button', { name: 'Use Unter den Linden 1, Mitte, Berlin, 10117, Germany' })
    await expect(place).toBeVisible()
    await checkA11y()
    await place.press('Enter')
    await expect(where.getByText('Chosen place: 52.5170365, 13.3888599')).toBeVisible()
    await expect(page.getByRole('status')).toContainText('Point set to Unter den Linden 1, Mitte, Berlin, 10117, Germany.')

    // A geocoder that cannot be reached is said so, and the point stays as it was.
    await page.route('**/search?**', (route) => route.abort())
    await page.getByRole('button', { name: 'Find this address' }).press('Enter')
    await expect(where.getByText('The address search is not available now. Set the point another way.')).toBeVisible()
    await expect(where.getByText('Chosen place: 52.5170365, 13.3888599')).toBeVisible()
    await continueTo(page, 'How often do you need this help?')
  })

  test('zoomed out past the whole world, the map still shows the requests nearest its middle', async ({ page, request }) => {
    const home = uniquePoint()
    const requester = await registerPerson(request, 'Wanda', 'World')
    const id = await createRequest(request, requester, { ...north(home, 100), title: 'Read the letters aloud', urgency: 'high' })
    const volunteer = await registerPerson(request, 'Walt', 'Wide', home)
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await signIn(page, volunteer)
    await page.goto(`/find-help?lat=${home.latitude}&lon=${home.longitude}&radius=5000&view=map`)
    // By its address too: zoomed out to the world, the map may show other tests' requests of the same title.
    const marker = page.getByRole('link', { name: 'Read the letters aloud (High, approximate place)' }).and(page.locator(`[href="/find-help/${id}"]`))
    await expect(marker).toBeVisible()
    await tabTo(page, page.getByRole('application', { name: 'Map of the requests' }))
    // Every view's question, in the order asked, and the requests in each answer. The keys are pressed faster than
    // the answers come, so answers arrive out of order, and a question given up for a newer view (the query's abort
    // signal) has none.
    const asked: URL[] = []
    const answered: Array<{ url: URL, ids: number[] }> = []
    page.on('request', (request) => {
      if (!request.url().includes('/api/v1/requests/map?')) return
      const url = new URL(request.url())
      asked.push(url)
      request.response()
        .then(async (response) => { if (response !== null) answered.push({ url, ids: ((await response.json()) as { markers: Array<{ id: number }> }).markers.map((m) => m.id) }) })
        .catch(() => {})
    })
    // From zoom 15 to 0: at 1280 px wide the view is then wider than the world, whose edges would wrap onto each other.
    for (let zoom = 15; zoom > 0; zoom--) await page.keyboard.press('-')
    await expect(page.locator('.leaflet-tile-container img').first()).toHaveAttribute('src', /\/0\/0\/0\.png$/)
    // The last view asked for is the whole world, not the sliver where its wrapped edges meet, and the answer for the
    // whole world holds the request.
    await expect.poll(() => asked.at(-1)?.searchParams.get('min_lon')).toBe('-180')
    expect(asked.at(-1)!.searchParams.get('max_lon')).toBe('180')
    // And it says where the view's middle really is (the service takes it as "nearest the middle"), not longitude 0.
    expect(Math.abs(Number(asked.at(-1)!.searchParams.get('center_lon')) - home.longitude)).toBeLessThan(1)
    expect(Math.abs(Number(asked.at(-1)!.searchParams.get('center_lat')) - home.latitude)).toBeLessThan(1)
    await expect.poll(() => answered.some(({ url, ids }) => url.searchParams.get('min_lon') === '-180' && url.searchParams.get('max_lon') === '180' && ids.includes(id))).toBe(true)
    // At the world's zoom (256 px around) it shares a group with any other test's request less than 36 px away: that group lists it.
    const group = page.locator(`.leaflet-marker-pane [data-group~="${id}"]`)
    await expect(marker.or(group)).toBeAttached()
    if (await group.count() > 0) {
      await group.press('Enter')
      await expect(page.getByRole('region', { name: /requests here$/ }).locator(`[href="/find-help/${id}"]`)).toHaveAccessibleName('Read the letters aloud (High, approximate place)')
    }
  })
})
