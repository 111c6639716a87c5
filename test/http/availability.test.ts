import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, type TestApp } from '../helpers/app.js'
import { assertError } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'

const DEFAULTS = {
  on_duty: false,
  radius_meters: 5000,
  latitude: null,
  longitude: null,
  request_type_ids: [],
  max_alerts_per_day: 10,
  uses_home_location: true,
  alerts_last_24h: 0,
  updated_at: null,
}

for (const engine of engines()) {
  describe(`volunteer availability (${engine})`, () => {
    let t: TestApp
    before(async () => { t = await startApp(engine) })
    after(async () => { await t.close() })

    /** The stored alert point as latitude/longitude (null when none). */
    async function alertPoint (userId: number): Promise<{ lat: number, lon: number } | null> {
      const rows = await t.db.query<{ lat: number | null, lon: number | null }>(
        'SELECT latitude(alert_point) AS lat, longitude(alert_point) AS lon FROM volunteer_availability WHERE user_id = $1', [userId])
      const row = rows[0]
      return row === undefined || row.lat === null ? null : { lat: Number(row.lat), lon: Number(row.lon) }
    }

    it('401 without a token; 403 without the respond_request permission', async () => {
      assertError(await t.get('/users/me/availability'), 401, 'unauthorized')
      assertError(await t.request('PUT', '/users/me/availability', { body: {} }), 401, 'unauthorized')
      const user = await t.register()
      const removed = await t.delete(`/admin/users/${user.id}/roles/1`, t.admin.token)
      assert.equal(removed.status, 200, removed.text)
      assertError(await t.get('/users/me/availability', user.token), 403, 'volunteer role required')
      assertError(await t.request('PUT', '/users/me/availability', { body: { on_duty: false }, token: user.token }), 403, 'volunteer role required')
    })

    it('defaults when never set; an absent field keeps its value', async () => {
      const user = await t.register()
      assert.deepEqual((await t.get('/users/me/availability', user.token)).body, DEFAULTS)
      const first = await t.request('PUT', '/users/me/availability', { body: { radius_meters: 2500, request_type_ids: [2, 1, 2], max_alerts_per_day: 0 }, token: user.token })
      assert.equal(first.status, 200, first.text)
      assert.equal(first.body.radius_meters, 2500)
      assert.deepEqual(first.body.request_type_ids, [1, 2])
      assert.equal(first.body.max_alerts_per_day, 0)
      assert.equal(typeof first.body.updated_at, 'string')
      const second = await t.request('PUT', '/users/me/availability', { body: { latitude: 48.1, longitude: 11.6 }, token: user.token })
      assert.deepEqual({ ...second.body, updated_at: null }, {
        ...DEFAULTS, radius_meters: 2500, request_type_ids: first.body.request_type_ids, max_alerts_per_day: 0, latitude: 48.1, longitude: 11.6, uses_home_location: false,
      })
      assert.deepEqual((await t.get('/users/me/availability', user.token)).body, second.body)
      const cleared = await t.request('PUT', '/users/me/availability', { body: { request_type_ids: [] }, token: user.token })
      assert.deepEqual(cleared.body.request_type_ids, [])
    })

    it('every validation text', async () => {
      const user = await t.register()
      const put = (body: unknown) => t.request('PUT', '/users/me/availability', { body, token: user.token })
      for (const radius of [99, 50001, 1000.5, '1000', null]) assertError(await put({ radius_meters: radius }), 400, 'invalid radius')
      assertError(await put({ latitude: 91, longitude: 0 }), 400, 'invalid latitude')
      assertError(await put({ latitude: 'north', longitude: 0 }), 400, 'invalid latitude')
      assertError(await put({ latitude: 0, longitude: -180.5 }), 400, 'invalid longitude')
      assertError(await put({ latitude: 10 }), 400, 'invalid longitude')
      assertError(await put({ longitude: 10 }), 400, 'invalid latitude')
      assertError(await put({ latitude: 10, longitude: null }), 400, 'invalid longitude')
      assertError(await put({ latitude: null, longitude: 10 }), 400, 'invalid latitude')
      for (const ids of [[999], [0], [-1], ['1'], [1.5], 'all', Array.from({ length: 51 }, () => 1)]) {
        assertError(await put({ request_type_ids: ids }), 400, 'invalid request type')
      }
      for (const max of [-1, 51, 2.5, '10']) assertError(await put({ max_alerts_per_day: max }), 400, 'invalid max_alerts_per_day')
      assertError(await put({ on_duty: 'yes' }), 400, 'on_duty must be of type boolean')
      // An inactive type is refused too.
      const [inactive] = await t.db.query<{ id: number }>("INSERT INTO request_types (name, is_active) VALUES ('Retired kind ' || md5(random()::text), false) RETURNING id")
      assertError(await put({ request_type_ids: [1, inactive!.id] }), 400, 'invalid request type')
      // Nothing was written by any of these.
      assert.deepEqual((await t.get('/users/me/availability', user.token)).body, DEFAULTS)
    })

    it('going on duty needs an availability point or a home location; the alert point follows both', async () => {
      const user = await t.register()
      const put = (body: unknown) => t.request('PUT', '/users/me/availability', { body, token: user.token })
      assertError(await put({ on_duty: true }), 400, 'location required to go on duty')
      assert.equal((await put({ on_duty: false })).status, 200)
      assert.equal(await alertPoint(user.id), null)
      // The home location: used while no availability point is set.
      assert.equal((await t.post('/users/me/location', { latitude: 52.52, longitude: 13.405 }, user.token)).status, 200)
      const onDuty = await put({ on_duty: true })
      assert.equal(onDuty.status, 200, onDuty.text)
      assert.equal(onDuty.body.uses_home_location, true)
      assert.equal(onDuty.body.latitude, null)
      let point = await alertPoint(user.id)
      assert.ok(Math.abs(point!.lat - 52.52) < 1e-6 && Math.abs(point!.lon - 13.405) < 1e-6)
      // Moving home moves the alert point.
      await t.post('/users/me/location', { latitude: 50.11, longitude: 8.68 }, user.token)
      point = await alertPoint(user.id)
      assert.ok(Math.abs(point!.lat - 50.11) < 1e-6 && Math.abs(point!.lon - 8.68) < 1e-6)
      // An availability point wins over home, and a later home move leaves it alone.
      await put({ latitude: 48.14, longitude: 11.58 })
      await t.post('/users/me/location', { latitude: 53.55, longitude: 9.99 }, user.token)
      point = await alertPoint(user.id)
      assert.ok(Math.abs(point!.lat - 48.14) < 1e-6 && Math.abs(point!.lon - 11.58) < 1e-6)
      // Both null: back to home.
      const home = await put({ latitude: null, longitude: null })
      assert.equal(home.body.uses_home_location, true)
      point = await alertPoint(user.id)
      assert.ok(Math.abs(point!.lat - 53.55) < 1e-6 && Math.abs(point!.lon - 9.99) < 1e-6)
    })

    it('alerts_last_24h counts the request_alert notifications of the last 24 hours', async () => {
      const user = await t.register()
      const requester = await t.register()
      const [request] = await t.db.query<{ id: number }>(`INSERT INTO requests (requester_id, request_type_id, title, description, latitude, longitude, address, urgency, status)
        VALUES ($1, 1, 'Alerted', 'Alerted', 52.5, 13.4, 'Street 1', 'low', 'approved') RETURNING id`, [requester.id])
      await t.db.query(`INSERT INTO notifications (user_id, type, request_id, data, created_at) VALUES
        ($1, 'request_alert', $2, '{}', now() - interval '1 hour'), ($1, 'request_alert', $2, '{}', now() - interval '25 hours'),
        ($1, 'request_alert_closed', $2, '{}', now())`, [user.id, request!.id])
      assert.equal((await t.get('/users/me/availability', user.token)).body.alerts_last_24h, 1)
    })
  })
}
