import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Account, TestApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'
import { insertRequests, setStatus, whileFailing, type Spot } from '../helpers/requests.js'
import { BOUNDS_CAP, region, REQUEST_STATUSES, SEARCH_ITEM_FIELDS, startSearchApp } from '../helpers/search.js'

for (const engine of engines()) {
  describe(`GET /requests/bounds (${engine})`, () => {
    let t: TestApp
    let owner: Account
    let searcher: Account
    before(async () => { ({ t, owner, searcher } = await startSearchApp(engine, { first_name: 'Bea', last_name: 'Bounds' })) })
    after(() => t.close())

    const bounds = async (query: string) => await t.get(`/requests/bounds?${query}`, searcher.token)
    const box = (minLon: number, minLat: number, maxLon: number, maxLat: number) => `min_lon=${minLon}&min_lat=${minLat}&max_lon=${maxLon}&max_lat=${maxLat}`
    const ids = (res: { body: any[] }) => res.body.map((item) => item.id)
    let clock = Date.parse('2031-01-01T00:00:00Z')
    const tick = () => new Date(clock += 1000)

    it('returns the active requests inside the rectangle, edges included, newest first', async () => {
      const at = region()
      const spots: Spot[] = [
        { lat: at.lat, lon: at.lon }, // south-west corner
        { lat: at.lat + 0.1, lon: at.lon + 0.2 }, // north-east corner
        { lat: at.lat + 0.05, lon: at.lon + 0.1 }, // middle
        { lat: at.lat - 0.0001, lon: at.lon + 0.1 }, // just south
        { lat: at.lat + 0.05, lon: at.lon + 0.2001 }, // just east
      ].map((spot) => ({ ...spot, createdAt: tick() }))
      const [sw, ne, middle] = await insertRequests(t, owner.id, spots)
      const res = await bounds(box(at.lon, at.lat, at.lon + 0.2, at.lat + 0.1))
      assert.equal(res.status, 200)
      assert.deepEqual(ids(res), [middle, ne, sw])
      assert.equal(res.headers['x-result-truncated'], undefined)
      assert.deepEqual(Object.keys(res.body[0]).sort(), SEARCH_ITEM_FIELDS)
      assert.equal(res.body[0].requester_name, 'Bea Bounds')
    })

    it('finds only requests in pending_moderation, approved and in_progress', async () => {
      const at = region()
      const inserted = await insertRequests(t, owner.id, REQUEST_STATUSES.map((status) => ({ lat: at.lat + 0.01, lon: at.lon + 0.01, status, createdAt: tick() })))
      const res = await bounds(box(at.lon, at.lat, at.lon + 0.1, at.lat + 0.1))
      assert.deepEqual(ids(res), inserted.slice(0, 3).reverse())
    })

    it('honours a rectangle across the antimeridian (min_lon > max_lon)', async () => {
      const lat = -33.3 // no region() lies here
      const [east, west, onEdge, onOtherEdge] = await insertRequests(t, owner.id, [
        { lat, lon: 179.5, createdAt: tick() },
        { lat, lon: -179.5, createdAt: tick() },
        { lat, lon: 180, createdAt: tick() },
        { lat, lon: -180, createdAt: tick() },
        { lat, lon: 0, createdAt: tick() }, // the other side of the world
        { lat, lon: 178.9, createdAt: tick() }, // just west of min_lon
        { lat, lon: -178.9, createdAt: tick() }, // just east of max_lon
      ])
      const across = await bounds(box(179, lat - 0.01, -179, lat + 0.01))
      assert.equal(across.status, 200)
      assert.deepEqual(ids(across), [onOtherEdge, onEdge, west, east])
      // The same corners the other way round are the rest of the world.
      const rest = await bounds(box(-179, lat - 0.01, 179, lat + 0.01))
      assert.equal(rest.body.length, 3)
    })

    it('returns at most the cap, newest first, and says so in X-Result-Truncated', async () => {
      const at = region()
      const inserted = await insertRequests(t, owner.id, Array.from({ length: BOUNDS_CAP + 2 }, (_, i) => ({ lat: at.lat + i * 0.001, lon: at.lon, createdAt: tick() })))
      const res = await bounds(box(at.lon - 0.1, at.lat - 0.1, at.lon + 0.1, at.lat + 0.1))
      assert.equal(res.status, 200)
      assert.deepEqual(ids(res), [...inserted].reverse().slice(0, BOUNDS_CAP))
      assert.equal(res.headers['x-result-truncated'], 'true')
      // Exactly the cap is a whole answer.
      await setStatus(t, inserted[0]!, 'completed')
      await setStatus(t, inserted[1]!, 'completed')
      const whole = await bounds(box(at.lon - 0.1, at.lat - 0.1, at.lon + 0.1, at.lat + 0.1))
      assert.equal(whole.body.length, BOUNDS_CAP)
      assert.equal(whole.headers['x-result-truncated'], undefined)
    })

    it('ignores limit and offset', async () => {
      const at = region()
      const inserted = await insertRequests(t, owner.id, [0, 1, 2].map(() => ({ lat: at.lat, lon: at.lon, createdAt: tick() })))
      const res = await bounds(`${box(at.lon, at.lat, at.lon + 0.1, at.lat + 0.1)}&limit=1&offset=1`)
      assert.deepEqual(ids(res), [...inserted].reverse())
    })

    it('takes a rectangle of zero size, and the whole world', async () => {
      const at = region()
      const [exact] = await insertRequests(t, owner.id, Array.from({ length: BOUNDS_CAP + 1 }, (_, i) => ({ lat: at.lat + i * 0.00001, lon: at.lon, createdAt: tick() })))
      assert.deepEqual(ids(await bounds(box(at.lon, at.lat, at.lon, at.lat))), [exact])
      const world = await bounds(box(-180, -90, 180, 90))
      assert.equal(world.status, 200)
      assert.equal(world.body.length, BOUNDS_CAP)
      assert.equal(world.headers['x-result-truncated'], 'true')
    })

    const full = { min_lon: '13.3', min_lat: '52.4', max_lon: '13.5', max_lat: '52.6' }
    const query = (over: Record<string, string | undefined>) => Object.entries({ ...full, ...over })
      .filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${v}`).join('&')
    const cases: Array<[Record<string, string | undefined>, string]> = [
      [{ min_lon: undefined }, 'min_lon, min_lat, max_lon, max_lat are required'],
      [{ min_lat: undefined }, 'min_lon, min_lat, max_lon, max_lat are required'],
      [{ max_lon: undefined }, 'min_lon, min_lat, max_lon, max_lat are required'],
      [{ max_lat: '' }, 'min_lon, min_lat, max_lon, max_lat are required'],
      [{ min_lon: 'west' }, 'invalid min_lon'],
      [{ min_lon: '-180.1' }, 'invalid min_lon'],
      [{ min_lat: '-90.1' }, 'invalid min_lat'],
      [{ min_lat: 'NaN' }, 'invalid min_lat'],
      [{ max_lon: '180.1' }, 'invalid max_lon'],
      [{ max_lon: '%20' }, 'invalid max_lon'],
      [{ max_lat: '90.1' }, 'invalid max_lat'],
      [{ max_lat: '0x5' }, 'invalid max_lat'],
      [{ min_lat: '52.7' }, 'invalid min_lat'],
      [{ min_lon: '1&min_lon=2' }, 'invalid min_lon'],
    ]
    for (const [over, error] of cases) {
      it(`answers 400 ${error} for ${JSON.stringify(over)}`, async () => {
        const res = await bounds(query(over))
        assert.equal(res.status, 400)
        assert.deepEqual(res.body, { error })
      })
    }

    it('needs a token', async () => {
      const res = await t.get(`/requests/bounds?${query({})}`)
      assert.equal(res.status, 401)
      assert.deepEqual(res.body, { error: 'unauthorized' })
    })

    it('answers 500 failed to find requests when the database fails', async () => {
      await bounds(query({}))
      const res = await whileFailing(t.db, /location <@ cube/, () => bounds(query({})))
      assert.equal(res.status, 500)
      assert.deepEqual(res.body, { error: 'failed to find requests: internal error' })
    })
  })
}
