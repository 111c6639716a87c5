import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import ICAL from 'ical.js'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { engines } from '../helpers/engines.js'
import { requestInput } from '../helpers/requests.js'

/**
 * docs/api/schedule.md › Calendar feed through HTTP, the feed parsed by ical.js: own and assigned requests in the window of
 * 30 days back to the horizon, times in UTC, cancelled ones, CRLF, the address only in the assigned
 * volunteer's feed (ADDRESS_PRIVACY=parties: with an access record); a new address each time, DELETE,
 * unknown tokens, no token in the logs; and the web app's coming help, with needs_confirmation as the clock moves.
 */

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS
const PUBLIC_URL = 'https://help.example.org'
const ADDRESS = 'Lindenstraße 12'

interface Event { uid: string, summary: string, start: string, end: string, status: string, url: string, location: string | null, description: string }

/** The feed as a calendar program reads it, and its raw text. */
function parseFeed (text: string): Event[] {
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[])
  return calendar.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent)
    return {
      uid: event.uid,
      summary: event.summary,
      // toString() of a UTC time ends in Z: the feed writes UTC.
      start: event.startDate.toString(),
      end: event.endDate.toString(),
      status: String(vevent.getFirstPropertyValue('status')),
      url: String(vevent.getFirstPropertyValue('url')),
      location: event.location,
      description: event.description,
    }
  })
}

const iso = (ms: number): string => new Date(ms).toISOString()
/** ical.js writes a UTC date-time as 2026-12-01T07:30:00Z. */
const utc = (date: string): string => date.replace(/\.\d{3}Z$/, 'Z')

for (const engine of engines()) {
  describe(`calendar feed and coming help (${engine})`, () => {
    const clock = new ManualClock()
    const lines: string[] = []
    let t: TestApp
    let requester: Account
    let volunteer: Account
    /** A: in progress with `volunteer`, in 2 days; B: awaiting moderation, in 3 days; C: cancelled, in 1 day; far: 40 days on. */
    const ids = { A: 0, B: 0, C: 0, far: 0, none: 0 }
    const starts = { A: 0, B: 0, C: 0 }

    /** Tokens live 15 minutes of the moved clock: each call signs in again at its time. */
    async function token (account: Account): Promise<string> {
      const login = await t.post('/auth/login', { email: account.email, password: account.password })
      assertStatus(login, 200)
      return login.body.access_token
    }

    async function create (hoursAhead: number | undefined, title: string, approve: boolean): Promise<number> {
      const start = clock.now().getTime() + (hoursAhead ?? 0) * HOUR_MS
      const window = hoursAhead === undefined ? {} : { window_start: iso(start), window_end: iso(start + HOUR_MS) }
      const created = await t.post('/requests', requestInput({ title, address: ADDRESS, ...window }), await token(requester))
      assertStatus(created, 201)
      if (approve) assertStatus(await t.post(`/moderation/requests/${created.body.id}/approve`, {}, await token(t.admin)), 200)
      return created.body.id
    }

    /** The feed's path under /api/v1 from its address. */
    const pathOf = (url: string): string => url.slice(`${PUBLIC_URL}/api/v1`.length)
    async function feedUrl (account: Account): Promise<string> {
      const res = await t.post('/users/me/calendar', undefined, await token(account))
      assertStatus(res, 201)
      return res.body.url
    }

    before(async () => {
      t = await startApp(engine, { addressPrivacy: 'parties', publicUrl: PUBLIC_URL, logLevel: 'info' },
        { alertTickMs: 0, clock, logStream: { write: (line: string) => { lines.push(line) } } })
      requester = await t.register({ first_name: 'Erna', last_name: 'Schmidt' })
      volunteer = await t.register()
      const now = clock.now().getTime()
      starts.A = now + 48 * HOUR_MS
      starts.B = now + 72 * HOUR_MS
      starts.C = now + 24 * HOUR_MS
      ids.A = await create(48, 'Lift to dialysis', true)
      ids.B = await create(72, 'Weekly shop', false)
      ids.C = await create(24, 'Cancelled lift', true)
      ids.far = await create(40 * 24, 'Beyond the horizon', true)
      ids.none = await create(undefined, 'No window', true)
      const offer = await t.post(`/requests/${ids.A}/responses`, {}, await token(volunteer))
      assertStatus(offer, 201)
      assertStatus(await t.post(`/requests/${ids.A}/responses/${offer.body.id}/accept`, undefined, await token(requester)), 200)
      assertStatus(await t.post(`/requests/${ids.C}/cancel`, undefined, await token(requester)), 200)
    })
    after(() => t.close())

    it('shows own and assigned requests in UTC with status and link, the address only to the assigned volunteer, lines ending in CRLF', async () => {
      const own = await t.get(pathOf(await feedUrl(requester)))
      assertStatus(own, 200)
      assert.equal(own.headers['content-type'], 'text/calendar; charset=utf-8')
      assert.equal(own.headers['cache-control'], 'private, no-store')
      assert.ok(own.text.endsWith('\r\n') && !/[^\r]\n/.test(own.text), 'every line ends in CRLF')
      const mine = parseFeed(own.text)
      assert.deepEqual(mine.map((e) => [e.summary, e.status, e.url]), [
        ['Cancelled lift', 'CANCELLED', `${PUBLIC_URL}/requests/${ids.C}`],
        ['Lift to dialysis', 'TENTATIVE', `${PUBLIC_URL}/requests/${ids.A}`],
        ['Weekly shop', 'TENTATIVE', `${PUBLIC_URL}/requests/${ids.B}`],
      ], 'soonest first; none without a window or beyond SERIES_HORIZON_DAYS')
      const a = mine[1]!
      assert.deepEqual([a.uid, a.start, a.end], [`request-${ids.A}@help.example.org`, utc(iso(starts.A)), utc(iso(starts.A + HOUR_MS))])
      assert.ok(a.description.includes(`${PUBLIC_URL}/requests/${ids.A}`))
      assert.ok(mine.every((e) => e.location === null) && !own.text.includes('Lindenstra'), 'the requester\'s own feed leaves out her home')

      const theirs = parseFeed((await t.get(pathOf(await feedUrl(volunteer)))).text)
      assert.deepEqual(theirs.map((e) => [e.uid, e.status, e.url, e.location]),
        [[a.uid, 'TENTATIVE', `${PUBLIC_URL}/find-help/${ids.A}`, `${ADDRESS}, Berlin`]], 'the assigned volunteer\'s feed: the request, with its address; not yet confirmed')
      // docs/privacy.md › Access records: under ADDRESS_PRIVACY=parties the address shown to the volunteer is recorded; the requester's own feed records nothing.
      const log = await t.get(`/requests/${ids.A}/access-log`, await token(requester))
      assertStatus(log, 200)
      assert.deepEqual(log.body.map((r: any) => [r.viewer_id, r.viewer_role, r.fields]), [[volunteer.id, 'assigned volunteer', ['address']]])

      // 30 days after the window the request leaves the feed.
      const url = await feedUrl(volunteer)
      clock.advance(2 * DAY_MS + 31 * DAY_MS)
      try {
        assert.deepEqual(parseFeed((await t.get(pathOf(url))).text), [])
      } finally {
        clock.advance(-(2 * DAY_MS + 31 * DAY_MS))
      }
    })

    it('a new address each time: the old one, a deleted one, an erased account\'s and an unknown one are not found; no token in the logs', async () => {
      const first = await feedUrl(requester)
      const second = await feedUrl(requester)
      assert.match(first, /^https:\/\/help\.example\.org\/api\/v1\/calendar\/[A-Za-z0-9_-]{43}\.ics$/)
      assert.notEqual(first, second)
      assertError(await t.get(pathOf(first)), 404, 'not found')
      assertStatus(await t.get(pathOf(second)), 200)
      assertStatus(await t.delete('/users/me/calendar', await token(requester)), 204)
      assertError(await t.get(pathOf(second)), 404, 'not found')
      assertStatus(await t.delete('/users/me/calendar', await token(requester)), 204)
      assertError(await t.get('/calendar/not-a-token.ics'), 404, 'not found')
      assertError(await t.get(pathOf(second).replace('.ics', '')), 404, 'not found')

      // Erasure (docs/privacy.md › Erasure) deletes the feed with the account.
      const leaving = await t.register()
      const theirs = await feedUrl(leaving)
      assertStatus(await t.request('DELETE', '/users/me', { token: await token(leaving), body: { password: leaving.password } }), 200)
      assertError(await t.get(pathOf(theirs)), 404, 'not found')
      assert.deepEqual(await t.db.query('SELECT user_id FROM calendar_feeds WHERE user_id = $1', [leaving.id]), [])

      const tokens = [first, second, theirs].map((url) => url.slice(url.lastIndexOf('/') + 1, -'.ics'.length))
      const logged = lines.filter((line) => line.includes('/calendar/'))
      assert.ok(logged.some((line) => JSON.parse(line).url === '/api/v1/calendar/{token}.ics'), 'the route is logged')
      assert.ok(logged.some((line) => JSON.parse(line).url === '/api/v1/calendar/{token}'), 'a path no route matched too')
      for (const secret of tokens) assert.ok(!lines.some((line) => line.includes(secret)), 'no log line holds a token')
    })

    it('coming help: own and assigned requests with a window not yet over, soonest first; needs_confirmation from CONFIRM_BEFORE_HOURS', async () => {
      const list = async (account: Account, query = '') => {
        const res = await t.get(`/users/me/coming-help${query}`, await token(account))
        assertStatus(res, 200)
        return res.body.map((item: any) => [item.id, item.role, item.needs_confirmation])
      }
      assert.deepEqual(await list(requester), [[ids.A, 'requester', false], [ids.B, 'requester', false], [ids.far, 'requester', false]])
      assert.deepEqual(await list(requester, '?limit=1&offset=1'), [[ids.B, 'requester', false]])
      assert.deepEqual(await list(volunteer), [[ids.A, 'volunteer', false]], '48 h ahead: not yet to confirm')
      const item = (await t.get('/users/me/coming-help', await token(volunteer))).body[0]
      assert.deepEqual([item.window_start, item.status, item.address, item.confirmed_at, item.series_id], [iso(starts.A), 'in_progress', ADDRESS, null, null])
      // Who is coming, on the requester's own request in progress only (the volunteer knows she is).
      const names = async (account: Account) => (await t.get('/users/me/coming-help', await token(account))).body.map((one: any) => [one.id, one.volunteer_name])
      assert.deepEqual(await names(requester), [[ids.A, 'Test User'], [ids.B, null], [ids.far, null]])
      assert.deepEqual(await names(volunteer), [[ids.A, null]])

      clock.advance(25 * HOUR_MS)
      assert.deepEqual(await list(volunteer), [[ids.A, 'volunteer', true]], '23 h ahead: to confirm')
      assert.deepEqual((await list(requester))[0], [ids.A, 'requester', false], 'only the volunteer confirms')
      assertStatus(await t.post(`/requests/${ids.A}/confirm`, undefined, await token(volunteer)), 200)
      assert.deepEqual(await list(volunteer), [[ids.A, 'volunteer', false]], 'confirmed')

      clock.advance(24 * HOUR_MS)
      assert.deepEqual(await list(volunteer), [], 'the window is over')
      assert.deepEqual(await list(requester), [[ids.B, 'requester', false], [ids.far, 'requester', false]])
    })

    it('the volunteer\'s feed speaks to her, is confirmed only once she said she will be there, and has her accepted one-off lift', async () => {
      const now = clock.now().getTime()
      const helper = await t.register()
      const accepted = async (body: Record<string, unknown>): Promise<number> => {
        const created = await t.post('/requests', requestInput({ address: ADDRESS, ...body }), await token(requester))
        assertStatus(created, 201)
        assertStatus(await t.post(`/moderation/requests/${created.body.id}/approve`, {}, await token(t.admin)), 200)
        const offer = await t.post(`/requests/${created.body.id}/responses`, {}, await token(helper))
        assertStatus(offer, 201)
        assertStatus(await t.post(`/requests/${created.body.id}/responses/${offer.body.id}/accept`, undefined, await token(requester)), 200)
        return created.body.id
      }
      const visit = await accepted({ title: 'Visit with a window', window_start: iso(now + 50 * HOUR_MS), window_end: iso(now + 51 * HOUR_MS) })
      const lift = await accepted({ title: 'One-off lift', desired_completion_date: iso(now + 5 * DAY_MS) })
      const feed = async (account: Account) => parseFeed((await t.get(pathOf(await feedUrl(account)))).text)
        .filter((e) => [visit, lift].some((id) => e.uid === `request-${id}@help.example.org`))
        .map((e) => [e.summary, e.status, e.start, e.end, e.description.split('\n')[0]])

      assert.deepEqual(await feed(helper), [
        ['Visit with a window', 'TENTATIVE', utc(iso(now + 50 * HOUR_MS)), utc(iso(now + 51 * HOUR_MS)), 'You are helping'],
        ['One-off lift', 'TENTATIVE', utc(iso(now + 5 * DAY_MS - HOUR_MS)), utc(iso(now + 5 * DAY_MS)), 'You are helping'],
      ], 'said to her, not confirmed yet; the one-off lift in the hour up to its date')
      assert.deepEqual((await feed(requester)).map((e) => [e[0], e[1], e[4]]), [['Visit with a window', 'TENTATIVE', 'A volunteer is helping']],
        'the requester\'s own feed: requests with a window only')

      assertStatus(await t.post(`/requests/${visit}/confirm`, undefined, await token(helper)), 200)
      const [promised] = await feed(helper)
      assert.deepEqual([promised?.[1], promised?.[4]], ['CONFIRMED', 'You are helping and have said you will be there'])
      assert.deepEqual((await feed(requester)).map((e) => [e[1], e[4]]), [['CONFIRMED', 'A volunteer is helping and has said they will be there']])
    })
  })
}
