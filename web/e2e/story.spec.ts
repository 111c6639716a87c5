import type { Browser, Page } from '@playwright/test'
import { expect, expectAnnounced, fill, PASSWORD, register, test, uniqueEmail } from './fixtures.js'
import { askForHelp, giveRole, registerPerson } from './journeys.js'

async function person (browser: Browser): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-GB' })
  return await context.newPage()
}

async function signIn (page: Page, email: string): Promise<void> {
  await page.goto('/sign-in')
  await fill(page, 'Email address', email)
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).press('Enter')
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused()
}

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name })

/** A point no other test uses, so the nearby search finds exactly this story's request. */
const POINT = { lat: '47.0502', lon: '8.3093' }

test('the whole story in the browser: ask, approve, find nearby and offer, accept, complete and rate', async ({ browser, request, page }) => {
  test.setTimeout(120_000)
  const title = `Prescription pick-up ${Date.now().toString(36)}`

  // Rita asks for help.
  const rita = page
  await register(rita, uniqueEmail('rita'), 'Rita')
  await askForHelp(rita, {
    kind: 'Shopping',
    title,
    description: 'Please collect my prescription from the pharmacy',
    point: { latitude: POINT.lat, longitude: POINT.lon },
    address: 'Kapellplatz 1',
    city: 'Luzern',
    when: { by: { date: ['2', '5', '2031'], time: '10.30' } },
    urgency: 'Medium: in the next days',
  })
  await expect(rita.getByRole('heading', { level: 1, name: title })).toBeFocused()
  await expect(rita.getByText('Status: Waiting for a moderator')).toBeVisible()

  // Mo, a moderator, approves it from the queue.
  const mo = await registerPerson(request, 'Mo', 'Moderator')
  await giveRole(request, mo, 2)
  const moPage = await person(browser)
  await signIn(moPage, mo.email)
  await nav(moPage, 'Moderation').press('Enter')
  await expect(moPage.getByRole('heading', { level: 1, name: 'Requests waiting for a decision' })).toBeFocused()
  await expect(moPage.getByRole('heading', { level: 3, name: title })).toBeVisible()
  await moPage.getByRole('button', { name: `Approve: ${title}` }).press('Enter')
  await expectAnnounced(moPage, `Approved: ${title}.`)
  await expect(moPage.getByRole('heading', { level: 3, name: title })).toBeHidden()
  await moPage.getByRole('navigation', { name: 'Moderation pages' }).getByRole('link', { name: 'Decided by me' }).press('Enter')
  await expect(moPage.getByRole('article', { name: title })).toContainText('Open for offers')

  // Vic, a volunteer, finds it nearby and offers help.
  const vic = await person(browser)
  await register(vic, uniqueEmail('vic'), 'Vic')
  await nav(vic, 'Find help nearby').press('Enter')
  await expect(vic.getByRole('heading', { level: 1, name: 'Find people to help nearby' })).toBeFocused()
  await vic.getByRole('radio', { name: 'Within 5 km' }).focus()
  await vic.keyboard.press('ArrowLeft')
  await vic.keyboard.press('ArrowLeft')
  await expect(vic.getByRole('radio', { name: 'Within 1 km' })).toBeChecked()
  await fill(vic, 'Latitude', '47.0510')
  await fill(vic, 'Longitude', '8.3100')
  const search = vic.getByRole('button', { name: 'Search', exact: true })
  await search.press('Enter')
  await expectAnnounced(vic, '1 request within 1 km')
  await expect(search).toBeFocused()
  const found = vic.getByRole('article', { name: title })
  await expect(found).toContainText('100 m away')
  await expect(found).toContainText('Open for offers')
  await found.getByRole('link', { name: `Offer help: ${title}` }).press('Enter')
  await expect(vic.getByRole('heading', { level: 1, name: title })).toBeFocused()
  await expect(vic.getByText('2 May 2031 at 10:30')).toBeVisible()
  await fill(vic, 'Message to Rita (optional)', 'I can go on my way home, around 6 pm.')
  await vic.getByRole('button', { name: 'Offer help' }).press('Enter')
  await expectAnnounced(vic, 'Your offer is sent.')
  const vicOffer = vic.getByRole('region', { name: 'Your offer' })
  await expect(vicOffer).toContainText('Waiting for an answer')

  // Rita accepts, and when it is done, completes it with a rating.
  await rita.reload()
  await expect(rita.getByText('I can go on my way home, around 6 pm.')).toBeVisible()
  await rita.getByRole('button', { name: 'Accept offer from Vic Lovelace' }).press('Enter')
  await expect(rita.getByText('Status: In progress')).toBeVisible()
  // One question a page: was it done, then the rating.
  await rita.getByRole('link', { name: 'Mark as done' }).press('Enter')
  await expect(rita.getByRole('heading', { level: 1, name: 'Was the help done?' })).toBeFocused()
  await rita.getByRole('radio', { name: 'Yes, the help is done' }).focus()
  await rita.keyboard.press('Space')
  await rita.getByRole('button', { name: 'Continue' }).press('Enter')
  await expect(rita.getByRole('heading', { level: 1, name: 'How was the help from Vic?' })).toBeFocused()
  await rita.getByRole('radio', { name: '4 stars' }).focus()
  await rita.keyboard.press('Space')
  await rita.getByRole('button', { name: 'Mark as done' }).press('Enter')
  await expect(rita.getByText('Status: Done')).toBeVisible()

  await vic.reload()
  await expect(vicOffer).toContainText('Accepted')
  await expect(vic.getByText('Completed')).toBeVisible()
  // And in "my offers", where the volunteer keeps track.
  await nav(vic, 'My offers').press('Enter')
  await expect(vic.getByRole('article', { name: title })).toContainText('Accepted')
  await expect(vic.getByRole('article', { name: title })).toContainText('Completed')
  await moPage.context().close()
  await vic.context().close()
})
