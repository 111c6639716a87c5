import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { parse } from 'csv-parse/sync'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { engines } from '../helpers/engines.js'
import { approvedRequest, REQUEST_INPUT, respond } from '../helpers/lifecycle.js'
import { expectedSummary, generate, insertSpecs, type RequestSpec } from '../helpers/reports.js'

/*
 * docs/api/on-behalf.md › Reports for funders: who may read the reports, the range's rules, the summary's figures against a data set
 * whose answers are computed apart from the service (helpers/reports.ts), and the CSV parsed back.
 */

const ZONE = 'Europe/Berlin'
/** Today is Wednesday 17 June 2026 in Berlin. */
const NOW = new Date('2026-06-17T10:00:00Z')
const NO_PERMISSION = 'view_reports permission required'
const HEADER = 'id,created_at,request_type,urgency,status,cancel_reason,city,grid_cell,minutes_to_first_offer,minutes_to_accept,completed_at,hours_of_help,rating,on_behalf'
const OPERATIONS = ['/reports/summary', '/reports/requests.csv']

for (const engine of engines()) {
  describe(`reports (${engine})`, () => {
    let t: TestApp
    let volunteer: Account
    let moderator: Account
    let coordinator: Account
    let manager: Account
    let specs: RequestSpec[]

    const withRole = async (roleId: number): Promise<Account> => {
      const account = await t.register()
      assertStatus(await t.post(`/admin/users/${account.id}/roles/${roleId}`, undefined, t.admin.token), 200)
      return account
    }

    before(async () => {
      t = await startApp(engine, { timeZone: ZONE }, { clock: new ManualClock(NOW) })
      volunteer = await t.register()
      moderator = await t.registerWithRole('moderator')
      coordinator = await withRole(4)
      manager = await withRole(5)
      const requesters = [volunteer.id, moderator.id, coordinator.id, manager.id, t.admin.id, (await t.register()).id]
      const volunteers = [volunteer.id, moderator.id, manager.id, (await t.register()).id, (await t.register()).id, (await t.register()).id]
      specs = generate(90, new Date('2026-03-25T00:00:00Z'), new Date('2026-06-16T20:00:00Z'), requesters, volunteers)
      // Either side of midnight in Berlin (UTC+2): 31 May 23:59 and 1 June 00:30.
      const edge = (at: string, i: number) => ({ ...specs[i]!, offers: [], status: 'approved' as const, cancelReason: null, finishedAt: null, rating: null, createdAt: new Date(at) })
      specs.push(edge('2026-05-31T21:59:00Z', 0), edge('2026-05-31T22:30:00Z', 1))
      await insertSpecs(t, specs)
      specs.push(await completedThroughTheApi(t, volunteer, moderator))
    })
    after(async () => await t.close())

    it('refuses callers without view_reports (coordinators too) before reading the query, and the anonymous', async () => {
      for (const path of OPERATIONS) {
        for (const caller of [volunteer, moderator, coordinator]) {
          assertError(await t.get(path, caller.token), 403, NO_PERMISSION)
          assertError(await t.get(`${path}?from=nonsense&by=day`, caller.token), 403, NO_PERMISSION)
        }
        assertError(await t.get(path), 401, 'unauthorized')
        assertStatus(await t.get(path, manager.token), 200)
        assertStatus(await t.get(path, t.admin.token), 200)
      }
    })

    it('refuses bad ranges with the texts of docs/api/on-behalf.md', async () => {
      const cases: Array<[string, string]> = [
        ['from=2026-02-30', 'invalid from'], ['from=2026-1-01', 'invalid from'], ['from=yesterday', 'invalid from'], ['from=', 'invalid from'],
        ['to=2026-13-01', 'invalid to'], ['to=17.06.2026', 'invalid to'], ['from=2026-01-01&from=2026-02-01', 'invalid from'],
        ['from=2026-06-18', 'invalid from'], ['from=2026-05-02&to=2026-05-01', 'invalid from'],
        ['from=2021-01-01&to=2026-01-01', 'range is too long'], ['from=2000-01-01', 'range is too long'],
      ]
      for (const path of OPERATIONS) {
        for (const [query, text] of cases) assertError(await t.get(`${path}?${query}`, t.admin.token), 400, text)
        assertStatus(await t.get(`${path}?from=2021-01-01&to=2025-12-31`, t.admin.token), 200)
        assertStatus(await t.get(`${path}?from=2026-06-17&to=2026-06-17`, t.admin.token), 200)
      }
      for (const by of ['day', 'MONTH', '']) assertError(await t.get(`/reports/summary?by=${by}`, t.admin.token), 400, 'invalid by')
    })

    it('counts each figure in its period by month, against figures computed apart, with small groups suppressed', async () => {
      const res = await t.get('/reports/summary?from=2026-03-01&to=2026-06-30&by=month', manager.token)
      assertStatus(res, 200)
      assert.deepEqual(res.body, expectedSummary(specs, '2026-03-01', '2026-06-30', 'month', ZONE))
      const periods: any[] = res.body.periods
      assert.deepEqual(periods.map((p) => p.start), ['2026-03-01', '2026-04-01', '2026-05-01', '2026-06-01'])
      // The data set shows each case: a group shown, one suppressed, and an empty one staying 0.
      const counts = periods.flatMap((p) => [p.people_helped, p.active_volunteers, ...Object.values(p.by_type), ...Object.values(p.by_urgency)])
      assert.ok(counts.includes(null) && counts.includes(0) && counts.some((c) => c >= 5), JSON.stringify(counts))
      for (const p of periods) {
        for (const name of p.suppressed) assert.equal(name.split('.').reduce((value: any, key: string) => value[key], p), null, name)
      }
      assert.ok(periods.some((p) => p.suppressed.length > 0))
    })

    it('counts a request in the period of its day in TIME_ZONE', async () => {
      const res = await t.get('/reports/summary?from=2026-05-31&to=2026-06-01&by=week', t.admin.token)
      assertStatus(res, 200)
      const createdOn = (date: string) => specs.filter((s) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(s.createdAt) === date).length
      assert.deepEqual(res.body.periods.map((p: any) => [p.start, p.requests_created]), [['2026-05-31', createdOn('2026-05-31')], ['2026-06-01', createdOn('2026-06-01')]])
      assert.deepEqual(res.body, expectedSummary(specs, '2026-05-31', '2026-06-01', 'week', ZONE))
    })

    it('cuts weeks at Mondays, the first starting at from', async () => {
      const res = await t.get('/reports/summary?from=2026-03-26&to=2026-06-16&by=week', t.admin.token)
      assertStatus(res, 200)
      assert.deepEqual(res.body, expectedSummary(specs, '2026-03-26', '2026-06-16', 'week', ZONE))
      const starts: string[] = res.body.periods.map((p: any) => p.start)
      assert.equal(starts[0], '2026-03-26')
      assert.equal(starts[1], '2026-03-30')
      for (const start of starts.slice(1)) assert.equal(new Date(`${start}T12:00:00Z`).getUTCDay(), 1, start)
      assert.equal(starts.length, 13)
    })

    it('covers twelve months up to today by default, and twelve months up to `to` when only `to` is given', async () => {
      const res = await t.get('/reports/summary', t.admin.token)
      assertStatus(res, 200)
      assert.deepEqual(res.body, expectedSummary(specs, '2025-07-01', '2026-06-17', 'month', ZONE))
      assert.equal(res.body.periods.length, 12)
      assert.equal(res.body.periods[0].requests_created, 0)
      const until = await t.get('/reports/summary?to=2026-04-10', t.admin.token)
      assert.deepEqual(until.body.periods.map((p: any) => p.start).slice(0, 2), ['2025-05-01', '2025-06-01'])
      assert.equal(until.body.periods.length, 12)
    })

    it('streams the CSV: header, CRLF, one row per request created in the range, no contact data, formulas escaped', async () => {
      const res = await t.get('/reports/requests.csv?from=2026-04-01&to=2026-05-31', manager.token)
      assertStatus(res, 200)
      assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8')
      assert.equal(res.headers['content-disposition'], 'attachment; filename="requests-2026-04-01-2026-05-31.csv"')
      assert.ok(res.text.startsWith(`${HEADER}\r\n`) && res.text.endsWith('\r\n'))
      assert.equal(res.text.split('\r\n').length, res.text.split('\n').length, 'every line ends in CRLF')
      const rows: Array<Record<string, string>> = parse(res.text, { columns: true, record_delimiter: '\r\n' })
      const inRange = specs.filter((s) => { const d = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(s.createdAt); return d >= '2026-04-01' && d <= '2026-05-31' })
      assert.deepEqual(rows.map((r) => Number(r.id)).sort((a, b) => a - b), inRange.map((s) => s.id!).sort((a, b) => a - b))
      for (const row of rows) {
        const spec = specs.find((s) => s.id === Number(row.id))!
        const accepted = spec.offers.find((o) => o.acceptedAt !== null)
        const minutes = (from: Date, to: Date | undefined | null) => to == null ? '' : String(Math.round((to.getTime() - from.getTime()) / 6000) / 10)
        const sLat = 300 / 111195
        const i = Math.floor(spec.lat / sLat)
        const j = Math.floor(spec.lon / (300 / (111195 * Math.cos((i + 0.5) * sLat * Math.PI / 180))))
        assert.deepEqual(row, {
          id: String(spec.id),
          created_at: spec.createdAt.toISOString(),
          request_type: ['Shopping', 'Transport and escort', 'Household help', 'Accompaniment to appointments', 'Technology help', 'Other'][spec.type - 1],
          urgency: spec.urgency,
          status: spec.status,
          cancel_reason: spec.cancelReason ?? '',
          city: spec.city ?? '',
          grid_cell: `${i}:${j}`,
          minutes_to_first_offer: minutes(spec.createdAt, spec.offers[0]?.at),
          minutes_to_accept: minutes(spec.createdAt, accepted?.acceptedAt),
          completed_at: spec.status === 'completed' ? spec.finishedAt!.toISOString() : '',
          hours_of_help: spec.status === 'completed' ? String(Math.round(Math.min(720, (spec.finishedAt!.getTime() - accepted!.acceptedAt!.getTime()) / 60_000) / 60 * 100) / 100) : '',
          rating: spec.rating === null ? '' : String(spec.rating),
          on_behalf: spec.clientId !== null ? 'client' : spec.carer !== null ? 'carer' : '',
        }, `request ${spec.id}`)
      }
      assert.doesNotMatch(res.text, /Test street|Inserted by|Report test/)
    })

    it('escapes cells a spreadsheet would run as a formula, and quotes commas, quotes and line breaks', async () => {
      // The full-width signs too: some spreadsheets read them as = + - @.
      const cities = ['=HYPERLINK("http://evil.example")', '+49 30', '-1', '@SUM(A1)', 'Frankfurt, Main', 'Say "hi"', 'Two\r\nlines', '\tTab', '＝SUM(A1)', '＋1', '－1', '＠A1']
      const spec = specs.find((s) => s.status === 'pending_moderation')!
      const copies = cities.map((city) => ({ ...spec, id: undefined, city, createdAt: new Date('2026-02-10T12:00:00Z') }))
      await insertSpecs(t, copies)
      const res = await t.get('/reports/requests.csv?from=2026-02-10&to=2026-02-10', t.admin.token)
      const rows: Array<Record<string, string>> = parse(res.text, { columns: true, record_delimiter: '\r\n' })
      assert.deepEqual(rows.map((r) => r.city), ["'=HYPERLINK(\"http://evil.example\")", "'+49 30", "'-1", "'@SUM(A1)", 'Frankfurt, Main', 'Say "hi"', 'Two\r\nlines', "'\tTab", "'＝SUM(A1)", "'＋1", "'－1", "'＠A1"])
      assert.ok(res.text.includes('"\'=HYPERLINK(""http://evil.example"")"'))
      const empty = await t.get('/reports/requests.csv?from=2020-01-01&to=2020-12-31', t.admin.token)
      assert.equal(empty.text, `${HEADER}\r\n`)
    })

    it('declares the CSV as text/csv with its file name header, and the summary as JSON, in the OpenAPI document', async () => {
      const doc = (await t.get('/openapi.json')).body
      const csv = doc.paths['/api/v1/reports/requests.csv'].get.responses
      assert.deepEqual(Object.keys(csv['200'].content), ['text/csv'])
      assert.equal(csv['200'].content['text/csv'].schema.type, 'string')
      assert.ok(csv['200'].headers['content-disposition'])
      for (const status of ['400', '401', '403']) assert.ok(csv[status], status)
      const summary = doc.paths['/api/v1/reports/summary'].get.responses
      assert.deepEqual(Object.keys(summary['200'].content), ['application/json'])
    })

    it('keeps a request\'s first offer and first acceptance as they were when both are withdrawn, and counts them so; the assignment in force apart', async () => {
      const requester = await t.register()
      const [a, b, c] = [await t.register(), await t.register(), await t.register()]
      const id = await approvedRequest(t, requester, moderator)
      const base = `/requests/${id}/responses`
      const offerA = await respond(t, id, a)
      assertStatus(await t.post(`${base}/${offerA}/cancel`, undefined, a.token), 200)
      const offerB = await respond(t, id, b)
      assertStatus(await t.post(`${base}/${offerB}/accept`, undefined, requester.token), 200)
      assertStatus(await t.post(`${base}/${offerB}/cancel`, undefined, b.token), 200)
      const offerC = await respond(t, id, c)
      assertStatus(await t.post(`${base}/${offerC}/accept`, undefined, requester.token), 200)
      const times = async () => (await t.db.query<{ offer: string, accept: string, assigned: string, a: string, b: string, c: string }>(/* sql */ `
        SELECT r.first_offer_at::text AS offer, r.first_accepted_at::text AS accept, r.assigned_at::text AS assigned,
          a.responded_at::text AS a, b.accepted_at::text AS b, c.accepted_at::text AS c
        FROM requests r, volunteer_responses a, volunteer_responses b, volunteer_responses c WHERE r.id = $1 AND a.id = $2 AND b.id = $3 AND c.id = $4`,
      [id, offerA, offerB, offerC]))[0]!
      const kept = await times()
      // A's withdrawn offer stays the first; B's withdrawn acceptance stays the first, not C's later one; the
      // hours of help count from C's, the acceptance in force.
      assert.deepEqual([kept.offer, kept.accept, kept.assigned], [kept.a, kept.b, kept.c])
      assert.notEqual(kept.accept, kept.c)
      // direct write: the two times moved with the request into an otherwise empty month, its creation an hour before them.
      await t.db.query(/* sql */ `UPDATE requests SET created_at = $2::timestamptz - interval '1 hour',
        first_offer_at = first_offer_at + ($2::timestamptz - created_at), first_accepted_at = first_accepted_at + ($2::timestamptz - created_at)
        WHERE id = $1`, [id, new Date('2025-11-15T12:00:00Z')])
      const summary = await t.get('/reports/summary?from=2025-11-01&to=2025-11-30', t.admin.token)
      const period = summary.body.periods[0]
      assert.equal(period.requests_created, 1)
      // The offer 60 min after creation, the acceptance a few milliseconds later: both within a tenth of a minute.
      assert.equal(period.median_minutes_to_first_offer, 60)
      assert.equal(period.median_minutes_to_accept, 60)
    })

    it('pages through more rows than one batch in creation order', async () => {
      const many = 5000 + 7
      // direct write: a batch and a bit of requests at one instant, so the keyset must break ties by id.
      await t.db.query(/* sql */ `INSERT INTO requests (requester_id, request_type_id, title, description, latitude, longitude, address, urgency, status, created_at)
        SELECT $1, 1, 'Many', 'Many', 52.5, 13.4, 'x', 'low', 'pending_moderation', $2 FROM generate_series(1, $3)`, [volunteer.id, new Date('2025-01-15T12:00:00Z'), many])
      const res = await t.get('/reports/requests.csv?from=2025-01-15&to=2025-01-15', t.admin.token)
      const ids = res.text.trim().split('\r\n').slice(1).map((line) => Number(line.split(',')[0]))
      assert.equal(ids.length, many)
      assert.equal(new Set(ids).size, many)
      assert.deepEqual(ids, [...ids].sort((a, b) => a - b))
    })
  })
}

/** One request through the whole lifecycle by the API, then moved into the past by SQL. */
async function completedThroughTheApi (t: TestApp, volunteer: Account, moderator: Account): Promise<RequestSpec> {
  const requester = await t.register()
  const created = await t.post('/requests', { ...REQUEST_INPUT, city: 'Spandau', urgency: 'high' }, requester.token)
  assertStatus(created, 201)
  const id: number = created.body.id
  assertStatus(await t.post(`/moderation/requests/${id}/approve`, {}, moderator.token), 200)
  const offer = await t.post(`/requests/${id}/responses`, { message: 'I can help' }, volunteer.token)
  assertStatus(offer, 201)
  assertStatus(await t.post(`/requests/${id}/responses/${offer.body.id}/accept`, undefined, requester.token), 200)
  assertStatus(await t.post(`/requests/${id}/complete`, { rating: 5 }, requester.token), 200)
  const createdAt = new Date('2026-05-20T08:00:00Z')
  const at = new Date('2026-05-20T08:36:00Z')
  const acceptedAt = new Date('2026-05-20T09:00:00Z')
  const finishedAt = new Date('2026-05-20T11:30:00Z')
  // direct write: the times the lifecycle above would have had in May.
  await t.db.query('UPDATE requests SET created_at = $2, finished_at = $3, first_offer_at = $4, first_accepted_at = $5, assigned_at = $5 WHERE id = $1', [id, createdAt, finishedAt, at, acceptedAt])
  await t.db.query('UPDATE volunteer_responses SET responded_at = $2, accepted_at = $3 WHERE request_id = $1', [id, at, acceptedAt])
  return {
    id,
    requester: requester.id,
    clientId: null,
    carer: null,
    type: 1,
    urgency: 'high',
    city: 'Spandau',
    lat: REQUEST_INPUT.latitude,
    lon: REQUEST_INPUT.longitude,
    createdAt,
    status: 'completed',
    cancelReason: null,
    finishedAt,
    rating: 5,
    offers: [{ volunteer: volunteer.id, at, acceptedAt, status: 'accepted' }],
  }
}
