import { expect, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test'
import { E2E_ADMIN } from './accounts.js'
import { fill, uniqueEmail } from './fixtures.js'

/**
 * Set-up for the volunteer, moderation and admin journeys through the public API (what the browser
 * tests then do is by keyboard in the page): accounts, roles, requests in a given state.
 */
export const PASSWORD = 'correct horse battery'

export interface Person { id: number, email: string, first: string, last: string, token: string }

async function call (api: APIRequestContext, method: 'GET' | 'POST', path: string, token: string | undefined, data?: unknown) {
  const response = await api.fetch(`/api/v1${path}`, {
    method,
    headers: token !== undefined ? { authorization: `Bearer ${token}` } : {},
    ...(data !== undefined ? { data } : {}),
  })
  expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBe(true)
  return await response.json()
}

export async function registerPerson (api: APIRequestContext, first: string, last = 'Tester', extra: Record<string, unknown> = {}): Promise<Person> {
  const email = uniqueEmail(first.toLowerCase())
  const body = await call(api, 'POST', '/auth/register', undefined, { email, password: PASSWORD, first_name: first, last_name: last, ...extra })
  return { id: body.user.id, email, first, last, token: body.access_token }
}

/** The admin's token for each API context (a test may speak to the second service of server.ts, with its own keys). */
const adminTokens = new WeakMap<APIRequestContext, string>()
export async function admin (api: APIRequestContext): Promise<string> {
  let token = adminTokens.get(api)
  if (token === undefined) {
    token = (await call(api, 'POST', '/auth/login', undefined, E2E_ADMIN)).access_token as string
    adminTokens.set(api, token)
  }
  return token
}

/** A POST or GET as `person` through the API; fails the test unless it succeeds. */
export async function postAs (api: APIRequestContext, path: string, person: { token: string }, data?: unknown): Promise<unknown> {
  return await call(api, 'POST', path, person.token, data)
}
export async function getAs (api: APIRequestContext, path: string, person: { token: string }): Promise<unknown> {
  return await call(api, 'GET', path, person.token)
}

export async function giveRole (api: APIRequestContext, person: Person, roleId: 2 | 3): Promise<void> {
  await call(api, 'POST', `/admin/users/${person.id}/roles/${roleId}`, await admin(api))
}

/** A spot of the test's own, so that a nearby search around it finds only the test's requests. */
export function uniquePoint (): { latitude: number, longitude: number } {
  return { latitude: Number((-60 + Math.random() * 120).toFixed(4)), longitude: Number((-170 + Math.random() * 340).toFixed(4)) }
}

/** Moves a point about `meters` north. */
export const north = (point: { latitude: number, longitude: number }, meters: number) => ({ latitude: point.latitude + meters / 111_195, longitude: point.longitude })

export async function createRequest (api: APIRequestContext, requester: { token: string }, fields: Record<string, unknown>): Promise<number> {
  const body = await call(api, 'POST', '/requests', requester.token, {
    request_type_id: 1,
    title: 'Groceries for the week',
    description: 'Milk, bread and vegetables from the shop on the corner',
    address: '1 Main Street',
    city: 'Springfield',
    urgency: 'medium',
    ...fields,
  })
  return body.id as number
}

/**
 * A request's words and place in Berlin, where the screenshots' nearby searches look. `city: undefined` leaves the
 * default town out of the JSON, so the address stands alone.
 */
export const IN_BERLIN = { description: 'Milk, bread and apples from the shop', latitude: 52.52, longitude: 13.405, address: 'Unter den Linden 1', city: undefined }

export async function approve (api: APIRequestContext, requestId: number): Promise<void> {
  await call(api, 'POST', `/moderation/requests/${requestId}/approve`, await admin(api), {})
}

export async function offer (api: APIRequestContext, requestId: number, volunteer: Person, message = 'I can help'): Promise<number> {
  return (await call(api, 'POST', `/requests/${requestId}/responses`, volunteer.token, { message })).id as number
}

export async function accept (api: APIRequestContext, requestId: number, responseId: number, requester: Person): Promise<void> {
  await call(api, 'POST', `/requests/${requestId}/responses/${responseId}/accept`, requester.token)
}

/** YYYY-MM-DD `days` from now in `zone`. */
export function dayAhead (days: number, zone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(Date.now() + days * 86_400_000))
}

/**
 * A series of Rita's (Mondays, Wednesdays and Fridays 09:00 to 10:00 in `zone`, from tomorrow) approved by the admin as a
 * moderator, with its occurrences made at approval; the first is returned too.
 */
export async function activeSeries (api: APIRequestContext, rita: Person, title: string, zone: string): Promise<{ id: number, first: number }> {
  const series = await postAs(api, '/request-series', rita, {
    template: { request_type_id: 1, title, description: 'A lift to the clinic and back home', address: '1 Main Street', city: 'Springfield', urgency: 'medium', ...uniquePoint() },
    days: ['mon', 'wed', 'fri'],
    start_time: '09:00',
    duration_minutes: 60,
    starts_on: dayAhead(1, zone),
    time_zone: zone,
  }) as { id: number }
  await postAs(api, `/moderation/series/${series.id}/approve`, { token: await admin(api) }, {})
  const mine = await getAs(api, '/requests/my?limit=100', rita) as Array<{ id: number, series_id: number | null, window_start: string }>
  const dates = mine.filter((item) => item.series_id === series.id).sort((a, b) => Date.parse(a.window_start) - Date.parse(b.window_start))
  expect(dates.length, 'occurrences made at approval').toBeGreaterThan(2)
  return { id: series.id, first: dates[0]!.id }
}

/** Signs in through the page, by keyboard, and waits for the start page. */
export async function signIn (page: Page, person: { email: string }, password = PASSWORD): Promise<void> {
  await page.goto('/sign-in')
  await page.getByRole('textbox', { name: 'Email address' }).fill(person.email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign in' }).press('Enter')
  // Focused, not only shown: the app moves focus to the new page's h1 a frame after it appears, and a key
  // pressed on a link in between would land on the heading instead (a keyboard user starts from there too).
  await expect(page.getByRole('heading', { level: 1, name: /^Hello, / })).toBeFocused()
}

/**
 * A link of the main navigation; on a narrow screen the links are folded behind "Menu" (docs/web.md › Accessibility patterns),
 * which is pressed first, as a person would.
 */
export async function navLink (page: Page, name: string | RegExp, words = { nav: 'Main', menu: 'Menu' }): Promise<Locator> {
  const menu = page.getByRole('button', { name: words.menu, exact: true })
  if (await menu.isVisible() && await menu.getAttribute('aria-expanded') !== 'true') await menu.press('Enter')
  return page.getByRole('navigation', { name: words.nav }).getByRole('link', { name, exact: true })
}

/** The main navigation's link, reached and followed by the keyboard. */
export async function followNav (page: Page, name: string, heading: string | RegExp): Promise<void> {
  await (await navLink(page, name)).press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeFocused()
}

/** Presses Continue (or another button) and waits until the next question's h1 has focus. */
export async function continueTo (page: Page, heading: string | RegExp, button = 'Continue'): Promise<void> {
  await page.getByRole('button', { name: button, exact: true }).press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeFocused()
}

/** Chooses a radio button by the keyboard: focus on it, then Space. */
export async function choose (page: Page, name: string | RegExp): Promise<void> {
  const radio = page.getByRole('radio', { name })
  await radio.focus()
  await page.keyboard.press('Space')
  await expect(radio).toBeChecked()
}

export interface AskAnswers {
  kind: string
  title: string
  description: string
  /** Typed behind "Enter coordinates"; without it, "At my home". */
  point?: { latitude: string, longitude: string }
  address: string
  city?: string
  /** "At a set time" or "By a certain day", with the date's day, month and year and the times as typed; left out, "Any time is fine". */
  when?: { at: { date: readonly [string, string, string], from: string, until?: string } } | { by: { date: readonly [string, string, string], time?: string } }
  urgency: string
  phone?: string
}

/** The date fields of GOV.UK's date input, by the keyboard. */
export async function fillDate (page: Page, [day, month, year]: readonly [string, string, string]): Promise<void> {
  await fill(page, 'Day', day)
  await fill(page, 'Month', month)
  await fill(page, 'Year', year)
}

/** "When do you need it?" answered in English (the page is open), and the page that asks the time when there is one. */
async function answerWhen (page: Page, when: AskAnswers['when']): Promise<void> {
  if (when === undefined) return await choose(page, 'Any time is fine')
  if ('at' in when) {
    await choose(page, 'At a set time')
    await continueTo(page, 'When is it?')
    await fillDate(page, when.at.date)
    await fill(page, 'From what time', when.at.from)
    await fill(page, 'Until what time (optional)', when.at.until ?? '')
  } else {
    await choose(page, 'By a certain day')
    await continueTo(page, 'By when?')
    await fillDate(page, when.by.date)
    await fill(page, 'By what time (optional)', when.by.time ?? '')
  }
}

/**
 * "Ask for help" in English, one question a page, by the keyboard, up to and including Send; ends on
 * the new request's page. The pages themselves are tested in ask.spec.ts.
 */
export async function askForHelp (page: Page, answers: AskAnswers): Promise<void> {
  await followNav(page, 'Ask for help', 'What kind of help do you need?')
  await choose(page, answers.kind)
  await continueTo(page, 'Short title')
  await fill(page, 'Short title', answers.title)
  await continueTo(page, 'What do you need help with?')
  await fill(page, 'What do you need help with?', answers.description)
  await continueTo(page, 'Where do you need help?')
  if (answers.point !== undefined) {
    await choose(page, /^Enter coordinates/)
    await continueTo(page, 'Enter the coordinates')
    await fill(page, 'Latitude', answers.point.latitude)
    await fill(page, 'Longitude', answers.point.longitude)
  } else {
    await choose(page, /^At my home/)
  }
  await continueTo(page, 'What is the address?')
  await fill(page, 'Address', answers.address)
  await fill(page, 'Town or city (optional)', answers.city ?? '')
  await continueTo(page, 'How often do you need this help?')
  await choose(page, 'Once')
  await continueTo(page, 'When do you need it?')
  await answerWhen(page, answers.when)
  await continueTo(page, 'How urgent is it?')
  await choose(page, answers.urgency)
  await continueTo(page, 'How can the volunteer reach you?')
  if (answers.phone !== undefined) await fill(page, 'Contact phone (optional)', answers.phone)
  await continueTo(page, 'Check your answers before sending your request')
  await continueTo(page, answers.title, 'Send request')
}

/** A request of Rita's with Vera's offer accepted: in progress, the two sharing it. */
export async function inProgress (api: APIRequestContext, title: string, fields: Record<string, unknown> = {}, veraFields: Record<string, unknown> = {}) {
  const point = uniquePoint()
  const rita = await registerPerson(api, 'Rita', 'Asker')
  const vera = await registerPerson(api, 'Vera', 'Helper', { ...point, ...veraFields })
  const id = await createRequest(api, rita, { ...point, title, ...fields })
  await approve(api, id)
  await accept(api, id, await offer(api, id, vera), rita)
  return { rita, vera, id }
}

/** A new page in German (at `width` px when given), signed in by keyboard as `person`. */
export async function germanPage (browser: Browser, person: { email: string }, password = PASSWORD, width?: number): Promise<Page> {
  const context = await browser.newContext({ locale: 'de-DE', ...(width !== undefined ? { viewport: { width, height: 800 } } : {}) })
  const page = await context.newPage()
  await page.goto('/sign-in')
  await page.getByRole('textbox', { name: 'E-Mail-Adresse' }).fill(person.email)
  await page.getByLabel('Passwort', { exact: true }).fill(password)
  await page.getByLabel('Passwort', { exact: true }).press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: /^Hallo, / })).toBeFocused()
  return page
}
