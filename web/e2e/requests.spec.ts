import { expect, expectNoHorizontalScroll, expectSaid, fill, register, scanA11y, test, uniqueEmail } from './fixtures.js'
import { admin, approve, askForHelp, choose, continueTo, createRequest, IN_BERLIN, offer, registerPerson, signIn, uniquePoint } from './journeys.js'

test.describe('requester journeys', () => {
  test('ask for help by keyboard; see it in my requests; accept an offer; complete with a rating', async ({ page, request, checkA11y }) => {
    await register(page, uniqueEmail('requester'), 'Rita')
    // One question a page: the pages, their errors, Back and Change are tested in ask.spec.ts.
    await askForHelp(page, {
      kind: 'Shopping',
      title: 'Shopping on Friday',
      description: 'Milk, bread and apples from the market',
      point: { latitude: '52,52', longitude: '13.405' },
      address: 'Unter den Linden 1',
      city: 'Berlin',
      urgency: 'High: soon',
      phone: '+49 30 1234567',
    })

    const heading = page.getByRole('heading', { level: 1, name: 'Shopping on Friday' })
    await expect(heading).toBeFocused()
    await expectSaid(page, 'Your request was sent.')
    await expect(page.getByText('Status: Waiting for a moderator')).toBeVisible()
    await checkA11y()
    const id = Number(/\/requests\/(\d+)$/.exec(page.url())?.[1])

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Your requests' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Your requests' })).toBeFocused()
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Shopping on Friday' }) })
    await expect(card).toContainText('Waiting for a moderator')
    await checkA11y()

    // A moderator approves and a volunteer offers (through the API: their journeys are tested elsewhere).
    await approve(request, id)
    const volunteer = await registerPerson(request, 'Vera', 'Volunteer')
    await offer(request, id, volunteer, 'I pass the market on Friday morning.')

    await card.getByRole('link', { name: 'Shopping on Friday' }).press('Enter')
    await expect(heading).toBeFocused()
    await expect(page.getByText('Status: Open for offers')).toBeVisible()
    await expect(page.getByRole('heading', { level: 2, name: 'Offers of help' })).toBeVisible()
    await expect(page.getByText('I pass the market on Friday morning.')).toBeVisible()
    await expect(page.getByText('Waiting for your answer', { exact: true })).toBeVisible()
    await checkA11y()
    await page.getByRole('button', { name: 'Accept offer from Vera Volunteer' }).press('Enter')
    await expect(page.getByRole('status')).toHaveText('You accepted the offer from Vera Volunteer.')
    await expect(page.getByText('Status: In progress')).toBeVisible()
    await expect(heading).toBeFocused()

    // Completing: "Was the help done?" first, then the rating the API needs, on its own page.
    await page.getByRole('link', { name: 'Mark as done' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Was the help done?' })).toBeFocused()
    await page.getByRole('radio', { name: 'Yes, the help is done' }).focus()
    await page.keyboard.press('Space')
    await page.getByRole('button', { name: 'Continue' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'How was the help from Vera?' })).toBeFocused()
    await expect(page.getByText(/The request can only be marked as done with a rating\./)).toBeVisible()
    await page.getByRole('button', { name: 'Mark as done' }).press('Enter')
    await expect(page.getByRole('alert').getByRole('link', { name: 'Choose a rating from 1 to 5 stars' })).toBeVisible()
    await checkA11y()
    await page.getByRole('alert').getByRole('link', { name: 'Choose a rating from 1 to 5 stars' }).press('Enter')
    await expect(page.getByRole('radio', { name: '5 stars' })).toBeFocused()
    await page.keyboard.press('Space')
    await fill(page, 'A few words of thanks or feedback (optional)', 'Thank you, Vera!')
    await page.getByRole('button', { name: 'Mark as done' }).press('Enter')
    await expect(heading).toBeFocused()
    await expectSaid(page, 'Marked as done. Thank you for your rating.')
    await expect(page.getByText('Status: Done')).toBeVisible()
    const rated = await request.get(`/api/v1/users/${volunteer.id}`, { headers: { authorization: `Bearer ${volunteer.token}` } })
    expect((await rated.json() as { volunteer_rating: number }).volunteer_rating).toBe(5)
  })

  test('the request\'s place: "at my home" first when the profile has a home, and not offered without one', async ({ page, request }) => {
    const home = uniquePoint()
    const withHome = await registerPerson(request, 'Hanna', 'Home', home)
    await signIn(page, withHome)
    await page.goto('/ask/where')
    await expect(page.getByRole('radio').first()).toHaveAccessibleName(/^At my home/)
    await choose(page, /^At my home/)
    await continueTo(page, 'What is the address?')
    await expectSaid(page, `Home location used: latitude ${home.latitude}, longitude ${home.longitude}.`)

    await page.getByRole('button', { name: 'Sign out' }).press('Enter')
    await signIn(page, await registerPerson(request, 'Nora', 'Nohome'))
    await page.goto('/ask/where')
    await expect(page.getByRole('radio', { name: /^Where I am now/ })).toBeVisible()
    await expect(page.getByRole('radio', { name: /^At my home/ })).toHaveCount(0)
  })

  test('cancel a request: the dialog asks first, Escape keeps it, confirming cancels it', async ({ page, checkA11y }) => {
    await register(page, uniqueEmail('canceller'), 'Carl')
    await askForHelp(page, {
      kind: 'Household help',
      title: 'Change a light bulb',
      description: 'The ceiling lamp in the kitchen is out',
      point: { latitude: '48.137', longitude: '11.575' },
      address: 'Hauptstraße 5',
      urgency: 'Medium: in the next days',
    })

    const open = page.getByRole('button', { name: 'Cancel this request' })
    await open.press('Enter')
    const dialog = page.getByRole('dialog', { name: 'Cancel this request?' })
    await expect(dialog).toBeVisible()
    await checkA11y('[role=dialog]')
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    await expect(open).toBeFocused()
    await expect(page.getByText('Status: Waiting for a moderator')).toBeVisible()

    await open.press('Enter')
    await expect(dialog.getByRole('button', { name: 'Yes, cancel it' })).toBeVisible()
    await dialog.getByRole('button', { name: 'Yes, cancel it' }).press('Enter')
    await expect(page.getByRole('status')).toHaveText('Your request is cancelled.')
    await expect(page.getByText('Status: Cancelled')).toBeVisible()
    await expect(open).toBeHidden()
  })

  test('German: ask page, request page and its dialog pass axe; requester pages fit 320 px', async ({ browser, request }) => {
    const context = await browser.newContext({ locale: 'de-DE', viewport: { width: 320, height: 700 } })
    const page = await context.newPage()
    const scan = async (include?: string) => {
      await scanA11y(page, include)
      await expectNoHorizontalScroll(page)
    }
    await page.goto('/register')
    await fill(page, 'Vorname', 'Dora')
    await fill(page, 'Nachname', 'Deutsch')
    await fill(page, 'E-Mail-Adresse', uniqueEmail('dora'))
    await page.getByLabel('Passwort', { exact: true }).fill('correct horse battery')
    await page.getByRole('button', { name: 'Konto erstellen' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Hallo, Dora' })).toBeVisible()
    await page.goto('/ask')
    await expect(page.getByRole('heading', { level: 1, name: 'Welche Art von Hilfe brauchen Sie?' })).toBeVisible()
    await expect(page.getByRole('radio', { name: 'Einkaufen' })).toBeVisible()
    await scan()
    await page.getByRole('button', { name: 'Weiter' }).press('Enter')
    await expect(page.getByRole('alert')).toContainText('Wählen Sie die Art der Hilfe')
    await scan()
    // Each page in German by the keyboard (every page is scanned in ask.spec.ts).
    const next = async (heading: string, button = 'Weiter') => {
      await page.getByRole('button', { name: button, exact: true }).press('Enter')
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeFocused()
    }
    await choose(page, 'Einkaufen')
    await next('Kurzer Titel')
    await fill(page, 'Kurzer Titel', 'Einkauf am Freitag')
    await next('Wobei brauchen Sie Hilfe?')
    await fill(page, 'Wobei brauchen Sie Hilfe?', 'Milch, Brot und Äpfel vom Markt')
    await next('Wo brauchen Sie Hilfe?')
    await choose(page, /^Koordinaten eingeben/)
    await next('Geben Sie die Koordinaten ein')
    await fill(page, 'Breitengrad', '52,52')
    await fill(page, 'Längengrad', '13,405')
    await next('Wie lautet die Adresse?')
    await fill(page, 'Adresse', 'Marktplatz 1')
    await next('Wie oft brauchen Sie diese Hilfe?')
    await choose(page, 'Einmal')
    await next('Wann brauchen Sie die Hilfe?')
    await choose(page, 'Wann es passt')
    await next('Wie dringend ist es?')
    await choose(page, 'Mittel: in den nächsten Tagen')
    await next('Wie erreicht die helfende Person Sie?')
    await next('Prüfen Sie Ihre Angaben, bevor Sie die Anfrage senden')
    await scan()
    await next('Einkauf am Freitag', 'Anfrage senden')
    await expect(page.getByRole('heading', { level: 1, name: 'Einkauf am Freitag' })).toBeFocused()
    await expect(page.getByText('Stand: Wartet auf Prüfung')).toBeVisible()
    await scan()
    await page.getByRole('button', { name: 'Diese Anfrage zurückziehen' }).press('Enter')
    await expect(page.getByRole('dialog', { name: 'Diese Anfrage zurückziehen?' })).toBeVisible()
    await scan('[role=dialog]')
    await page.keyboard.press('Escape')
    await page.goto('/requests/mine')
    await expect(page.getByRole('heading', { level: 1, name: 'Ihre Anfragen' })).toBeVisible()
    await scan()
    // Someone else's cancelled request is not found, and the page says so in words.
    const asAdmin = { token: await admin(request) }
    const otherId = await createRequest(request, asAdmin, { ...IN_BERLIN, title: 'Somebody else request' })
    await request.post(`/api/v1/requests/${otherId}/cancel`, { headers: { authorization: `Bearer ${asAdmin.token}` } })
    await page.goto(`/requests/${otherId}`)
    await expect(page.getByRole('heading', { level: 1, name: 'Anfrage nicht gefunden' })).toBeVisible()
    await scan()
    await context.close()
  })
})
