import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Account, TestApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'
import { createRequest, destination, haversine, insertRequests, whileFailing, type Spot } from '../helpers/requests.js'
import { region, REQUEST_STATUSES, SEARCH_ITEM_FIELDS, startSearchApp } from '../helpers/search.js'

for (const engine of engines()) {
  describe(`GET /requests/nearby (${engine})`, () => {
    let t: TestApp
    let owner: Account
    let searcher: Account
    before(async () => { ({ t, owner, searcher } = await startSearchApp(engine, { first_name: 'Olga', last_name: 'Owner' })) })
    after(() => t.close())

    const nearby = async (query: string, token = searcher.token) => await t.get(`/requests/nearby?${query}`, token)
    const ids = (res: { body: any[] }) => res.body.map((item) => item.id)

    it('returns RequestWithDistance items, distance within 0.5% of the haversine distance', async () => {
      const at = region()
      const spots: Spot[] = [100, 700, 1500, 3000, 4900].map((d, i) => ({ ...destination(at.lat, at.lon, i * 77, d) }))
      const inserted = await insertRequests(t, owner.id, spots)
      const res = await nearby(`lat=${at.lat}&lon=${at.lon}`)
      assert.equal(res.status, 200)
      assert.deepEqual(ids(res), inserted)
      for (const [i, item] of res.body.entries()) {
        assert.deepEqual(Object.keys(item).sort(), [...SEARCH_ITEM_FIELDS, 'distance_meters'].sort())
        assert.equal(item.requester_name, 'Olga Owner')
        assert.equal(item.request_type_name, 'Transport and escort')
        // Against the mean earth radius, an independent model: the service's sphere differs by 0.11%.
        const expected = haversine(at.lat, at.lon, spots[i]!.lat, spots[i]!.lon, 6371008.8)
        assert.ok(Math.abs(item.distance_meters - expected) / expected < 0.005, `${item.distance_meters} vs ${expected}`)
        // On the service's own sphere (earth() = 6378168 m) the two agree to the millimetre.
        assert.ok(Math.abs(item.distance_meters - haversine(at.lat, at.lon, spots[i]!.lat, spots[i]!.lon)) < 0.001)
      }
    })

    it('includes a request just inside the radius and leaves out one just outside, in every direction', async () => {
      const at = region()
      const radius = 1000
      const inside: Spot[] = []
      const outside: Spot[] = []
      for (const bearing of [0, 45, 90, 135, 180, 225, 270, 315]) {
        inside.push(destination(at.lat, at.lon, bearing, radius - 0.5))
        outside.push(destination(at.lat, at.lon, bearing + 10, radius + 0.5))
      }
      for (const spot of inside) assert.ok(haversine(at.lat, at.lon, spot.lat, spot.lon) < radius)
      for (const spot of outside) assert.ok(haversine(at.lat, at.lon, spot.lat, spot.lon) > radius)
      const insideIds = await insertRequests(t, owner.id, inside)
      await insertRequests(t, owner.id, outside)
      const res = await nearby(`lat=${at.lat}&lon=${at.lon}&radius=${radius}&limit=100`)
      assert.equal(res.status, 200)
      assert.deepEqual(new Set(ids(res)), new Set(insideIds))
      for (const item of res.body) assert.ok(item.distance_meters <= radius)
    })

    it('orders nearest first, ties by id', async () => {
      const at = region()
      // Distances out of insertion order, and three requests at the very same point.
      const distances = [2500, 300, 1200, 800, 800, 800, 4000, 50]
      const spots = distances.map((d, i) => destination(at.lat, at.lon, d === 800 ? 30 : i * 45, d))
      const inserted = await insertRequests(t, owner.id, spots)
      const expected = inserted
        .map((id, i) => ({ id, d: haversine(at.lat, at.lon, spots[i]!.lat, spots[i]!.lon) }))
        .sort((a, b) => a.d - b.d || a.id - b.id)
        .map((x) => x.id)
      const res = await nearby(`lat=${at.lat}&lon=${at.lon}`)
      assert.deepEqual(ids(res), expected)
      const d = res.body.map((item: any) => item.distance_meters)
      for (let i = 1; i < d.length; i++) assert.ok(d[i - 1] <= d[i])
    })

    it('pages by limit and offset, keeping ties in id order across page ends', async () => {
      const at = region()
      // One near request, then five at exactly the same point, then one far: pages of 2 cut the tie twice.
      const same = destination(at.lat, at.lon, 90, 2000)
      const spots = [destination(at.lat, at.lon, 0, 500), same, same, same, same, same, destination(at.lat, at.lon, 180, 3000)]
      const inserted = await insertRequests(t, owner.id, [...spots].reverse()) // ids against the distance order
      const byDistance = [...inserted].reverse()
      const expected = [byDistance[0], ...byDistance.slice(1, 6).sort((a, b) => a! - b!), byDistance[6]]
      const pages = []
      for (let offset = 0; offset < 8; offset += 2) {
        const res = await nearby(`lat=${at.lat}&lon=${at.lon}&limit=2&offset=${offset}`)
        assert.equal(res.status, 200)
        pages.push(...ids(res))
      }
      assert.deepEqual(pages, expected)
      assert.deepEqual(ids(await nearby(`lat=${at.lat}&lon=${at.lon}&limit=3&offset=1`)), expected.slice(1, 4))
      assert.deepEqual(ids(await nearby(`lat=${at.lat}&lon=${at.lon}&offset=7`)), [])
    })

    it('cuts a tie by id even when it runs past the rows a page first reads', async () => {
      const at = region()
      // A page of 20 first reads 21 rows in index order; 45 requests at one point make the tie run past
      // them, so the service must read on to know which ids come first. The lower ids enter the index
      // last (finished at first, then reopened), so they are not among the rows read first.
      const same = destination(at.lat, at.lon, 45, 700)
      const near = await insertRequests(t, owner.id, [destination(at.lat, at.lon, 0, 100)])
      const late = await insertRequests(t, owner.id, Array.from({ length: 25 }, () => ({ ...same, status: 'completed' as const })))
      const early = await insertRequests(t, owner.id, Array.from({ length: 20 }, () => same))
      await t.db.query("UPDATE requests SET status = 'approved' WHERE id = ANY($1::bigint[])", [late])
      const tied = [...late, ...early]
      const expected = [...near, ...[...tied].sort((a, b) => a - b)]
      const base = `lat=${at.lat}&lon=${at.lon}&radius=1000`
      assert.deepEqual(ids(await nearby(base)), expected.slice(0, 20))
      assert.deepEqual(ids(await nearby(`${base}&offset=20`)), expected.slice(20, 40))
      assert.deepEqual(ids(await nearby(`${base}&offset=40`)), expected.slice(40))
      assert.deepEqual(ids(await nearby(`${base}&limit=7&offset=30`)), expected.slice(30, 37))
    })

    it('limit and offset never fail: bad values fall back to 20 and 0', async () => {
      const at = region()
      const inserted = await insertRequests(t, owner.id, Array.from({ length: 25 }, (_, i) => destination(at.lat, at.lon, i * 13, 100 + i * 50)))
      const base = `lat=${at.lat}&lon=${at.lon}`
      assert.deepEqual(ids(await nearby(base)), inserted.slice(0, 20))
      assert.deepEqual(ids(await nearby(`${base}&limit=100`)), inserted)
      assert.deepEqual(ids(await nearby(`${base}&limit=5&offset=20`)), inserted.slice(20))
      for (const limit of ['0', '101', 'abc', '-1', '']) {
        assert.deepEqual(ids(await nearby(`${base}&limit=${limit}`)), inserted.slice(0, 20), `limit=${limit}`)
      }
      for (const offset of ['-3', 'x', '']) {
        assert.deepEqual(ids(await nearby(`${base}&limit=3&offset=${offset}`)), inserted.slice(0, 3), `offset=${offset}`)
      }
    })

    it('finds only requests in pending_moderation, approved and in_progress', async () => {
      const at = region()
      const inserted = await insertRequests(t, owner.id, REQUEST_STATUSES.map((status, i) => ({ ...destination(at.lat, at.lon, 0, 100 * (i + 1)), status })))
      const res = await nearby(`lat=${at.lat}&lon=${at.lon}`)
      assert.deepEqual(ids(res), inserted.slice(0, 3))
      assert.deepEqual(res.body.map((item: any) => item.status), ['pending_moderation', 'approved', 'in_progress'])
    })

    it('follows a request through its lifecycle: cancelled, it drops out', async () => {
      const at = region()
      const created = await createRequest(t, owner.token, { latitude: at.lat, longitude: at.lon })
      assert.deepEqual(ids(await nearby(`lat=${at.lat}&lon=${at.lon}`)), [created.id])
      assert.equal((await t.post(`/requests/${created.id}/cancel`, undefined, owner.token)).status, 200)
      assert.deepEqual(ids(await nearby(`lat=${at.lat}&lon=${at.lon}`)), [])
    })

    it('uses 5000 m by default and takes radii from 100 to 50000', async () => {
      const at = region()
      const [near, mid, far] = await insertRequests(t, owner.id, [destination(at.lat, at.lon, 0, 90), destination(at.lat, at.lon, 0, 4990), destination(at.lat, at.lon, 0, 5010)])
      assert.deepEqual(ids(await nearby(`lat=${at.lat}&lon=${at.lon}`)), [near, mid])
      assert.deepEqual(ids(await nearby(`lat=${at.lat}&lon=${at.lon}&radius=100`)), [near])
      assert.deepEqual(ids(await nearby(`lat=${at.lat}&lon=${at.lon}&radius=50000`)), [near, mid, far])
      assert.deepEqual(ids(await nearby(`lat=${at.lat}&lon=${at.lon}&radius=1e4`)), [near, mid, far])
      // A leading plus is part of the one number grammar (src/lib/decimal.ts).
      assert.deepEqual(ids(await nearby(`lat=${at.lat}&lon=${at.lon}&radius=%2B100`)), [near])
      assert.deepEqual(ids(await nearby(`lat=${at.lat}&lon=${at.lon}&radius=`)), [near, mid])
    })

    it('works at the antimeridian and at a pole', async () => {
      const at = { lat: -16.5, lon: 179.999 }
      const [east, west] = await insertRequests(t, owner.id, [destination(at.lat, at.lon, 90, 400), destination(at.lat, at.lon, 270, 200)])
      assert.ok(destination(at.lat, at.lon, 90, 400).lon < 0)
      const res = await nearby(`lat=${at.lat}&lon=${at.lon}&radius=1000`)
      assert.deepEqual(ids(res), [west, east])
      const [pole] = await insertRequests(t, owner.id, [{ lat: 89.999, lon: 45 }])
      assert.deepEqual(ids(await nearby('lat=90&lon=-180&radius=200')), [pole])
    })

    for (const [query, error] of [
      ['', 'lat and lon are required'],
      ['lat=52.5', 'lat and lon are required'],
      ['lon=13.4', 'lat and lon are required'],
      ['lat=&lon=13.4', 'lat and lon are required'],
      ['lat=52.5&lon=', 'lat and lon are required'],
      ['lat=abc&lon=13.4', 'invalid latitude'],
      ['lat=90.0001&lon=13.4', 'invalid latitude'],
      ['lat=-90.0001&lon=13.4', 'invalid latitude'],
      ['lat=%20&lon=13.4', 'invalid latitude'],
      ['lat=NaN&lon=13.4', 'invalid latitude'],
      ['lat=Infinity&lon=13.4', 'invalid latitude'],
      ['lat=0x10&lon=13.4', 'invalid latitude'],
      ['lat=1&lat=2&lon=13.4', 'invalid latitude'],
      ['lat=52.5&lon=180.0001', 'invalid longitude'],
      ['lat=52.5&lon=-180.0001', 'invalid longitude'],
      ['lat=52.5&lon=east', 'invalid longitude'],
      ['lat=52.5&lon=13.4&radius=99', 'invalid radius'],
      ['lat=52.5&lon=13.4&radius=50001', 'invalid radius'],
      ['lat=52.5&lon=13.4&radius=far', 'invalid radius'],
      ['lat=52.5&lon=13.4&radius=%20', 'invalid radius'],
      ['lat=52.5&lon=13.4&radius=1&radius=2', 'invalid radius'],
    ] as const) {
      it(`answers 400 ${error} for ?${query}`, async () => {
        const res = await nearby(query)
        assert.equal(res.status, 400)
        assert.deepEqual(res.body, { error })
      })
    }

    it('needs a token', async () => {
      const res = await t.get('/requests/nearby?lat=1&lon=1')
      assert.equal(res.status, 401)
      assert.deepEqual(res.body, { error: 'unauthorized' })
    })

    it('answers 500 failed to find requests when the database fails', async () => {
      await nearby('lat=1&lon=1')
      const res = await whileFailing(t.db, /AS knn\s+FROM requests r/, () => nearby('lat=1&lon=1'))
      assert.equal(res.status, 500)
      assert.deepEqual(res.body, { error: 'failed to find requests: internal error' })
    })
  })
}
