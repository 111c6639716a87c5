import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { gridPoint } from '../../src/lib/grid.js'
import { RetentionJob } from '../../src/data-protection/privacy/retention.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { DAY_MS } from '../helpers/clock.js'
import { engines } from '../helpers/engines.js'
import { SERIES_START, seriesSuite } from '../helpers/series.js'

/**
 * docs/api/schedule.md › Series, with the clock moved: a requester's export holds her series and erasure ends them,
 * minimised, with no occurrence after; RETENTION_DAYS minimises a series ended or rejected that long ago; rejection
 * needs a comment and creates nothing; who may read, change, end and moderate a series.
 */

const silent = { error () {}, info () {} }

for (const engine of engines()) {
  describe(`request series: erasure, retention and access (${engine})`, () => {
    const suite = seriesSuite(engine)
    const { clock, job, create, approved, occurrences } = suite

    it('the export holds the series; erasure ends them, minimised, and no occurrence follows', async () => {
      clock.set(SERIES_START)
      const requester = await suite.t.register()
      const series = await approved(requester)
      const exported = await suite.t.get('/users/me/export', requester.token)
      assert.deepEqual(exported.body.series.map((s: { id: number }) => s.id), [series.id])
      assertStatus(await suite.t.request('DELETE', '/users/me', { token: requester.token, body: { password: requester.password } }), 200)
      const erased = await suite.t.get(`/request-series/${series.id as number}`, suite.moderator.token)
      const template = erased.body.template
      assert.deepEqual([erased.body.status, template.address, template.description, template.contact_phone], ['ended', '(removed)', '(removed)', '(removed)'])
      assert.deepEqual([template.latitude, template.longitude], Object.values(gridPoint(52.52, 13.405, 300)), 'the exact point becomes its grid point')
      clock.advance(14 * DAY_MS)
      await job().runOnce()
      const open = await suite.t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM requests WHERE series_id = $1 AND status <> 'cancelled'", [series.id])
      assert.equal(open[0]!.n, 0)
    })

    it('RETENTION_DAYS minimises a series ended (or rejected) that long ago, once, as a finished request', async () => {
      clock.set(SERIES_START)
      const requester = await suite.t.register()
      const [ended, active] = [await approved(requester), await approved(requester)]
      assertStatus(await suite.t.post(`/request-series/${ended.id as number}/end`, undefined, requester.token), 200)
      const retention = new RetentionJob(suite.t.db, { retentionDays: 30, mapGridMeters: 300 }, silent, clock)
      clock.advance(29 * DAY_MS)
      await retention.runOnce()
      assert.equal((await suite.t.get(`/request-series/${ended.id as number}`, requester.token)).body.template.address, 'Alexanderplatz 1')
      clock.advance(2 * DAY_MS)
      await retention.runOnce()
      const [gone, kept] = [(await suite.t.get(`/request-series/${ended.id as number}`, requester.token)).body, (await suite.t.get(`/request-series/${active.id as number}`, requester.token)).body]
      assert.deepEqual([gone.template.address, gone.template.description, gone.template.contact_phone, gone.template.latitude], ['(removed)', '(removed)', '(removed)', gridPoint(52.52, 13.405, 300).latitude])
      assert.equal(kept.template.address, 'Alexanderplatz 1')
    })

    it('rejection needs a comment and creates nothing; who may read, change, end and moderate', async () => {
      clock.set(SERIES_START)
      const requester = await suite.t.register()
      const stranger = await suite.t.register()
      const series = await create(requester)
      const path = `/request-series/${series.id as number}`
      assertError(await suite.t.post(`/moderation/series/${series.id as number}/reject`, { comment: ' ' }, suite.moderator.token), 400, 'comment is required when rejecting')
      const own = await create(suite.moderator)
      assertError(await suite.t.post(`/moderation/series/${own.id as number}/approve`, {}, suite.moderator.token), 400, 'cannot moderate own series')
      assertError(await suite.t.get(path, stranger.token), 404, 'series not found')
      assertError(await suite.t.patch(path, { start_time: '09:00' }, stranger.token), 404, 'series not found')
      assertError(await suite.t.post(`${path}/end`, undefined, stranger.token), 404, 'series not found')
      assertError(await suite.t.patch(path, { start_time: '09:00' }, suite.moderator.token), 403, 'only the requester can change a series')
      assertStatus(await suite.t.get(path, suite.moderator.token), 200)
      const rejected = await suite.t.post(`/moderation/series/${series.id as number}/reject`, { comment: 'Please give the address.' }, suite.moderator.token)
      assert.equal(rejected.body.status, 'rejected')
      assertError(await suite.t.post(`/moderation/series/${series.id as number}/approve`, {}, suite.moderator.token), 400, 'series is not in pending_moderation status')
      assertError(await suite.t.post('/moderation/series/999999/approve', {}, suite.moderator.token), 404, 'series not found')
      clock.advance(DAY_MS)
      await job().runOnce()
      assert.deepEqual(await occurrences(requester, series.id), [])
      const mine = await suite.t.get('/request-series/mine', requester.token)
      assert.deepEqual(mine.body.map((s: { id: number }) => s.id), [series.id])
    })
  })
}
