import { expect, fill, PASSWORD, test } from './fixtures.js'
import { admin, approve, createRequest, IN_BERLIN, offer, postAs, registerPerson } from './journeys.js'
import { acceptOffer, OUT, SIZES } from './shots.js'

// Screenshots of the coordinator's workspace, the carers' pages and the reports: the README's table.

test('screenshots of the coordinator\'s workspace: a client found by number, the client requests with what to tell, a request\'s history', async ({ browser, request }) => {
  test.setTimeout(180_000)
  const clara = await registerPerson(request, 'Clara', 'Koch')
  await postAs(request, `/admin/users/${clara.id}/roles/4`, { token: await admin(request) })
  const erna = await postAs(request, '/clients', clara, { first_name: 'Erna', last_name: 'Schmidt', phone: '+49301234567', address: 'Lindenweg 4', city: 'Berlin', latitude: 52.51, longitude: 13.39, needs: 'Uses a wheelchair, needs help on stairs', consent: { how: 'phone' } }) as { id: number }
  const hans = await postAs(request, '/clients', clara, { first_name: 'Hans', last_name: 'Weber', phone: '+49309876543', address: 'Am Markt 2', city: 'Berlin', latitude: 52.52, longitude: 13.41, consent: { how: 'in_person' } }) as { id: number }
  const forClient = (client: number, title: string, fields: Record<string, unknown>) => postAs(request, '/requests', clara, { request_type_id: 1, title, description: 'Milk, bread and apples from the market, and a newspaper.', urgency: 'medium', on_behalf_of: { client_id: client }, ...fields }) as Promise<{ id: number }>
  const shopping = await forClient(erna.id, 'Shopping for Erna on Tuesday', { desired_completion_date: '2031-05-06T08:00:00Z' })
  await forClient(hans.id, 'Lift to the eye clinic', { request_type_id: 2, desired_completion_date: '2031-05-08T12:30:00Z' })
  await forClient(erna.id, 'Post office errand', {})
  await approve(request, shopping.id)
  const jonas = await registerPerson(request, 'Jonas', 'Berg')
  await acceptOffer(request, jonas, clara, shopping.id)

  for (const size of SIZES) {
    const context = await browser.newContext({ locale: 'en-GB', timezoneId: 'Europe/Berlin', viewport: { width: size.width, height: size.height } })
    const page = await context.newPage()
    const shot = async (name: string) => {
      await page.evaluate(() => document.fonts.ready)
      await page.screenshot({ path: `${OUT}/${name}-${size.name}.png`, fullPage: size.name === 'desktop' })
    }
    await page.goto('/sign-in')
    await fill(page, 'Email address', clara.email)
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: 'Hello, Clara' })).toBeVisible()
    await page.goto(`/clients?q=${encodeURIComponent('0049 30 1234567')}`)
    await expect(page.getByRole('heading', { level: 3, name: 'Erna Schmidt' })).toBeVisible()
    await shot('coordinator-find')
    // The client's record, with "Change details" (the client-record flow).
    await page.goto(`/clients/${erna.id}`)
    await expect(page.getByRole('heading', { level: 1, name: 'Erna Schmidt' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Change details' })).toBeVisible()
    await shot('client-record')
    await page.goto('/clients/requests')
    await expect(page.getByText('Tell Erna: Jonas will come')).toBeVisible()
    await shot('coordinator-requests')
    await page.goto(`/requests/${shopping.id}`)
    const history = page.getByRole('heading', { level: 2, name: 'What has happened' })
    await expect(history).toBeVisible()
    await history.scrollIntoViewIfNeeded()
    await shot('request-history')
    await context.close()
  }
})

test('screenshots of the carers\' page and the reports (docs/api/on-behalf.md § 5)', async ({ browser, request }) => {
  const rosa = await registerPerson(request, 'Rosa', 'Requester')
  const carl = await registerPerson(request, 'Carl', 'Requester')
  const clara = await registerPerson(request, 'Clara', 'Neighbour')
  // Rosa's son Carl accepted; her neighbour has not answered yet.
  const { id: invitation } = await postAs(request, '/users/me/trusted-people', rosa, { email: carl.email, can: ['follow', 'create', 'cancel'] }) as { id: number }
  await postAs(request, `/users/me/acting-for/${invitation}/accept`, carl)
  await postAs(request, '/users/me/trusted-people', rosa, { email: clara.email, can: ['follow', 'create'] })
  // A manager's reports over this month's requests: some done, some still open.
  const manager = await registerPerson(request, 'Mia', 'Manager')
  await postAs(request, `/admin/users/${manager.id}/roles/5`, { token: await admin(request) })
  const vera = await registerPerson(request, 'Vera', 'Volunteer')
  const ids: number[] = []
  for (const [index, title] of ['Shopping on Monday', 'Lift to the doctor', 'Carry the shopping upstairs', 'Change a light bulb'].entries()) {
    const id = await createRequest(request, rosa, { ...IN_BERLIN, title })
    ids.push(id)
    await approve(request, id)
    if (index < 2) {
      await acceptOffer(request, vera, rosa, id)
      await postAs(request, `/requests/${id}/complete`, rosa, { rating: 5 })
    }
  }
  // Vera offers to carry Rosa's shopping: Carl, her carer, sees the offer on her request (the carers-act flow).
  await offer(request, ids[2]!, vera, 'I can come on Saturday morning.')
  for (const size of SIZES) {
    for (const [who, address, path, heading, name] of [[rosa.email, 'Rosa', '/people-who-help-me', 'People who help me', 'carers'], [manager.email, 'Mia', '/reports', 'Reports', 'reports'], [carl.email, 'Carl', `/requests/${ids[2]!}`, 'Carry the shopping upstairs', 'carers-act']] as const) {
      const context = await browser.newContext({ locale: 'en-GB', viewport: { width: size.width, height: size.height } })
      const page = await context.newPage()
      await page.goto('/sign-in')
      await fill(page, 'Email address', who)
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
      await page.getByRole('button', { name: 'Sign in' }).press('Enter')
      await expect(page.getByRole('heading', { level: 1, name: `Hello, ${address}` })).toBeVisible()
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
      await expect(page.getByText('Loading…')).toHaveCount(0)
      if (name === 'carers-act') await expect(page.locator('.caption')).toHaveText('Rosa Requester’s request')
      // On a phone the reports' shot is of the window at the chart, not the form above it.
      if (size.name === 'phone' && name === 'reports') await page.getByRole('heading', { level: 2, name: /^Figures from/ }).evaluate((element) => { element.scrollIntoView() })
      await page.evaluate(() => document.fonts.ready)
      await page.screenshot({ path: `${OUT}/${name}-${size.name}.png`, fullPage: size.name === 'desktop' })
      await context.close()
    }
  }
})
