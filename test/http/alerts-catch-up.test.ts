import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { alertsOf, approvedAt, newPlace, north, RoundDriver, setAvailability, TEST_ALERTS, volunteerAt, type Place } from '../helpers/alerts.js'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { ManualClock } from '../helpers/clock.js'
import { eventually } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'
import { requestInput } from '../helpers/requests.js'

/** docs/api/help.md › Catch-up alerts: volunteers who come on duty later are told of requests whose rounds are under way. */
for (const engine of engines()) {
  describe(`alert catch-ups (${engine})`, () => {
    let t: TestApp
    let moderator: Account
    const clock = new ManualClock()
    let driver: RoundDriver

    before(async () => {
      // No ticker: the tests run rounds and catch-ups themselves, on the app's clock, which they move.
      t = await startApp(engine, { alerts: TEST_ALERTS }, { alertTickMs: 0, clock })
      moderator = await t.registerWithRole('moderator')
      driver = new RoundDriver(t, TEST_ALERTS, undefined, clock)
    })
    after(() => t.close())

    /** A request approved at `place` whose round 1 has run (finding nobody: nobody is on duty there yet). */
    async function openRequest (place: Place, overrides: Record<string, unknown> = {}): Promise<number> {
      const requestId = await approvedAt(t, place, await t.register(), moderator, overrides)
      await driver.run()
      clock.advance(1000)
      return requestId
    }

    it('alerts to at most ALERT_CATCH_UP requests: most urgent first, then nearest, then oldest; the round is the current one; never twice', async () => {
      const here = newPlace()
      const nearLow = await openRequest(north(here, 100), { urgency: 'low' })
      const older = await openRequest(north(here, 2000), { urgency: 'high' })
      const newer = await openRequest(north(here, 2000), { urgency: 'high' })
      const nearHigh = await openRequest(north(here, 500), { urgency: 'high' })
      const farUrgent = await openRequest(north(here, 4000), { urgency: 'urgent' })
      // The urgent one's round 2 runs (finding nobody): its current round is 2, the others' 1.
      await driver.after(TEST_ALERTS.roundSeconds.urgent)
      const volunteer = await t.register()
      await setAvailability(t, volunteer, { on_duty: true, ...here })
      await driver.run()
      const first = await alertsOf(t, volunteer)
      assert.deepEqual(first.map((a) => [a.request_id, a.data.round, a.data.distance_meters]),
        [[farUrgent, 2, 4000], [nearHigh, 1, 500], [older, 1, 2000]])
      assert.equal(first[0]!.data.urgency, 'urgent')
      // Moving a little is a trigger: the two left, and nothing twice.
      await setAvailability(t, volunteer, { ...north(here, 10) })
      await driver.run()
      await setAvailability(t, volunteer, { ...here })
      await driver.run()
      assert.deepEqual((await alertsOf(t, volunteer)).map((a) => a.request_id), [farUrgent, nearHigh, older, newer, nearLow])
    })

    it('goes on duty, moves, widens the radius, takes new kinds, moves home: each alerts; a narrower radius, off duty, a new cap, the same values do not', async () => {
      const here = newPlace()
      const requestId = await openRequest(here, { request_type_id: 1 })
      const offDuty = await volunteerAt(t, here, 100, { on_duty: false })
      const mover = await volunteerAt(t, here, 7000)
      const narrow = await volunteerAt(t, here, 3000, { radius_meters: 2000 })
      const otherKinds = await volunteerAt(t, here, 200, { request_type_ids: [2] })
      const atHome = await t.register()
      assert.equal((await t.post('/users/me/location', north(here, 8000), atHome.token)).status, 200)
      await setAvailability(t, atHome, { on_duty: true })
      const capped = await volunteerAt(t, here, 150, { max_alerts_per_day: 0 })
      await driver.run()
      for (const volunteer of [offDuty, mover, narrow, otherKinds, atHome, capped]) assert.deepEqual(await alertsOf(t, volunteer), [])

      await setAvailability(t, offDuty, { on_duty: true })
      await setAvailability(t, mover, { ...north(here, 300) })
      await setAvailability(t, narrow, { radius_meters: 4000 })
      await setAvailability(t, otherKinds, { request_type_ids: [1, 2] })
      assert.equal((await t.post('/users/me/location', north(here, 400), atHome.token)).status, 200)
      await driver.run()
      for (const volunteer of [offDuty, mover, narrow, otherKinds, atHome]) {
        assert.deepEqual((await alertsOf(t, volunteer)).map((a) => [a.request_id, a.data.round]), [[requestId, 1]], `user ${volunteer.id}`)
      }

      // Eligible now but none of these is a trigger: the cap raised, the same values, a narrower radius, off duty.
      for (const fields of [{ max_alerts_per_day: 10 }, { on_duty: true, ...north(here, 150) }, { radius_meters: 3000 }, { on_duty: false }]) {
        await setAvailability(t, capped, fields)
        await driver.run()
        assert.deepEqual(await alertsOf(t, capped), [], JSON.stringify(fields))
      }
      await setAvailability(t, capped, { on_duty: true })
      await driver.run()
      assert.deepEqual((await alertsOf(t, capped)).map((a) => a.request_id), [requestId])
    })

    it('leaves out requests whose rounds stopped, not yet approved, approved after the trigger, or paused by offers; holds the daily cap', async () => {
      const here = newPlace()
      const stopped = new RoundDriver(t, { ...TEST_ALERTS, maxRounds: 1 }, undefined, clock)
      const ended = await approvedAt(t, north(here, 100), await t.register(), moderator)
      await stopped.run()
      const pending = await t.post('/requests', requestInput({ ...north(here, 100), urgency: 'urgent' }), (await t.register()).token)
      assert.equal(pending.status, 201, pending.text)
      // Paused: ALERT_STOP_AFTER_OFFERS pending offers.
      const paused = await openRequest(north(here, 200), { urgency: 'urgent' })
      for (let i = 0; i < TEST_ALERTS.stopAfterOffers; i++) {
        const helper = await t.register()
        assert.equal((await t.post(`/requests/${paused}/responses`, {}, helper.token)).status, 201)
      }
      const open = [await openRequest(north(here, 300)), await openRequest(north(here, 400)), await openRequest(north(here, 500))]
      const volunteer = await volunteerAt(t, here, 0, { max_alerts_per_day: 2 })
      clock.advance(1000)
      const later = await approvedAt(t, north(here, 50), await t.register(), moderator, { urgency: 'urgent' })
      await driver.catchUps.runDue()
      // Two: the cap. The request approved after going on duty is left to its own round 1, which the cap now keeps from them.
      assert.deepEqual((await alertsOf(t, volunteer)).map((a) => a.request_id), open.slice(0, 2))
      await driver.run()
      assert.deepEqual((await alertsOf(t, volunteer)).map((a) => a.request_id), open.slice(0, 2))
      assert.ok(![ended, pending.body.id, paused, later].some((id) => open.includes(id)))
    })

    it('alerts once when a round and a catch-up for the same volunteer and request run at the same moment', async () => {
      const pairs: Array<[number, Account]> = []
      for (let i = 0; i < 6; i++) {
        const here = newPlace()
        // Approved first, round 1 due but not run; then the volunteer comes on duty: both would alert them.
        const requestId = await approvedAt(t, here, await t.register(), moderator)
        pairs.push([requestId, await volunteerAt(t, here, 100 + i)])
      }
      await Promise.all([driver.service.runDue(), driver.catchUps.runDue(), driver.catchUps.runDue()])
      for (const [requestId, volunteer] of pairs) {
        assert.equal((await alertsOf(t, volunteer, requestId)).length, 1, `volunteer ${volunteer.id}`)
        const rows = await t.db.query('SELECT 1 FROM request_alerts WHERE request_id = $1 AND volunteer_id = $2', [requestId, volunteer.id])
        assert.equal(rows.length, 1)
      }
    })

    it('alerts within 5 s by itself (the instance\'s ticker), and never twice', async () => {
      const ticking = await startApp(engine, { alerts: TEST_ALERTS }, { alertTickMs: 1000 })
      try {
        const here = newPlace()
        const mod = await ticking.registerWithRole('moderator')
        const requestId = await approvedAt(ticking, here, await ticking.register(), mod)
        const roundOf = async () => (await ticking.db.query<{ round: number }>('SELECT round FROM alert_rounds WHERE request_id = $1', [requestId]))[0]?.round
        // Round 1 has run (finding nobody): round 2 is next, 5 minutes away.
        await eventually(async () => await roundOf() === 2)
        const volunteer = await ticking.register()
        const started = Date.now()
        await setAvailability(ticking, volunteer, { on_duty: true, ...north(here, 300) })
        await eventually(async () => (await alertsOf(ticking, volunteer, requestId)).length === 1, 5000)
        assert.ok(Date.now() - started < 5000)
        // Two more triggers, run by the ticker: still one alert.
        await setAvailability(ticking, volunteer, { ...north(here, 200) })
        await setAvailability(ticking, volunteer, { radius_meters: 8000 })
        const queued = async () => (await ticking.db.query('SELECT 1 FROM alert_catch_ups WHERE volunteer_id = $1', [volunteer.id])).length
        await eventually(async () => await queued() === 0, 5000)
        assert.deepEqual((await alertsOf(ticking, volunteer, requestId)).map((a) => a.data.round), [1])
      } finally {
        await ticking.close()
      }
    })
  })
}
