import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { parse } from 'csv-parse/sync'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { engines } from '../helpers/engines.js'
import { requestInput } from '../helpers/requests.js'

/**
 * docs/api/visit-checks.md › Hours and mileage through HTTP, with VISIT_CHECKS off (expenses are not gated by it): the
 * assigned volunteer's record after completion, its refusals and its 30 days by the clock; the reports' recorded
 * hours and kilometres per period; and GET /reports/volunteers.csv parsed back by csv-parse, with its refusals.
 */

const DAY_MS = 24 * 60 * 60 * 1000

for (const engine of engines()) {
  describe(`visit expenses and the volunteers CSV (${engine})`, () => {
    const clock = new ManualClock()
    let t: TestApp
    let moderator: Account
    before(async () => {
      t = await startApp(engine, {}, { alertTickMs: 0, clock })
      moderator = await t.registerWithRole('moderator')
    })
    after(() => t.close())

    async function token (account: Account): Promise<string> {
      const login = await t.post('/auth/login', { email: account.email, password: account.password })
      assertStatus(login, 200)
      return login.body.access_token
    }

    /** An in_progress request with `volunteer` assigned; completed unless `complete` is false. */
    async function visit (volunteer: Account, complete = true): Promise<{ id: number, requester: Account }> {
      const requester = await t.register()
      const created = await t.post('/requests', requestInput(), await token(requester))
      assertStatus(created, 201)
      const id = created.body.id as number
      assertStatus(await t.post(`/moderation/requests/${id}/approve`, {}, await token(moderator)), 200)
      const offer = await t.post(`/requests/${id}/responses`, {}, await token(volunteer))
      assertStatus(offer, 201)
      assertStatus(await t.post(`/requests/${id}/responses/${offer.body.id}/accept`, undefined, await token(requester)), 200)
      if (complete) assertStatus(await t.post(`/requests/${id}/complete`, { rating: 5 }, await token(requester)), 200)
      return { id, requester }
    }

    const record = async (id: number, account: Account, body: unknown) => await t.post(`/requests/${id}/visit/expenses`, body, await token(account))

    it('records and replaces the assigned volunteer\'s minutes and kilometres after completion, refusing everything else', async () => {
      clock.set(new Date())
      const volunteer = await t.register()
      const open = await visit(volunteer, false)
      assertError(await record(open.id, volunteer, { minutes: 30 }), 400, 'request is not completed')
      const { id, requester } = await visit(volunteer)
      for (const account of [requester, await t.register(), moderator, t.admin]) assertError(await record(id, account, { minutes: 30 }), 403, 'only the assigned volunteer can do this')
      for (const minutes of [-1, 1441, 1.5, '10', null, true]) assertError(await record(id, volunteer, { minutes }), 400, 'invalid minutes')
      for (const distance of [-0.1, 1000.1, '3', null]) assertError(await record(id, volunteer, { distance_km: distance }), 400, 'invalid distance_km')
      assertError(await record(999_999_999, volunteer, { minutes: 1 }), 404, 'request not found')
      assertError(await t.post(`/requests/${id}/visit/expenses`, { minutes: 1 }), 401, 'unauthorized')
      const first = await record(id, volunteer, { minutes: 45, distance_km: 12.34 })
      assertStatus(first, 200)
      assert.deepEqual(first.body, { minutes: 45, distance_km: 12.3 })
      const edges = await record(id, volunteer, { minutes: 1440, distance_km: 1000 })
      assert.deepEqual(edges.body, { minutes: 1440, distance_km: 1000 })
      // Again replaces the whole record: a field left out is not recorded; 0.05 rounds to 0.1, decimally.
      const replaced = await record(id, volunteer, { distance_km: 0.05 })
      assert.deepEqual(replaced.body, { minutes: null, distance_km: 0.1 })
      assert.deepEqual((await record(id, volunteer, {})).body, { minutes: null, distance_km: null })
      assertError(await t.post(`/requests/${id}/visit/expenses`, undefined, await token(volunteer)), 400, 'invalid request body')
    })

    it('may be changed for 30 days after completion, by the clock', async () => {
      clock.set(new Date())
      const volunteer = await t.register()
      const { id } = await visit(volunteer)
      clock.advance(30 * DAY_MS - 60_000)
      assert.deepEqual((await record(id, volunteer, { minutes: 20 })).body, { minutes: 20, distance_km: null })
      clock.advance(2 * 60_000)
      assertError(await record(id, volunteer, { minutes: 25 }), 400, 'too late to change')
      clock.set(new Date())
    })

    it('the volunteer\'s export holds her visits with what she recorded; the requester\'s and another\'s hold none of them', async () => {
      clock.set(new Date())
      const volunteer = await t.register()
      const { id, requester } = await visit(volunteer)
      const recorded = await record(id, volunteer, { minutes: 50, distance_km: 7.25 })
      assertStatus(recorded, 200)
      const exported = await t.get('/users/me/export', await token(volunteer))
      assertStatus(exported, 200)
      assert.deepEqual(exported.body.visits, [{
        request_id: id,
        checked_in_at: null,
        checked_out_at: null,
        worried_at: null,
        not_started_at: null,
        overdue_at: null,
        escalated_at: null,
        minutes: 50,
        distance_km: 7.3,
        expenses_at: clock.now().toISOString(),
      }])
      for (const other of [requester, await t.register()]) assert.deepEqual((await t.get('/users/me/export', await token(other))).body.visits, [])
    })

    it('reports recorded hours and kilometres per period, and one CSV row per volunteer with the mileage amount', async () => {
      clock.set(new Date())
      const today = new Date().toISOString().slice(0, 10)
      const [driver, walker, formula, elsewhere] = [await t.register({ first_name: 'Dora', last_name: 'Driver' }), await t.register(), await t.register({ first_name: '=SUM(A1)', last_name: 'Smith, Jr.' }), await t.register()]
      const a = await visit(driver)
      const b = await visit(driver)
      await visit(walker)
      const c = await visit(formula)
      const old = await visit(elsewhere)
      assertStatus(await record(a.id, driver, { minutes: 45, distance_km: 12.3 }), 200)
      assertStatus(await record(b.id, driver, { minutes: 30, distance_km: 0.1 }), 200)
      assertStatus(await record(c.id, formula, { minutes: 5, distance_km: 0.5 }), 200)
      assertStatus(await record(old.id, elsewhere, { minutes: 60, distance_km: 50 }), 200)
      // direct write: one completion moved into another year, out of the range.
      await t.db.query('UPDATE requests SET finished_at = $2 WHERE id = $1', [old.id, new Date('2025-01-15T12:00:00Z')])

      const res = await t.get(`/reports/volunteers.csv?from=${today}&to=${today}`, await token(t.admin))
      assertStatus(res, 200)
      assert.match(String(res.headers['content-type']), /^text\/csv; charset=utf-8/)
      assert.equal(res.headers['content-disposition'], `attachment; filename="volunteers-${today}-${today}.csv"`)
      assert.ok(res.text.endsWith('\r\n') && res.text.split('\r\n').length > 2, 'CRLF lines')
      const rows = parse(res.text, { columns: true, record_delimiter: '\r\n' }) as Array<Record<string, string>>
      const byId = new Map(rows.map((row) => [Number(row.volunteer_id), row]))
      assert.deepEqual(Object.keys(rows[0]!), ['volunteer_id', 'name', 'visits', 'minutes', 'distance_km', 'amount'])
      assert.deepEqual(byId.get(driver.id), { volunteer_id: String(driver.id), name: 'Dora Driver', visits: '2', minutes: '75', distance_km: '12.4', amount: '3.72' })
      assert.deepEqual(byId.get(walker.id), { volunteer_id: String(walker.id), name: 'Test User', visits: '1', minutes: '0', distance_km: '0.0', amount: '0.00' })
      // 0.5 km × 0.30 = 0.15; the name kept from a spreadsheet's formula and quoted for its comma.
      assert.deepEqual(byId.get(formula.id), { volunteer_id: String(formula.id), name: '\'=SUM(A1) Smith, Jr.', visits: '1', minutes: '5', distance_km: '0.5', amount: '0.15' })
      assert.equal(byId.has(elsewhere.id), false, 'completed outside the range')
      assert.deepEqual(rows.map((row) => Number(row.volunteer_id)), [...byId.keys()].sort((x, y) => x - y), 'by volunteer id')

      // The summary's period: the same minutes (in hours) and kilometres as the CSV.
      const summary = await t.get(`/reports/summary?from=${today}&to=${today}`, await token(t.admin))
      assertStatus(summary, 200)
      const minutes = rows.reduce((sum, row) => sum + Number(row.minutes), 0)
      const tenths = rows.reduce((sum, row) => sum + Math.round(Number(row.distance_km) * 10), 0)
      assert.equal(summary.body.periods[0].hours_of_help_recorded, Math.round(minutes / 60 * 100) / 100)
      assert.equal(summary.body.periods[0].distance_km, tenths / 10)
      const past = await t.get('/reports/summary?from=2025-01-01&to=2025-01-31', await token(t.admin))
      assert.deepEqual([past.body.periods[0].hours_of_help_recorded, past.body.periods[0].distance_km], [1, 50])
    })

    it('refuses the volunteers CSV as the requests CSV is refused', async () => {
      clock.set(new Date())
      assertError(await t.get('/reports/volunteers.csv', await token(await t.register())), 403, 'view_reports permission required')
      assertError(await t.get('/reports/volunteers.csv', await token(moderator)), 403, 'view_reports permission required')
      assertError(await t.get('/reports/volunteers.csv'), 401, 'unauthorized')
      const admin = await token(t.admin)
      assertError(await t.get('/reports/volunteers.csv?from=2025-13-01', admin), 400, 'invalid from')
      assertError(await t.get('/reports/volunteers.csv?to=yesterday', admin), 400, 'invalid to')
      assertError(await t.get('/reports/volunteers.csv?from=2025-02-01&to=2025-01-01', admin), 400, 'invalid from')
      assertError(await t.get('/reports/volunteers.csv?from=2020-01-01&to=2025-01-01', admin), 400, 'range is too long')
      const empty = await t.get('/reports/volunteers.csv?from=2000-01-01&to=2000-01-31', admin)
      assertStatus(empty, 200)
      assert.equal(empty.text, 'volunteer_id,name,visits,minutes,distance_km,amount\r\n')
    })
  })
}
