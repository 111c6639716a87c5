import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { gridPoint } from '../../src/lib/grid.js'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'
import { createRequest, insertRequests, whileFailing } from '../helpers/requests.js'

/** Small, so that the cap is easy to reach. */
const CAP = 4
const G = 300
const box = (minLon: number, minLat: number, maxLon: number, maxLat: number) => `min_lon=${minLon}&min_lat=${minLat}&max_lon=${maxLon}&max_lat=${maxLat}`

for (const engine of engines()) {
  describe(`GET /requests/map (${engine})`, () => {
    let t: TestApp
    let owner: Account
    let searcher: Account
    before(async () => {
      t = await startApp(engine, { mapMarkerCap: CAP, mapGridMeters: G })
      owner = await t.register()
      searcher = await t.register()
    })
    after(() => t.close())

    let clock = Date.parse('2032-01-01T00:00:00Z')
    const tick = () => new Date(clock += 1000)

    it('marks the active requests in the rectangle nearest its centre first, each with only what a marker needs', async () => {
      const at = { lat: 12.3, lon: -45.6 }
      // Inserted farthest first, so that neither id nor age gives the order.
      const spots = [0.03, 0.02, 0.01].map((d, i) => ({ lat: at.lat + d, lon: at.lon - d, createdAt: tick(), urgency: i === 1 ? 'urgent' : 'low', title: `Marker ${i}` }))
      const [far, middle, near] = await insertRequests(t, owner.id, [...spots, { lat: at.lat, lon: at.lon, createdAt: tick(), status: 'completed' }, { lat: at.lat + 0.06, lon: at.lon, createdAt: tick() }], G)
      const rectangle = box(at.lon - 0.05, at.lat - 0.05, at.lon + 0.05, at.lat + 0.05)
      const [map, bounds] = await Promise.all([t.get(`/requests/map?${rectangle}`, searcher.token), t.get(`/requests/bounds?${rectangle}`, searcher.token)])
      assert.equal(map.status, 200)
      assert.equal(map.body.truncated, false)
      assert.deepEqual(map.body.markers.map((m: any) => m.id), [near, middle, far])
      // The same requests as bounds, each with the same location and what a marker shows of it.
      const listed = new Map(bounds.body.map((item: any) => [item.id, item]))
      assert.equal(listed.size, 3)
      for (const marker of map.body.markers) {
        const item: any = listed.get(marker.id)
        assert.deepEqual(marker, { id: item.id, title: item.title, request_type_id: 2, urgency: item.urgency, status: item.status, location: item.location })
      }
      assert.equal(map.body.markers[1].urgency, 'urgent')
      // Someone else's request is shown at the centre of its grid cell.
      assert.deepEqual(map.body.markers[0].location, { ...gridPoint(at.lat + 0.01, at.lon - 0.01, G), precision_meters: G })
    })

    it('shows the requester their own request at its exact point', async () => {
      const point = { latitude: -12.345678, longitude: 67.891234 }
      const { id } = await createRequest(t, owner.token, point)
      const rectangle = box(point.longitude - 0.01, point.latitude - 0.01, point.longitude + 0.01, point.latitude + 0.01)
      const own = (await t.get(`/requests/map?${rectangle}`, owner.token)).body.markers.find((m: any) => m.id === id)
      assert.deepEqual(own.location, { ...point, precision_meters: 0 })
      const other = (await t.get(`/requests/map?${rectangle}`, searcher.token)).body.markers.find((m: any) => m.id === id)
      assert.deepEqual(other.location, { ...gridPoint(point.latitude, point.longitude, G), precision_meters: G })
    })

    it('gives the nearest up to MAP_MARKER_CAP and says truncated; exactly the cap is whole', async () => {
      const at = { lat: -23.4, lon: 101.2 }
      const inserted = await insertRequests(t, owner.id, Array.from({ length: CAP + 1 }, (_, i) => ({ lat: at.lat + (CAP + 1 - i) * 0.001, lon: at.lon, createdAt: tick() })), G)
      const rectangle = box(at.lon - 0.1, at.lat - 0.1, at.lon + 0.1, at.lat + 0.1)
      const cut = await t.get(`/requests/map?${rectangle}`, searcher.token)
      assert.deepEqual(cut.body.markers.map((m: any) => m.id), [...inserted].reverse().slice(0, CAP))
      assert.equal(cut.body.truncated, true)
      await t.db.query("UPDATE requests SET status = 'cancelled' WHERE id = $1", [inserted[CAP]])
      const whole = await t.get(`/requests/map?${rectangle}`, searcher.token)
      assert.deepEqual(whole.body.markers.map((m: any) => m.id), [...inserted].reverse().slice(1))
      assert.equal(whole.body.truncated, false)
    })

    it('honours a rectangle across the antimeridian, nearest its centre (180°) first', async () => {
      const lat = 44.4
      const [east, west] = await insertRequests(t, owner.id, [{ lat, lon: 179.6, createdAt: tick() }, { lat, lon: -179.5, createdAt: tick() }, { lat, lon: 0, createdAt: tick() }], G)
      const res = await t.get(`/requests/map?${box(179, lat - 0.01, -179, lat + 0.01)}`, searcher.token)
      assert.deepEqual(res.body.markers.map((m: any) => m.id), [east, west])
    })

    it('finds the few requests of a sparse view amid many just outside it (read through the rectangle itself)', async () => {
      // A thin rectangle 0.2° wide; 70 requests just north of its centre (more than the 2 · (cap + 1) read nearest).
      const at = { lat: 33.3, lon: -120.5 }
      await insertRequests(t, owner.id, Array.from({ length: 70 }, (_, i) => ({ lat: at.lat + 0.002, lon: at.lon + (i - 35) * 0.00001, createdAt: tick() })), G)
      const [westEnd, eastEnd] = await insertRequests(t, owner.id, [{ lat: at.lat, lon: at.lon - 0.09, createdAt: tick() }, { lat: at.lat, lon: at.lon + 0.095, createdAt: tick() }], G)
      const res = await t.get(`/requests/map?${box(at.lon - 0.1, at.lat - 0.0005, at.lon + 0.1, at.lat + 0.0005)}`, searcher.token)
      assert.deepEqual(res.body.markers.map((m: any) => m.id), [westEnd, eastEnd])
      assert.equal(res.body.truncated, false)
    })

    it('finds a request at the far corner of a view whose centre is crowded by requests outside it', async () => {
      const at = { lat: -41.2, lon: 174.7 }
      await insertRequests(t, owner.id, Array.from({ length: 10 }, () => ({ lat: at.lat + 0.011, lon: at.lon, createdAt: tick() })), G)
      const [corner] = await insertRequests(t, owner.id, [{ lat: at.lat - 0.0099, lon: at.lon + 0.0099, createdAt: tick() }], G)
      const res = await t.get(`/requests/map?${box(at.lon - 0.01, at.lat - 0.01, at.lon + 0.01, at.lat + 0.01)}`, searcher.token)
      assert.deepEqual(res.body.markers.map((m: any) => m.id), [corner])
    })

    it('chooses the markers nearest center_lat/center_lon when given: a view wider than the world asks about what it looks at', async () => {
      const lat = -61.7
      // Twenty requests at longitude 0 would fill the cap nearest the world's middle; one far east is the view's centre.
      await insertRequests(t, owner.id, Array.from({ length: CAP }, (_, i) => ({ lat, lon: i * 0.0001, createdAt: tick() })), G)
      const [east] = await insertRequests(t, owner.id, [{ lat, lon: 150.5, createdAt: tick() }], G)
      const world = box(-180, lat - 0.5, 180, lat + 0.5)
      const middle = await t.get(`/requests/map?${world}`, searcher.token)
      assert.ok(!middle.body.markers.some((m: any) => m.id === east))
      assert.equal(middle.body.truncated, true)
      const centred = await t.get(`/requests/map?${world}&center_lat=${lat}&center_lon=150.4`, searcher.token)
      assert.equal(centred.status, 200)
      assert.equal(centred.body.markers[0].id, east)
      assert.equal(centred.body.markers.length, CAP)
    })

    for (const [query, error] of [
      [`${box(1, 2, 3, 4)}&center_lat=2.5`, 'center_lat and center_lon go together'],
      [`${box(1, 2, 3, 4)}&center_lon=2.5`, 'center_lat and center_lon go together'],
      [`${box(1, 2, 3, 4)}&center_lat=91&center_lon=2`, 'invalid center_lat'],
      [`${box(1, 2, 3, 4)}&center_lat=3&center_lon=east`, 'invalid center_lon'],
      [box(1, 2, 3, 4).replace('min_lon=1&', ''), 'min_lon, min_lat, max_lon, max_lat are required'],
      [box(1, 2, 3, 4).replace('max_lat=4', 'max_lat=north'), 'invalid max_lat'],
      [box(181, 2, 3, 4), 'invalid min_lon'],
      [box(1, 5, 3, 4), 'invalid min_lat'],
    ] as const) {
      it(`answers 400 ${error} for ${query}`, async () => {
        const res = await t.get(`/requests/map?${query}`, searcher.token)
        assert.equal(res.status, 400)
        assert.deepEqual(res.body, { error })
      })
    }

    it('needs a token, and answers 500 failed to find requests when the database fails', async () => {
      assert.deepEqual((await t.get(`/requests/map?${box(1, 2, 3, 4)}`)).body, { error: 'unauthorized' })
      const res = await whileFailing(t.db, /AS knn/, () => t.get(`/requests/map?${box(1, 2, 3, 4)}`, searcher.token))
      assert.equal(res.status, 500)
      assert.deepEqual(res.body, { error: 'failed to find requests: internal error' })
    })
  })

  describe(`GET /requests/map under LOCATION_PRIVACY=grid and UNMODERATED_IN_SEARCH=parties (${engine})`, () => {
    let t: TestApp
    let moderator: Account
    let requester: Account
    let searcher: Account
    before(async () => {
      t = await startApp(engine, { locationPrivacy: 'grid', unmoderatedInSearch: 'parties', mapGridMeters: G, mapMarkerCap: CAP })
      moderator = await t.registerWithRole('moderator')
      requester = await t.register()
      searcher = await t.register()
    })
    after(() => t.close())

    it('finds a request by its grid point for others and by its exact point for moderators, as bounds does', async () => {
      const cell = gridPoint(40, 10, G)
      const point = { latitude: cell.latitude + 120 / 111195, longitude: cell.longitude }
      const { id } = await createRequest(t, requester.token, point)
      const exactBox = box(point.longitude - 0.001, point.latitude - 0.0001, point.longitude + 0.001, point.latitude + 0.0001)
      const cellBox = box(cell.longitude - 0.0001, cell.latitude - 0.0001, cell.longitude + 0.0001, cell.latitude + 0.0001)
      const marked = async (rectangle: string, token: string) => (await t.get(`/requests/map?${rectangle}`, token)).body.markers.map((m: any) => m.id)
      // Unmoderated: only its requester and moderators see it.
      assert.deepEqual(await marked(cellBox, searcher.token), [])
      assert.deepEqual(await marked(exactBox, moderator.token), [id])
      assert.equal((await t.post(`/moderation/requests/${id}/approve`, {}, moderator.token)).status, 200)
      assert.deepEqual(await marked(exactBox, searcher.token), [])
      assert.deepEqual(await marked(cellBox, searcher.token), [id])
      assert.deepEqual(await marked(exactBox, moderator.token), [id])
    })

    it('breaks the ties of one cell by id: every request of a cell is at the same place for others', async () => {
      const cell = gridPoint(-20, 30, G)
      const ids: number[] = []
      for (let i = 0; i < 2 * CAP - 1; i++) {
        ids.push((await createRequest(t, requester.token, { latitude: cell.latitude + (i - 3) / 111195, longitude: cell.longitude })).id)
      }
      await t.db.query("UPDATE requests SET status = 'approved' WHERE id = ANY($1::bigint[])", [ids])
      const res = await t.get(`/requests/map?${box(cell.longitude - 0.01, cell.latitude - 0.01, cell.longitude + 0.01, cell.latitude + 0.01)}`, searcher.token)
      assert.deepEqual(res.body.markers.map((m: any) => m.id), ids.slice(0, CAP))
      assert.equal(res.body.truncated, true)
    })
  })
}

for (const engine of engines()) {
  describe(`GET /map-settings, and the map's and geocoder's hosts in the CSP (${engine})`, () => {
    it('gives OpenStreetMap\'s tiles and credit by default, and lets the page load images from that host only', async () => {
      const t = await startApp(engine)
      try {
        const res = await t.get('/map-settings')
        assert.equal(res.status, 200)
        assert.deepEqual(res.body, { tile_url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', attribution: '© OpenStreetMap contributors', geocoder_url: null })
        // The policy is the page's (the app's at /), not the JSON answer's.
        const csp = String((await t.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } })).headers['content-security-policy'])
        assert.match(csp, /img-src 'self' data: https:\/\/tile\.openstreetmap\.org;/)
        assert.match(csp, /connect-src 'self'(;|$)/)
      } finally {
        await t.close()
      }
    })

    it('gives the configured tile server, credit and geocoder, and lets the page call that geocoder and no other host', async () => {
      const t = await startApp(engine, { mapTileUrl: 'http://tiles.example.org:8080/osm/{z}/{x}/{y}.png?key=public', mapTileAttribution: 'Maps: Example', geocoderUrl: 'https://geo.example.org/nominatim/' })
      try {
        const res = await t.get('/map-settings')
        assert.deepEqual(res.body, { tile_url: 'http://tiles.example.org:8080/osm/{z}/{x}/{y}.png?key=public', attribution: 'Maps: Example', geocoder_url: 'https://geo.example.org/nominatim' })
        const csp = String((await t.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } })).headers['content-security-policy'])
        assert.match(csp, /img-src 'self' data: http:\/\/tiles\.example\.org:8080;/)
        assert.match(csp, /connect-src 'self' https:\/\/geo\.example\.org(;|$)/)
      } finally {
        await t.close()
      }
    })
  })
}
