import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { alertsOf, approvedAt, newPlace, noticesOf, north, RoundDriver, setAvailability, startAlertsApp, TEST_ALERTS, volunteerAt } from '../helpers/alerts.js'
import { recordAlerts } from '../../src/help/availability/availability.repo.js'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { eventually } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'

for (const engine of engines()) {
  describe(`fair nearby alerts (${engine})`, () => {
    let t: TestApp
    let moderator: Account
    before(async () => { ({ t, moderator } = await startAlertsApp(engine)) })
    after(() => t.close())

    it('alerts eligible volunteers only: not the requester, a blocked user, one off duty, out of radius, of the wrong kind, capped at 0, or without respond_request', async () => {
      const here = newPlace()
      const requester = await volunteerAt(t, here, 50)
      const near = await volunteerAt(t, here, 320)
      const everyKind = await volunteerAt(t, here, 760, { request_type_ids: [] })
      const rightKind = await volunteerAt(t, here, 1940, { request_type_ids: [2, 1] })
      const wrongKind = await volunteerAt(t, here, 300, { request_type_ids: [2, 3] })
      const offDuty = await volunteerAt(t, here, 100, { on_duty: false })
      const outOfRadius = await volunteerAt(t, here, 1200, { radius_meters: 1000 })
      const capped = await volunteerAt(t, here, 150, { max_alerts_per_day: 0 })
      const blocked = await volunteerAt(t, here, 200)
      assert.equal((await t.post(`/admin/users/${blocked.id}/block`, undefined, t.admin.token)).status, 200)
      const noPermission = await volunteerAt(t, here, 250)
      assert.equal((await t.delete(`/admin/users/${noPermission.id}/roles/1`, t.admin.token)).status, 200)
      // Home location instead of an availability point.
      const atHome = await t.register()
      assert.equal((await t.post('/users/me/location', north(here, 2660), atHome.token)).status, 200)
      await setAvailability(t, atHome, { on_duty: true })

      const driver = new RoundDriver(t)
      const requestId = await approvedAt(t, here, requester, moderator, { urgency: 'high', title: 'A lift to dialysis', request_type_id: 1 })
      await driver.run()

      for (const volunteer of [requester, wrongKind, offDuty, outOfRadius, capped, noPermission]) {
        assert.deepEqual(await alertsOf(t, volunteer), [], `user ${volunteer.id} was alerted`)
      }
      const alerted = [near, everyKind, rightKind, atHome]
      const distances = [300, 800, 1900, 2700]
      for (const [i, volunteer] of alerted.entries()) {
        const alerts = await alertsOf(t, volunteer)
        assert.equal(alerts.length, 1, `user ${volunteer.id}`)
        assert.equal(alerts[0]!.request_id, requestId)
        assert.deepEqual(alerts[0]!.data, {
          title: 'A lift to dialysis',
          urgency: 'high',
          request_type_id: 1,
          request_type_name: 'Shopping',
          distance_meters: distances[i],
          round: 1,
        })
      }
      // Unblocked, the blocked volunteer is eligible again: the next round finds them.
      assert.equal((await t.post(`/admin/users/${blocked.id}/unblock`, undefined, t.admin.token)).status, 200)
      await driver.after(TEST_ALERTS.roundSeconds.high)
      assert.deepEqual((await alertsOf(t, blocked, requestId)).map((a) => a.data.round), [2])
      // Nobody is alerted twice for one request.
      await driver.after(TEST_ALERTS.roundSeconds.high)
      for (const volunteer of alerted) assert.equal((await alertsOf(t, volunteer, requestId)).length, 1)
    })

    it('chooses within a round by ring, then fewest alerts in 24 hours, then least recently alerted, then nearest', async () => {
      const here = newPlace()
      const requester = await t.register()
      const driver = new RoundDriver(t, { ...TEST_ALERTS, batch: 1, maxRounds: 10 })
      // Kinds separate who the earlier requests alert: each volunteer also takes kind 1, the request's.
      const v1 = await volunteerAt(t, here, 200, { request_type_ids: [1] })
      const v2 = await volunteerAt(t, here, 400, { request_type_ids: [1, 5] })
      const v3 = await volunteerAt(t, here, 600, { request_type_ids: [1, 4] })
      const v4 = await volunteerAt(t, here, 800, { request_type_ids: [1, 3] })
      const v5 = await volunteerAt(t, here, 900, { request_type_ids: [1] })
      const v6 = await volunteerAt(t, here, 1149, { request_type_ids: [1] })
      const v7 = await volunteerAt(t, here, 100, { request_type_ids: [1, 5, 6] })
      // History: v4 alerted 40 hours before, v3 30 hours before, v2 and v7 2 hours before, v7 again 1 hour before.
      await approvedAt(t, here, requester, moderator, { request_type_id: 3 })
      await driver.run()
      await driver.after(10 * 3600)
      await approvedAt(t, here, requester, moderator, { request_type_id: 4 })
      await driver.run()
      await driver.after(28 * 3600)
      await approvedAt(t, here, requester, moderator, { request_type_id: 5 })
      await driver.run()
      await driver.after(3600)
      await approvedAt(t, here, requester, moderator, { request_type_id: 6 })
      await driver.run()
      await driver.after(3600)

      const requestId = await approvedAt(t, here, requester, moderator, { request_type_id: 1, urgency: 'urgent' })
      await driver.run()
      for (let round = 2; round <= 8; round++) await driver.after(TEST_ALERTS.roundSeconds.urgent)

      const order = [v1, v5, v4, v3, v2, v7, v6]
      for (const [i, volunteer] of order.entries()) {
        const alerts = await alertsOf(t, volunteer, requestId)
        assert.deepEqual(alerts.map((a) => a.data.round), [i + 1], `volunteer ${i} of the order`)
      }
      assert.equal((await alertsOf(t, v6, requestId))[0]!.data.distance_meters, 1100)
    })

    it('alerts a volunteer at most max_alerts_per_day times in 24 hours', async () => {
      const here = newPlace()
      const requester = await t.register()
      const driver = new RoundDriver(t)
      const capped = await volunteerAt(t, here, 100, { max_alerts_per_day: 2 })
      const other = await volunteerAt(t, here, 200, { max_alerts_per_day: 3 })
      const first = await approvedAt(t, here, requester, moderator)
      await driver.run()
      await driver.after(3600)
      const second = await approvedAt(t, here, requester, moderator)
      await driver.run()
      await driver.after(3600)
      const third = await approvedAt(t, here, requester, moderator)
      await driver.run()
      assert.deepEqual((await alertsOf(t, capped)).map((a) => a.request_id), [first, second])
      assert.deepEqual((await alertsOf(t, other)).map((a) => a.request_id), [first, second, third])
      // 24 hours after the first alert the window has room again: the third request's next round finds them.
      await driver.after(22 * 3600 + 60)
      assert.deepEqual((await alertsOf(t, capped)).map((a) => a.request_id), [first, second, third])
    })

    it('keeps each volunteer\'s newest 50 alert times ascending, whatever order rounds commit in (migrations/0011)', async () => {
      const volunteer = await volunteerAt(t, newPlace(), 100)
      const hour = (h: number) => new Date(Date.UTC(2026, 0, 1, h))
      // Two instances' rounds can commit out of their clocks' order.
      for (const h of [5, 3, 60, 4]) await t.db.transaction((tx) => recordAlerts(tx, [volunteer.id], hour(h)))
      const times = async () => (await t.db.query<{ t: Date[] }>('SELECT alert_times AS t FROM volunteer_availability WHERE user_id = $1', [volunteer.id]))[0]!.t.map(Number)
      assert.deepEqual(await times(), [3, 4, 5, 60].map((h) => Number(hour(h))))
      for (let h = 100; h < 160; h++) await t.db.transaction((tx) => recordAlerts(tx, [volunteer.id], hour(h)))
      assert.deepEqual(await times(), Array.from({ length: 50 }, (_, i) => Number(hour(110 + i))))
    })

    it('pauses while the request has ALERT_STOP_AFTER_OFFERS pending offers, and resumes when one is turned down', async () => {
      const here = newPlace()
      const requester = await t.register()
      const driver = new RoundDriver(t, { ...TEST_ALERTS, batch: 2, stopAfterOffers: 2 })
      const volunteers = [await volunteerAt(t, here, 100), await volunteerAt(t, here, 200), await volunteerAt(t, here, 300), await volunteerAt(t, here, 400)]
      const requestId = await approvedAt(t, here, requester, moderator, { urgency: 'medium' })
      await driver.run()
      const offers: number[] = []
      for (const volunteer of volunteers.slice(0, 2)) {
        const res = await t.post(`/requests/${requestId}/responses`, { message: 'On my way' }, volunteer.token)
        assert.equal(res.status, 201, res.text)
        offers.push(res.body.id)
      }
      await driver.after(TEST_ALERTS.roundSeconds.medium)
      await driver.after(TEST_ALERTS.roundSeconds.medium)
      for (const volunteer of volunteers.slice(2)) assert.deepEqual(await alertsOf(t, volunteer), [])
      assert.equal((await t.post(`/requests/${requestId}/responses/${offers[0]}/reject`, undefined, requester.token)).status, 200)
      await driver.after(TEST_ALERTS.roundSeconds.medium)
      // The paused intervals were not counted as rounds.
      for (const volunteer of volunteers.slice(2)) assert.deepEqual((await alertsOf(t, volunteer)).map((a) => a.data.round), [2])
    })

    it('stops after ALERT_MAX_ROUNDS rounds; a round that finds nobody counts toward them and the rounds go on (docs/api/help.md › Catch-up alerts)', async () => {
      const here = newPlace()
      const requester = await t.register()
      const driver = new RoundDriver(t, { ...TEST_ALERTS, batch: 1, maxRounds: 2 })
      const volunteers = [await volunteerAt(t, here, 100), await volunteerAt(t, here, 200), await volunteerAt(t, here, 300)]
      const capped = await approvedAt(t, here, requester, moderator, { urgency: 'low' })
      for (let i = 0; i < 4; i++) await driver.after(TEST_ALERTS.roundSeconds.low)
      assert.deepEqual((await Promise.all(volunteers.map((v) => alertsOf(t, v, capped)))).map((a) => a.length), [1, 1, 0])

      // Far from everyone: round 1 finds nobody, and the rounds go on. No catch-ups (ALERT_CATCH_UP 0):
      // what the rounds alone do (the catch-ups have tests of their own, alerts-catch-up.test.ts).
      const far = newPlace()
      const rounds = new RoundDriver(t, { ...TEST_ALERTS, batch: 1, maxRounds: 3, catchUp: 0 })
      const lonely = await approvedAt(t, far, requester, moderator, { urgency: 'low' })
      await rounds.run()
      const late = await t.register()
      await setAvailability(t, late, { on_duty: true, ...north(far, 100) })
      await rounds.run()
      assert.deepEqual(await alertsOf(t, late, lonely), [])
      await rounds.after(TEST_ALERTS.roundSeconds.low)
      assert.deepEqual((await alertsOf(t, late, lonely)).map((a) => a.data.round), [2])
      // Round 3 finds nobody new and is the last: a volunteer coming on duty after it is not alerted by rounds.
      await rounds.after(TEST_ALERTS.roundSeconds.low)
      const later = await t.register()
      await setAvailability(t, later, { on_duty: true, ...north(far, 200) })
      for (let i = 0; i < 3; i++) await rounds.after(TEST_ALERTS.roundSeconds.low)
      assert.deepEqual(await alertsOf(t, later, lonely), [])
      assert.equal((await t.db.query('SELECT 1 FROM alert_rounds WHERE request_id = $1', [lonely])).length, 0)
    })

    it('tells alerted volunteers who have not responded that the request was assigned, and alerts nobody after', async () => {
      const here = newPlace()
      const requester = await t.register()
      const driver = new RoundDriver(t, { ...TEST_ALERTS, batch: 3 })
      const [helper, a, b, later] = [await volunteerAt(t, here, 100), await volunteerAt(t, here, 200), await volunteerAt(t, here, 300), await volunteerAt(t, here, 400)]
      const requestId = await approvedAt(t, here, requester, moderator)
      await driver.run()
      const offer = await t.post(`/requests/${requestId}/responses`, {}, helper.token)
      assert.equal(offer.status, 201)
      assert.equal((await t.post(`/requests/${requestId}/responses/${offer.body.id}/accept`, undefined, requester.token)).status, 200)
      for (const volunteer of [a, b]) {
        const notices = (await noticesOf(t, volunteer, requestId)).map((n) => [n.type, n.data])
        assert.deepEqual(notices, [['request_alert', notices[0]![1]], ['request_alert_closed', { reason: 'assigned' }]])
      }
      assert.ok((await noticesOf(t, helper, requestId)).every((n) => n.type !== 'request_alert_closed'), 'the helper responded')
      for (let i = 0; i < 3; i++) await driver.after(TEST_ALERTS.roundSeconds.medium)
      assert.deepEqual(await alertsOf(t, later, requestId), [])
    })

    it('tells them on cancellation, by the requester or a moderator, once', async () => {
      const here = newPlace()
      const requester = await t.register()
      const driver = new RoundDriver(t)
      const volunteer = await volunteerAt(t, here, 100)
      for (const canceller of [requester, moderator]) {
        const requestId = await approvedAt(t, here, requester, moderator)
        await driver.run()
        assert.equal((await t.post(`/requests/${requestId}/cancel`, undefined, canceller.token)).status, 200)
        await driver.after(TEST_ALERTS.roundSeconds.medium)
        const notices = (await noticesOf(t, volunteer, requestId)).filter((n) => n.type.startsWith('request_alert'))
        assert.deepEqual(notices.map((n) => [n.type, n.data.reason]), [['request_alert', undefined], ['request_alert_closed', 'cancelled']])
      }
    })

    it('starts rounds again when the assigned volunteer withdraws, never alerting anyone twice', async () => {
      const here = newPlace()
      const requester = await t.register()
      const driver = new RoundDriver(t, { ...TEST_ALERTS, batch: 2 })
      const [helper, a, b, c] = [await volunteerAt(t, here, 100), await volunteerAt(t, here, 200), await volunteerAt(t, here, 300), await volunteerAt(t, here, 400)]
      const requestId = await approvedAt(t, here, requester, moderator)
      await driver.run() // helper and a
      const offer = await t.post(`/requests/${requestId}/responses`, {}, helper.token)
      assert.equal((await t.post(`/requests/${requestId}/responses/${offer.body.id}/accept`, undefined, requester.token)).status, 200)
      assert.equal((await t.post(`/requests/${requestId}/responses/${offer.body.id}/cancel`, undefined, helper.token)).status, 200)
      await driver.run() // round 1 again: b and c
      for (const [volunteer, count] of [[helper, 1], [a, 1], [b, 1], [c, 1]] as const) {
        assert.equal((await alertsOf(t, volunteer, requestId)).length, count)
      }
      assert.deepEqual((await alertsOf(t, b, requestId)).map((n) => n.data.round), [1])
      // a was told once that it was assigned; nothing more while b and c are still open.
      assert.equal((await noticesOf(t, a, requestId)).filter((n) => n.type === 'request_alert_closed').length, 1)
    })

    it('runs the first round by itself soon after approval (the instance\'s ticker)', async () => {
      const here = newPlace()
      const ticking = await startApp(engine, { alerts: TEST_ALERTS }, { alertTickMs: 50 })
      try {
        const mod = await ticking.registerWithRole('moderator')
        const volunteer = await volunteerAt(ticking, here, 300)
        const requestId = await approvedAt(ticking, here, await ticking.register(), mod)
        await eventually(async () => (await alertsOf(ticking, volunteer, requestId)).length === 1)
      } finally {
        await ticking.close()
      }
    })
  })
}
