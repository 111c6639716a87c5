import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildApp } from '../../src/app.js'
import { gridPoint } from '../../src/lib/grid.js'
import { refreshGridPoints } from '../../src/data-protection/privacy/retention.js'
import { startApp, testConfig, TEST_SECRET, type Account, type TestApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'
import { approvedRequest, assignedRequest, REQUEST_INPUT } from '../helpers/lifecycle.js'
import { createRequest, haversine } from '../helpers/requests.js'

/** privacy.md and docs/api/help.md › Maps through HTTP: the `location` field, grid and parties searches. */

const exact = (lat: number, lon: number) => ({ latitude: lat, longitude: lon, precision_meters: 0 })
const approx = (lat: number, lon: number, g: number) => ({ ...gridPoint(lat, lon, g), precision_meters: g })

for (const engine of engines()) {
  describe(`the location field (docs/api/help.md › Maps) (${engine})`, () => {
    const G = 1000
    let t: TestApp
    let moderator: Account
    before(async () => {
      t = await startApp(engine, { mapGridMeters: G })
      moderator = await t.registerWithRole('moderator')
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
      moderator = await t.registerWithRole('moderator')
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
}
