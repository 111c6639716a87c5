import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { gridPoint } from '../../src/lib/grid.js'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'
import { createRequest, destination, haversine } from '../helpers/requests.js'

/**
 * docs/privacy.md › `LOCATION_PRIVACY=grid`: the attacks on a request's place, run by a registered volunteer against two requests whose
 * exact points differ but lie in one grid cell. Under LOCATION_PRIVACY=grid every answer treats the two
 * alike (membership and distance_meters); under exact the same attack puts each within a metre of its
 * point, which shows the attack is real and the test can fail.
 */

const G = 300

/** A fixed pseudo-random sequence, so a failure can be replayed. */
function random (seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648
    return state / 2147483648
  }
}

interface Point { lat: number, lon: number }

/**
 * Gauss-Newton on the service's sphere: the point whose great-circle distances to the origins best fit
 * the measured ones. Three origins suffice in principle; fifty average out nothing, since nothing is noisy.
 */
function trilaterate (origins: readonly Point[], distances: readonly number[], start: Point): Point {
  let p = { ...start }
  const h = 1e-7
  for (let iteration = 0; iteration < 50; iteration++) {
    let a11 = 0; let a12 = 0; let a22 = 0; let b1 = 0; let b2 = 0
    for (const [i, o] of origins.entries()) {
      const r = haversine(o.lat, o.lon, p.lat, p.lon) - distances[i]!
      const jLat = (haversine(o.lat, o.lon, p.lat + h, p.lon) - haversine(o.lat, o.lon, p.lat, p.lon)) / h
      const jLon = (haversine(o.lat, o.lon, p.lat, p.lon + h) - haversine(o.lat, o.lon, p.lat, p.lon)) / h
      a11 += jLat * jLat; a12 += jLat * jLon; a22 += jLon * jLon; b1 += jLat * r; b2 += jLon * r
    }
    const det = a11 * a22 - a12 * a12
    const dLat = (a22 * b1 - a12 * b2) / det
    const dLon = (a11 * b2 - a12 * b1) / det
    p = { lat: p.lat - dLat, lon: p.lon - dLon }
    if (Math.abs(dLat) < 1e-12 && Math.abs(dLon) < 1e-12) break
  }
  return p
}

for (const engine of engines()) {
  for (const mode of ['grid', 'exact'] as const) {
    describe(`locating a request's home through the searches, LOCATION_PRIVACY=${mode} (${engine})`, () => {
      let t: TestApp
      let attacker: Account
      const cell = gridPoint(48.137, 11.575, G)
      // Two exact points in one cell, 150 m apart, neither at the centre.
      const a = { lat: cell.latitude + 60 / 111195, lon: cell.longitude - 0.0008 }
      const b = { lat: cell.latitude - 70 / 111195, lon: cell.longitude + 0.0011 }
      let ids: { a: number, b: number }

      before(async () => {
        t = await startApp(engine, { locationPrivacy: mode, mapGridMeters: G })
        const requester = await t.register()
        const moderator = await t.registerWithRole('moderator')
        attacker = await t.register()
        assert.deepEqual(gridPoint(a.lat, a.lon, G), cell)
        assert.deepEqual(gridPoint(b.lat, b.lon, G), cell)
        const created = []
        for (const p of [a, b]) {
          const request = await createRequest(t, requester.token, { latitude: p.lat, longitude: p.lon })
          assert.equal((await t.post(`/moderation/requests/${request.id}/approve`, {}, moderator.token)).status, 200)
          created.push(request.id)
        }
        ids = { a: created[0], b: created[1] }
      })
      after(() => t.close())

      /** The attacker's view of both requests in one answer: present or not, and the distance. */
      const seen = (items: any[]) => {
        const find = (id: number) => items.find((item) => item.id === id)
        return { a: find(ids.a), b: find(ids.b) }
      }

      it('trilateration from 50 origins', async () => {
        const next = random(13)
        const origins: Point[] = []
        const distances = { a: [] as number[], b: [] as number[] }
        for (let i = 0; i < 50; i++) {
          const origin = destination(cell.latitude, cell.longitude, next() * 360, 200 + next() * 3000)
          origins.push(origin)
          const res = await t.get(`/requests/nearby?lat=${origin.lat}&lon=${origin.lon}&radius=10000&limit=100`, attacker.token)
          assert.equal(res.status, 200)
          const both = seen(res.body)
          assert.ok(both.a !== undefined && both.b !== undefined)
          distances.a.push(both.a.distance_meters)
          distances.b.push(both.b.distance_meters)
          if (mode === 'grid') assert.equal(both.a.distance_meters, both.b.distance_meters, `origin ${i}`)
        }
        const centroid = { lat: origins.reduce((sum, o) => sum + o.lat, 0) / origins.length, lon: origins.reduce((sum, o) => sum + o.lon, 0) / origins.length }
        const estimate = { a: trilaterate(origins, distances.a, centroid), b: trilaterate(origins, distances.b, centroid) }
        if (mode === 'grid') {
          // Both land on the cell's centre: nothing about either exact point is learnt.
          assert.deepEqual(distances.a, distances.b)
          assert.ok(haversine(estimate.a.lat, estimate.a.lon, cell.latitude, cell.longitude) < 1)
        } else {
          assert.ok(haversine(estimate.a.lat, estimate.a.lon, a.lat, a.lon) < 1, 'request a located to within a metre')
          assert.ok(haversine(estimate.b.lat, estimate.b.lon, b.lat, b.lon) < 1, 'request b located to within a metre')
        }
      })

      it('100 radius-bisection queries', async () => {
        // From 10 origins, 10 halvings each of the radius at which request a enters the answer.
        const next = random(7)
        const found: Array<{ origin: Point, radius: number }> = []
        let differed = false
        for (let o = 0; o < 10; o++) {
          const origin = destination(cell.latitude, cell.longitude, next() * 360, 1000 + next() * 2000)
          let low = 100
          let high = 5000
          for (let step = 0; step < 10; step++) {
            const radius = (low + high) / 2
            const res = await t.get(`/requests/nearby?lat=${origin.lat}&lon=${origin.lon}&radius=${radius}&limit=100`, attacker.token)
            const both = seen(res.body)
            if ((both.a === undefined) !== (both.b === undefined)) differed = true
            if (mode === 'grid') {
              assert.equal(both.a === undefined, both.b === undefined, `origin ${o}, radius ${radius}`)
              assert.equal(both.a?.distance_meters, both.b?.distance_meters)
            }
            if (both.a === undefined) low = radius
            else high = radius
          }
          found.push({ origin, radius: (low + high) / 2 })
        }
        if (mode === 'exact') {
          assert.ok(differed, 'some radius separates the two requests')
          // Each threshold is a's distance from that origin, to within (5000 - 100) / 2^10 ≈ 5 m.
          for (const { origin, radius } of found) assert.ok(Math.abs(radius - haversine(origin.lat, origin.lon, a.lat, a.lon)) < 5)
        } else {
          for (const { origin, radius } of found) assert.ok(Math.abs(radius - haversine(origin.lat, origin.lon, cell.latitude, cell.longitude)) < 5)
        }
      })

      it('100 rectangle-bisection queries', async () => {
        // Each edge of a 2 km box is moved 25 times towards request a, keeping it inside when it is.
        let box = { minLat: cell.latitude - 0.01, maxLat: cell.latitude + 0.01, minLon: cell.longitude - 0.015, maxLon: cell.longitude + 0.015 }
        let differed = false
        const edges = ['minLat', 'maxLat', 'minLon', 'maxLon'] as const
        for (const edge of edges) {
          for (let step = 0; step < 25; step++) {
            const isMin = edge.startsWith('min')
            const other = (isMin ? edge.replace('min', 'max') : edge.replace('max', 'min')) as typeof edge
            const tried = { ...box, [edge]: (box[edge] + box[other]) / 2 }
            const res = await t.get(`/requests/bounds?min_lat=${tried.minLat}&max_lat=${tried.maxLat}&min_lon=${tried.minLon}&max_lon=${tried.maxLon}`, attacker.token)
            assert.equal(res.status, 200)
            const both = seen(res.body)
            if ((both.a === undefined) !== (both.b === undefined)) differed = true
            if (mode === 'grid') assert.equal(both.a === undefined, both.b === undefined, `${edge} step ${step}`)
            // Inside: the edge moves; outside: request a is beyond the middle, so the opposite edge moves there.
            box = both.a !== undefined ? tried : { ...box, [other]: tried[edge] }
          }
        }
        const estimate = { lat: (box.minLat + box.maxLat) / 2, lon: (box.minLon + box.maxLon) / 2 }
        if (mode === 'exact') {
          assert.ok(differed, 'some rectangle separates the two requests')
          assert.ok(haversine(estimate.lat, estimate.lon, a.lat, a.lon) < 1, 'request a located to within a metre')
        } else {
          // All the attacker narrowed down is the cell's centre, which both requests share.
          assert.ok(haversine(estimate.lat, estimate.lon, cell.latitude, cell.longitude) < 1)
        }
      })
    })
  }
}
