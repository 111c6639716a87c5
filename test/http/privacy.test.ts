import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildApp } from '../../src/app.js'
import { gridPoint } from '../../src/lib/grid.js'
import { refreshGridPoints } from '../../src/data-protection/privacy/retention.js'
import { startApp, testConfig, TEST_SECRET, type Account, type TestApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'
import { approvedRequest, assignedRequest, REQUEST_INPUT } from '../helpers/lifecycle.js'
import { createRequest, haversine, requestInput } from '../helpers/requests.js'

/** docs/privacy.md through HTTP: the `location` field, grid and parties searches, export and erasure. */

/** A DELETE without any body. */
const NO_BODY = Symbol('no body')

const exact = (lat: number, lon: number) => ({ latitude: lat, longitude: lon, precision_meters: 0 })
const approx = (lat: number, lon: number, g: number) => ({ ...gridPoint(lat, lon, g), precision_meters: g })

for (const engine of engines()) {
  describe(`the location field (map.md) (${engine})`, () => {
    const G = 1000
    let t: TestApp
    let moderator: Account
    before(async () => {
      t = await startApp(engine, { mapGridMeters: G })
      moderator = await t.registerWithRole(2)
    })
    after(() => t.close())

    it('is exact for the requester, moderators and the assigned volunteer while in_progress or completed; the grid cell centre for everyone else', async () => {
      const requester = await t.register()
      const volunteer = await t.register()
      const stranger = await t.register()
      const { requestId } = await assignedRequest(t, requester, moderator, volunteer)
      const { latitude: lat, longitude: lon } = REQUEST_INPUT
      const seen = async (account: Account) => (await t.get(`/requests/${requestId}`, account.token)).body.location
      assert.deepEqual(await seen(requester), exact(lat, lon))
      assert.deepEqual(await seen(moderator), exact(lat, lon))
      assert.deepEqual(await seen(t.admin), exact(lat, lon))
      assert.deepEqual(await seen(volunteer), exact(lat, lon))
      assert.deepEqual(await seen(stranger), approx(lat, lon, G))
      assert.notDeepEqual(approx(lat, lon, G), exact(lat, lon))
      // In lists too: the stranger's search, the requester's own list, the moderator's decisions.
      const near = await t.get(`/requests/nearby?lat=${lat}&lon=${lon}`, stranger.token)
      assert.deepEqual(near.body.find((item: any) => item.id === requestId).location, approx(lat, lon, G))
      const mine = await t.get('/requests/my', requester.token)
      assert.deepEqual(mine.body.find((item: any) => item.id === requestId).location, exact(lat, lon))
      const decided = await t.get('/moderation/requests/my', moderator.token)
      assert.deepEqual(decided.body.find((item: any) => item.id === requestId).location, exact(lat, lon))
      // Completed: the volunteer still sees it exactly.
      assert.equal((await t.post(`/requests/${requestId}/complete`, { rating: 5 }, requester.token)).status, 200)
      assert.deepEqual(await seen(volunteer), exact(lat, lon))
    })

    it('is approximate for a volunteer who only responded (not assigned), and for the volunteer of an approved request again', async () => {
      const requester = await t.register()
      const volunteer = await t.register()
      const requestId = await approvedRequest(t, requester, moderator)
      assert.equal((await t.post(`/requests/${requestId}/responses`, { message: 'I can' }, volunteer.token)).status, 201)
      const res = await t.get(`/requests/${requestId}`, volunteer.token)
      assert.deepEqual(res.body.location, approx(REQUEST_INPUT.latitude, REQUEST_INPUT.longitude, G))
    })

    it('gives two requests in one cell the same approximate point, the same on every call', async () => {
      const requester = await t.register()
      const stranger = await t.register()
      const centre = gridPoint(10, 20, G)
      const a = await createRequest(t, requester.token, { latitude: centre.latitude + 0.001, longitude: centre.longitude - 0.001 })
      const b = await createRequest(t, requester.token, { latitude: centre.latitude - 0.002, longitude: centre.longitude + 0.002 })
      const locations = []
      for (const id of [a.id, b.id, a.id]) locations.push((await t.get(`/requests/${id}`, stranger.token)).body.location)
      assert.deepEqual(locations, [{ ...centre, precision_meters: G }, { ...centre, precision_meters: G }, { ...centre, precision_meters: G }])
    })

    it('follows MAP_GRID_METERS after a restart with another value: stored grid points are recomputed at start-up', async () => {
      const requester = await t.register()
      const stranger = await t.register()
      const created = await createRequest(t, requester.token, { latitude: -33.8688, longitude: 151.2093 })
      // Another instance of the service on the same database with a 200 m grid (PGlite: the same database
      // object), started as src/main.ts starts one: the grid points first.
      assert.ok(await refreshGridPoints(t.db, 200) >= 1)
      const other = await buildApp({ config: testConfig({ mapGridMeters: 200 }), db: t.db, jwtSecret: TEST_SECRET })
      try {
        await other.ready()
        const [row] = await t.db.query<any>('SELECT grid_latitude, grid_longitude, grid_meters FROM requests WHERE id = $1', [created.id])
        const expected = gridPoint(-33.8688, 151.2093, 200)
        assert.deepEqual({ latitude: row.grid_latitude, longitude: row.grid_longitude, g: row.grid_meters }, { ...expected, g: 200 })
        const res = await other.inject({ method: 'GET', url: `/api/v1/requests/${created.id}`, headers: { authorization: `Bearer ${stranger.token}` } })
        assert.deepEqual(res.json().location, { ...expected, precision_meters: 200 })
      } finally {
        await other.close()
      }
      // Back on this instance's setting: it shows the same formula's point for its grid size.
      assert.deepEqual((await t.get(`/requests/${created.id}`, stranger.token)).body.location, approx(-33.8688, 151.2093, G))
    })
  })

  describe(`LOCATION_PRIVACY=grid and UNMODERATED_IN_SEARCH=parties (${engine})`, () => {
    const G = 300
    let t: TestApp
    let moderator: Account
    let requester: Account
    let searcher: Account
    before(async () => {
      t = await startApp(engine, { locationPrivacy: 'grid', unmoderatedInSearch: 'parties', mapGridMeters: G })
      moderator = await t.registerWithRole(2)
      requester = await t.register()
      searcher = await t.register()
    })
    after(() => t.close())

    it('measures, orders and tests the radius against the grid point for volunteers, against the exact point for moderators', async () => {
      const cell = gridPoint(40, 10, G)
      // Exact point 120 m north of the cell centre (still in the cell: it is 300 m tall).
      const point = { lat: cell.latitude + 120 / 111195, lon: cell.longitude }
      assert.deepEqual(gridPoint(point.lat, point.lon, G), cell)
      const { id } = await createRequest(t, requester.token, { latitude: point.lat, longitude: point.lon })
      assert.equal((await t.post(`/moderation/requests/${id}/approve`, {}, moderator.token)).status, 200)
      // From 1000 m south of the centre: the exact point is 1120 m away, the grid point 1000 m.
      const origin = { lat: cell.latitude - 1000 / 111195, lon: cell.longitude }
      const item = async (token: string, radius: number) =>
        (await t.get(`/requests/nearby?lat=${origin.lat}&lon=${origin.lon}&radius=${radius}`, token)).body.find((i: any) => i.id === id)
      const asVolunteer = await item(searcher.token, 1050)
      assert.ok(asVolunteer, 'inside 1050 m by its grid point')
      assert.ok(Math.abs(asVolunteer.distance_meters - haversine(origin.lat, origin.lon, cell.latitude, cell.longitude)) < 0.001)
      assert.deepEqual(asVolunteer.location, { ...cell, precision_meters: G })
      assert.equal(await item(moderator.token, 1050), undefined, 'a moderator searches exact points: 1120 m is outside 1050 m')
      const asModerator = await item(moderator.token, 1200)
      assert.ok(Math.abs(asModerator.distance_meters - haversine(origin.lat, origin.lon, point.lat, point.lon)) < 0.001)
      // Bounds: a rectangle holding the exact point but not the grid point finds it only for moderators.
      const box = `min_lon=${point.lon - 0.001}&max_lon=${point.lon + 0.001}&min_lat=${point.lat - 0.0001}&max_lat=${point.lat + 0.0001}`
      const inBox = async (token: string) => (await t.get(`/requests/bounds?${box}`, token)).body.map((i: any) => i.id)
      assert.deepEqual(await inBox(searcher.token), [])
      assert.deepEqual(await inBox(moderator.token), [id])
      const cellBox = `min_lon=${cell.longitude - 0.0001}&max_lon=${cell.longitude + 0.0001}&min_lat=${cell.latitude - 0.0001}&max_lat=${cell.latitude + 0.0001}`
      assert.deepEqual((await t.get(`/requests/bounds?${cellBox}`, searcher.token)).body.map((i: any) => i.id), [id])
    })

    it('pages through a cell of 150 tied requests by id, each once, whatever the page size', async () => {
      // More than the first read under grid (84 rows), so ties cross reads as well as pages.
      const cell = gridPoint(-33, 151, G)
      const ids: number[] = []
      for (let i = 0; i < 150; i++) {
        const { id } = await createRequest(t, requester.token, { latitude: cell.latitude + (i % 10 - 5) / 111195, longitude: cell.longitude + (Math.floor(i / 10) - 7) / 111195 })
        ids.push(id)
      }
      await t.db.query("UPDATE requests SET status = 'approved' WHERE id = ANY($1::bigint[])", [ids])
      const origin = `lat=${cell.latitude + 0.01}&lon=${cell.longitude}&radius=5000`
      for (const limit of [7, 20, 100]) {
        const seen: number[] = []
        for (let offset = 0; offset < 160; offset += limit) {
          const page = await t.get(`/requests/nearby?${origin}&limit=${limit}&offset=${offset}`, searcher.token)
          assert.equal(page.status, 200)
          seen.push(...page.body.map((item: any) => item.id))
        }
        assert.deepEqual(seen, ids, `limit ${limit}`)
      }
    })

    it('keeps requests in pending_moderation out of other people\'s searches, shows them to their requester and to moderators', async () => {
      const at = { lat: -20, lon: -50 }
      const pending = await createRequest(t, requester.token, { latitude: at.lat, longitude: at.lon })
      const near = `/requests/nearby?lat=${at.lat}&lon=${at.lon}`
      const box = `/requests/bounds?min_lon=${at.lon - 0.1}&max_lon=${at.lon + 0.1}&min_lat=${at.lat - 0.1}&max_lat=${at.lat + 0.1}`
      for (const path of [near, box]) {
        assert.deepEqual((await t.get(path, searcher.token)).body.map((i: any) => i.id), [], path)
        assert.deepEqual((await t.get(path, requester.token)).body.map((i: any) => i.id), [pending.id], path)
        assert.deepEqual((await t.get(path, moderator.token)).body.map((i: any) => i.id), [pending.id], path)
      }
      assert.equal((await t.post(`/moderation/requests/${pending.id}/approve`, {}, moderator.token)).status, 200)
      for (const path of [near, box]) assert.deepEqual((await t.get(path, searcher.token)).body.map((i: any) => i.id), [pending.id], path)
    })
  })

  describe(`the default settings follow interface 1.0.1 (${engine})`, () => {
    let t: TestApp
    before(async () => { t = await startApp(engine) })
    after(() => t.close())

    it('shows unmoderated requests to everyone and measures exact distances', async () => {
      const requester = await t.register()
      const searcher = await t.register()
      const at = { lat: 5.001234, lon: 6.004321 }
      const pending = await createRequest(t, requester.token, { latitude: at.lat, longitude: at.lon })
      const res = await t.get('/requests/nearby?lat=5&lon=6', searcher.token)
      const item = res.body.find((i: any) => i.id === pending.id)
      assert.ok(item)
      assert.ok(Math.abs(item.distance_meters - haversine(5, 6, at.lat, at.lon)) < 0.001)
    })
  })

  describe(`GET /users/me/export (${engine})`, () => {
    let t: TestApp
    let moderator: Account
    before(async () => {
      t = await startApp(engine)
      moderator = await t.registerWithRole(2)
    })
    after(() => t.close())

    it('returns everything held about the caller as a download, and no other person\'s e-mail or contact data', async () => {
      const me = await t.register({ first_name: 'Erna', last_name: 'Export', phone: '+4930999888', address: 'Home street 5', city: 'Berlin', latitude: 1.5, longitude: 2.5 })
      const volunteer = await t.register({ phone: '+4930111222', address: 'Volunteer lane 1' })
      const other = await t.register()
      // My request, helped and rated; and my own offer of help on another's request, which rates me.
      const { requestId } = await assignedRequest(t, me, moderator, volunteer)
      assert.equal((await t.post(`/requests/${requestId}/complete`, { rating: 4, comment: 'kind' }, me.token)).status, 200)
      const theirs = await assignedRequest(t, other, moderator, me)
      assert.equal((await t.post(`/requests/${theirs.requestId}/complete`, { rating: 5 }, other.token)).status, 200)

      const res = await t.get('/users/me/export', me.token)
      assert.equal(res.status, 200)
      assert.equal(res.headers['content-disposition'], 'attachment; filename="my-data.json"')
      assert.match(String(res.headers['content-type']), /application\/json/)
      const data = res.body
      assert.deepEqual(Object.keys(data).sort(), ['access_records', 'acting_for', 'availability', 'concerns', 'deliveries', 'exported_at', 'notification_settings', 'notifications', 'profile', 'push_subscriptions', 'ratings_given', 'ratings_received', 'requests', 'responses', 'roles', 'series', 'trusted_people'])
      assert.equal(data.profile.email, me.email)
      assert.equal(data.profile.phone, '+4930999888')
      assert.equal(data.profile.address, 'Home street 5')
      assert.deepEqual([data.profile.latitude, data.profile.longitude], [1.5, 2.5])
      assert.deepEqual(data.roles, ['volunteer'])
      assert.equal(data.requests.length, 1)
      assert.equal(data.requests[0].id, requestId)
      assert.equal(data.requests[0].status, 'completed')
      assert.deepEqual([data.requests[0].latitude, data.requests[0].longitude], [REQUEST_INPUT.latitude, REQUEST_INPUT.longitude])
      assert.equal(data.requests[0].assigned_volunteer_id, volunteer.id)
      assert.deepEqual(data.responses.map((r: any) => [r.request_id, r.status]), [[theirs.requestId, 'accepted']])
      assert.deepEqual(data.ratings_given.map((r: any) => [r.request_id, r.volunteer_id, r.score, r.comment]), [[requestId, volunteer.id, 4, 'kind']])
      assert.deepEqual(data.ratings_received.map((r: any) => [r.request_id, r.rater_id, r.score]), [[theirs.requestId, other.id, 5]])
      for (const secret of [volunteer.email, other.email, '+4930111222', 'Volunteer lane 1']) {
        assert.ok(!res.text.includes(secret), `the export holds ${secret}`)
      }
    })

    it('holds the caller\'s notification settings and deliveries as their own endpoints show them (reach.md § 1)', async () => {
      const person = await t.register()
      assert.equal((await t.get('/users/me/export', person.token)).body.notification_settings, null, 'nothing chosen yet: the defaults apply')
      const saved = await t.request('PUT', '/users/me/notification-settings', { body: { push: { enabled: false }, quiet_hours: { start: '21:30', end: '06:45' } }, token: person.token })
      assert.equal(saved.status, 200, saved.text)
      const data = (await t.get('/users/me/export', person.token)).body
      assert.deepEqual(data.notification_settings, saved.body)
      assert.deepEqual(data.deliveries, (await t.get('/users/me/deliveries?limit=100', person.token)).body)
    })

    it('holds the caller\'s availability and notifications as their own endpoints return them, and nobody else\'s', async () => {
      const me = await t.register()
      const other = await t.register()
      assert.equal((await t.get('/users/me/export', me.token)).body.availability, null, 'never saved: null')
      for (const [account, radius] of [[me, 2000], [other, 9000]] as const) {
        const put = await t.request('PUT', '/users/me/availability', { token: account.token, body: { radius_meters: radius, latitude: 1.25, longitude: 2.5 } })
        assert.equal(put.status, 200, put.text)
      }
      // Each gets request_approved for their own request; `other` also an offer of help on theirs.
      const mine = await approvedRequest(t, me, moderator)
      const theirs = await approvedRequest(t, other, moderator)
      assert.equal((await t.post(`/requests/${theirs}/responses`, { message: 'Me' }, me.token)).status, 201)

      const data = (await t.get('/users/me/export', me.token)).body
      assert.deepEqual(data.availability, (await t.get('/users/me/availability', me.token)).body)
      assert.equal(data.availability.radius_meters, 2000)
      const inbox = (await t.get('/notifications', me.token)).body
      assert.deepEqual(data.notifications, inbox)
      assert.deepEqual(data.notifications.map((n: any) => [n.type, n.request_id]), [['request_approved', mine]])
    })

    it('holds the contact data of the caller\'s own requests', async () => {
      const me = await t.register()
      const created = await createRequest(t, me.token, requestInput({ contact_phone: '+4930555444', contact_notes: 'Back door' }))
      const data = (await t.get('/users/me/export', me.token)).body
      assert.deepEqual(data.requests.map((r: any) => [r.id, r.contact_phone, r.contact_notes]), [[created.id, '+4930555444', 'Back door']])
    })

    it('needs a token', async () => {
      assert.equal((await t.get('/users/me/export')).status, 401)
    })
  })

  describe(`DELETE /users/me racing an accept (${engine})`, () => {
    let t: TestApp
    let moderator: Account
    before(async () => {
      t = await startApp(engine)
      moderator = await t.registerWithRole(2)
    })
    after(() => t.close())

    it('a requester erasing while accepting a response: either erased with the request cancelled, or refused with it in progress', async () => {
      const outcomes = new Set<string>()
      for (let round = 0; round < 8; round++) {
        const requester = await t.register()
        const volunteer = await t.register()
        const requestId = await approvedRequest(t, requester, moderator)
        const response = await t.post(`/requests/${requestId}/responses`, { message: 'I can' }, volunteer.token)
        const [erased, accepted] = await Promise.all([
          t.request('DELETE', '/users/me', { token: requester.token, body: { password: requester.password } }),
          t.post(`/requests/${requestId}/responses/${response.body.id}/accept`, undefined, requester.token),
        ])
        const detail = (await t.get(`/requests/${requestId}`, moderator.token)).body
        const responses = (await t.get(`/requests/${requestId}/responses`, moderator.token)).body.map((r: any) => r.status)
        if (erased.status === 200) {
          assert.equal(detail.status, 'cancelled')
          assert.deepEqual(responses, ['cancelled'])
          outcomes.add('erased')
        } else {
          assert.deepEqual([erased.status, erased.body], [400, { error: 'finish or cancel your open requests first' }])
          assert.equal(accepted.status, 200)
          assert.equal(detail.status, 'in_progress')
          assert.deepEqual(responses, ['accepted'])
          outcomes.add('refused')
        }
      }
      assert.ok(outcomes.size >= 1)
    })

    it('a volunteer erasing while being accepted: either erased with the offer withdrawn, or refused as the assigned volunteer', async () => {
      for (let round = 0; round < 8; round++) {
        const requester = await t.register()
        const volunteer = await t.register()
        const requestId = await approvedRequest(t, requester, moderator)
        const response = await t.post(`/requests/${requestId}/responses`, { message: 'I can' }, volunteer.token)
        const [erased] = await Promise.all([
          t.request('DELETE', '/users/me', { token: volunteer.token, body: { password: volunteer.password } }),
          t.post(`/requests/${requestId}/responses/${response.body.id}/accept`, undefined, requester.token),
        ])
        const detail = (await t.get(`/requests/${requestId}`, requester.token)).body
        if (erased.status === 200) {
          // Never an erased account assigned to a request in progress.
          assert.equal(detail.status, 'approved')
          assert.equal(detail.assigned_volunteer_id, null)
        } else {
          assert.deepEqual([erased.status, erased.body], [400, { error: 'withdraw from your assigned requests first' }])
          assert.equal(detail.status, 'in_progress')
          assert.equal(detail.assigned_volunteer_id, volunteer.id)
        }
      }
    })
  })

  describe(`DELETE /users/me (${engine})`, () => {
    let t: TestApp
    let moderator: Account
    before(async () => {
      t = await startApp(engine)
      moderator = await t.registerWithRole(2)
    })
    after(() => t.close())

    const erase = (account: Account, body: unknown = { password: account.password }) =>
      t.request('DELETE', '/users/me', { token: account.token, ...(body === NO_BODY ? {} : { body }) })

    it('deletes the caller\'s availability and own notifications, and tells the volunteers of cancelled requests', async () => {
      const me = await t.register()
      const pendingOffer = await t.register()
      const assignedElsewhere = await t.register()
      const put = await t.request('PUT', '/users/me/availability', { token: me.token, body: { on_duty: true, latitude: 1.25, longitude: 2.5 } })
      assert.equal(put.status, 200, put.text)
      const requestId = await approvedRequest(t, me, moderator)
      assert.equal((await t.post(`/requests/${requestId}/responses`, { message: 'I can' }, pendingOffer.token)).status, 201)
      assert.ok((await t.get('/notifications', me.token)).body.length >= 2, 'approved, and an offer received')
      // An untouched request of someone else, so nobody else's notifications or availability go.
      await assignedRequest(t, await t.register(), moderator, assignedElsewhere)
      const othersBefore = (await t.get('/notifications', assignedElsewhere.token)).body

      assert.equal((await erase(me)).status, 200)
      assert.deepEqual(await t.db.query('SELECT user_id FROM volunteer_availability WHERE user_id = $1', [me.id]), [])
      assert.deepEqual(await t.db.query('SELECT id FROM notifications WHERE user_id = $1', [me.id]), [])
      const told = (await t.get('/notifications', pendingOffer.token)).body
      assert.deepEqual(told.filter((n: any) => n.type === 'request_cancelled').map((n: any) => n.request_id), [requestId])
      assert.deepEqual((await t.get('/notifications', assignedElsewhere.token)).body, othersBefore)
    })

    it('tells the requesters of the erased volunteer\'s pending offers: response_withdrawn, was_accepted false', async () => {
      const volunteer = await t.register()
      const requester = await t.register()
      const requestId = await approvedRequest(t, requester, moderator)
      const offer = await t.post(`/requests/${requestId}/responses`, { message: 'I can' }, volunteer.token)
      assert.equal(offer.status, 201)

      assert.equal((await erase(volunteer)).status, 200)
      const told = (await t.get('/notifications', requester.token)).body.filter((n: any) => n.type === 'response_withdrawn')
      assert.deepEqual(told.map((n: any) => ({ request_id: n.request_id, data: n.data })), [{ request_id: requestId, data: { response_id: offer.body.id, was_accepted: false } }])
      const responses = (await t.get(`/requests/${requestId}/responses`, requester.token)).body
      assert.deepEqual(responses.map((r: any) => r.status), ['cancelled'])
    })

    it('refuses a wrong or missing password with 401 invalid credentials, changing nothing', async () => {
      const me = await t.register()
      for (const body of [{ password: 'wrong password' }, {}, { password: '' }, NO_BODY]) {
        const res = await erase(me, body)
        assert.equal(res.status, 401, JSON.stringify(body))
        assert.deepEqual(res.body, { error: 'invalid credentials' })
      }
      assert.equal((await t.get('/users/me', me.token)).status, 200)
    })

    it('refuses while the caller has a request in_progress, or is the assigned volunteer of one', async () => {
      const requester = await t.register()
      const volunteer = await t.register()
      const { requestId } = await assignedRequest(t, requester, moderator, volunteer)
      const asRequester = await erase(requester)
      assert.equal(asRequester.status, 400)
      assert.deepEqual(asRequester.body, { error: 'finish or cancel your open requests first' })
      const asVolunteer = await erase(volunteer)
      assert.equal(asVolunteer.status, 400)
      assert.deepEqual(asVolunteer.body, { error: 'withdraw from your assigned requests first' })
      // Nothing changed: both still work, the request is still theirs and in progress.
      const detail = await t.get(`/requests/${requestId}`, requester.token)
      assert.equal(detail.body.status, 'in_progress')
      assert.equal(detail.body.assigned_volunteer_id, volunteer.id)
      assert.equal((await t.get('/users/me', volunteer.token)).status, 200)
    })

    it('refuses the last admin, and erases an admin who is not the last', async () => {
      const res = await erase(t.admin)
      assert.equal(res.status, 400)
      assert.deepEqual(res.body, { error: 'the last admin cannot be erased' })
      const second = await t.registerWithRole(3)
      assert.equal((await erase(second)).status, 200)
      // Now the first is the last again.
      assert.deepEqual((await erase(t.admin)).body, { error: 'the last admin cannot be erased' })
    })

    it('erases: requests cancelled and minimised, responses withdrawn, profile gone, tokens refused, ratings kept; the e-mail registers again', async () => {
      const me = await t.register({ phone: '+4930777666', address: 'My home 1', city: 'Bonn', bio: 'hello', latitude: 50.7, longitude: 7.1 })
      const volunteer = await t.register()
      const stranger = await t.register()
      // A finished request of mine, rated; one approved with a pending response; one pending moderation.
      const done = await assignedRequest(t, me, moderator, volunteer)
      assert.equal((await t.post(`/requests/${done.requestId}/complete`, { rating: 2 }, me.token)).status, 200)
      const approved = await approvedRequest(t, me, moderator)
      assert.equal((await t.post(`/requests/${approved}/responses`, { message: 'I can' }, volunteer.token)).status, 201)
      const pending = await createRequest(t, me.token)
      // My own pending offer of help on a stranger's request.
      const theirs = await approvedRequest(t, stranger, moderator)
      assert.equal((await t.post(`/requests/${theirs}/responses`, { message: 'Me too' }, me.token)).status, 201)
      const ratingBefore = (await t.get(`/users/${volunteer.id}`, volunteer.token)).body.volunteer_rating

      const res = await erase(me)
      assert.equal(res.status, 200)
      assert.deepEqual(res.body, { message: 'account erased' })

      // Old tokens: the access token and the refresh token are refused.
      assert.equal((await t.get('/users/me', me.token)).status, 401)
      assert.equal((await t.post('/auth/refresh', { refresh_token: me.refresh })).status, 401)
      assert.equal((await t.post('/auth/login', { email: me.email, password: me.password })).status, 401)
      // Requests: the open ones cancelled (with their responses), all minimised.
      for (const id of [approved, pending.id]) {
        const detail = await t.get(`/requests/${id}`, moderator.token)
        assert.equal(detail.body.status, 'cancelled')
        assert.equal(detail.body.address, '(removed)')
      }
      const responses = await t.get(`/requests/${approved}/responses`, moderator.token)
      assert.deepEqual(responses.body.map((r: any) => r.status), ['cancelled'])
      const finished = (await t.get(`/requests/${done.requestId}`, moderator.token)).body
      assert.equal(finished.status, 'completed')
      assert.equal(finished.title, REQUEST_INPUT.title)
      assert.deepEqual([finished.description, finished.address], ['(removed)', '(removed)'])
      assert.deepEqual(finished.location, exact(gridPoint(REQUEST_INPUT.latitude, REQUEST_INPUT.longitude, 300).latitude, gridPoint(REQUEST_INPUT.latitude, REQUEST_INPUT.longitude, 300).longitude))
      assert.equal(finished.requester.first_name + ' ' + finished.requester.last_name, 'Former user')
      assert.notEqual(finished.requester.email, me.email)
      // My pending offer of help withdrawn.
      const theirResponses = await t.get(`/requests/${theirs}/responses`, stranger.token)
      assert.deepEqual(theirResponses.body.map((r: any) => r.status), ['cancelled'])
      // The profile: no personal field left.
      const profile = (await t.get(`/users/${me.id}`, moderator.token)).body
      assert.deepEqual([profile.first_name, profile.last_name, profile.phone, profile.address, profile.city, profile.bio], ['Former', 'user', null, null, null, null])
      const [row] = await t.db.query<any>('SELECT latitude, longitude FROM users WHERE id = $1', [me.id])
      assert.deepEqual(row, { latitude: null, longitude: null })
      // Ratings stay: the volunteer's average does not move.
      assert.equal((await t.get(`/users/${volunteer.id}`, volunteer.token)).body.volunteer_rating, ratingBefore)
      // The volunteer whose offer was pending on a cancelled request is told (docs/api/messaging.md), the requester is not.
      const inbox = (await t.get('/notifications', volunteer.token)).body
      assert.deepEqual(inbox.filter((n: any) => n.type === 'request_cancelled').map((n: any) => [n.request_id, n.data]), [[approved, {}]])
      // The e-mail registers again, as a new account.
      const again = await t.post('/auth/register', { email: me.email, password: 'a new password', first_name: 'New', last_name: 'Me' })
      assert.equal(again.status, 201, again.text)
      assert.notEqual(again.body.user.id, me.id)
    })
  })
}
