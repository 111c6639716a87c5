import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { changesOn } from '../../src/areas.js'
import { gridPoint } from '../../src/lib/grid.js'
import { RetentionJob } from '../../src/data-protection/privacy/retention.js'
import { HorizonJob } from '../../src/regular-help/series/horizon.js'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { engines } from '../helpers/engines.js'
import { requestInput } from '../helpers/requests.js'

/**
 * docs/api/schedule.md › Proof, series: validation, moderation once, occurrences to the horizon at the right
 * local time across daylight-saving changes (Europe/Berlin, clock moved), every_weeks and ends_on, return
 * trips, the horizon job on two instances at once and aborted mid-run, changes with and without accepted
 * offers, the end, rejection, and who may do what.
 */

const ZONE = 'Europe/Berlin'
/** Monday 15 March 2027, 10:00 in Berlin (UTC+1); summer time starts on 28 March and ends on 31 October. */
const START = new Date('2027-03-15T09:00:00Z')
const DAY_MS = 86_400_000
const silent = { error () {}, info () {} }

interface Occurrence { id: number, title: string, status: string, window_start: string, window_end: string, series_id: number }

for (const engine of engines()) {
  describe(`request series (${engine})`, () => {
    const clock = new ManualClock(START)
    let t: TestApp
    let moderator: Account
    before(async () => {
      t = await startApp(engine, { timeZone: ZONE, accessTokenTtlSeconds: 3650 * 86400 }, { alertTickMs: 0, clock })
      moderator = await t.registerWithRole('moderator')
    })
    after(() => t.close())

    const job = (on: TestApp = t) => new HorizonJob(changesOn(on.db, clock), { horizonDays: 28, mapGridMeters: 300, preferredHoldHours: 24, volunteerChecks: [], timeZone: ZONE }, silent)
    const input = (overrides: Record<string, unknown> = {}) => ({
      template: requestInput({ title: 'Lift to dialysis' }), days: ['thu', 'tue'], start_time: '07:30', duration_minutes: 180, starts_on: '2027-03-16', ...overrides,
    })
    async function create (requester: Account, overrides: Record<string, unknown> = {}): Promise<any> {
      const res = await t.post('/request-series', input(overrides), requester.token)
      assertStatus(res, 201)
      return res.body
    }
    async function approved (requester: Account, overrides: Record<string, unknown> = {}): Promise<any> {
      const series = await create(requester, overrides)
      const res = await t.post(`/moderation/series/${series.id as number}/approve`, {}, moderator.token)
      assertStatus(res, 200)
      return res.body
    }
    /** The series' occurrences (its requester's requests), oldest window first. */
    async function occurrences (requester: Account, seriesId: number): Promise<Occurrence[]> {
      const res = await t.get<Occurrence[]>('/requests/my?limit=100', requester.token)
      assertStatus(res, 200)
      return res.body.filter((r) => r.series_id === seriesId).sort((a, b) => a.window_start.localeCompare(b.window_start) || a.id - b.id)
    }

    it('the export holds the series; erasure ends them, minimised, and no occurrence follows', async () => {
      clock.set(START)
      const requester = await t.register()
      const series = await approved(requester)
      const exported = await t.get('/users/me/export', requester.token)
      assert.deepEqual(exported.body.series.map((s: { id: number }) => s.id), [series.id])
      assertStatus(await t.request('DELETE', '/users/me', { token: requester.token, body: { password: requester.password } }), 200)
      const erased = await t.get(`/request-series/${series.id as number}`, moderator.token)
      const template = erased.body.template
      assert.deepEqual([erased.body.status, template.address, template.description, template.contact_phone], ['ended', '(removed)', '(removed)', '(removed)'])
      assert.deepEqual([template.latitude, template.longitude], Object.values(gridPoint(52.52, 13.405, 300)), 'the exact point becomes its grid point')
      clock.advance(14 * DAY_MS)
      await job().runOnce()
      const open = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM requests WHERE series_id = $1 AND status <> 'cancelled'", [series.id])
      assert.equal(open[0]!.n, 0)
    })

    it('RETENTION_DAYS minimises a series ended (or rejected) that long ago, once, as a finished request', async () => {
      clock.set(START)
      const requester = await t.register()
      const [ended, active] = [await approved(requester), await approved(requester)]
      assertStatus(await t.post(`/request-series/${ended.id as number}/end`, undefined, requester.token), 200)
      const retention = new RetentionJob(t.db, { retentionDays: 30, mapGridMeters: 300 }, silent, clock)
      clock.advance(29 * DAY_MS)
      await retention.runOnce()
      assert.equal((await t.get(`/request-series/${ended.id as number}`, requester.token)).body.template.address, 'Alexanderplatz 1')
      clock.advance(2 * DAY_MS)
      await retention.runOnce()
      const [gone, kept] = [(await t.get(`/request-series/${ended.id as number}`, requester.token)).body, (await t.get(`/request-series/${active.id as number}`, requester.token)).body]
      assert.deepEqual([gone.template.address, gone.template.description, gone.template.contact_phone, gone.template.latitude], ['(removed)', '(removed)', '(removed)', gridPoint(52.52, 13.405, 300).latitude])
      assert.equal(kept.template.address, 'Alexanderplatz 1')
    })

    it('rejection needs a comment and creates nothing; who may read, change, end and moderate', async () => {
      clock.set(START)
      const requester = await t.register()
      const stranger = await t.register()
      const series = await create(requester)
      const path = `/request-series/${series.id as number}`
      assertError(await t.post(`/moderation/series/${series.id as number}/reject`, { comment: ' ' }, moderator.token), 400, 'comment is required when rejecting')
      const own = await create(moderator)
      assertError(await t.post(`/moderation/series/${own.id as number}/approve`, {}, moderator.token), 400, 'cannot moderate own series')
      assertError(await t.get(path, stranger.token), 404, 'series not found')
      assertError(await t.patch(path, { start_time: '09:00' }, stranger.token), 404, 'series not found')
      assertError(await t.post(`${path}/end`, undefined, stranger.token), 404, 'series not found')
      assertError(await t.patch(path, { start_time: '09:00' }, moderator.token), 403, 'only the requester can change a series')
      assertStatus(await t.get(path, moderator.token), 200)
      const rejected = await t.post(`/moderation/series/${series.id as number}/reject`, { comment: 'Please give the address.' }, moderator.token)
      assert.equal(rejected.body.status, 'rejected')
      assertError(await t.post(`/moderation/series/${series.id as number}/approve`, {}, moderator.token), 400, 'series is not in pending_moderation status')
      assertError(await t.post('/moderation/series/999999/approve', {}, moderator.token), 404, 'series not found')
      clock.advance(DAY_MS)
      await job().runOnce()
      assert.deepEqual(await occurrences(requester, series.id), [])
      const mine = await t.get('/request-series/mine', requester.token)
      assert.deepEqual(mine.body.map((s: { id: number }) => s.id), [series.id])
    })
  })
}
