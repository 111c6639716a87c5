import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { boundsBoxes, earthPoint } from '../../src/lib/geo.js'
import { refreshGridPoints } from '../../src/data-protection/privacy/retention.js'
import { boundsStatement } from '../../src/help/requests/search/bounds.js'
import { markersInBoxesStatement, nearestMarkersStatement } from '../../src/help/requests/search/map.js'
import { nearbyStatement, nearbyTake } from '../../src/help/requests/search/nearby.js'
import type { SearchView } from '../../src/help/requests/search/shared.js'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'

/**
 * The searches must stay index-backed as data grows: with 100k requests loaded, the plans
 * of the exact SQL the repository runs use the partial GiST index requests_active_location, and
 * nearby reads it in distance order (KNN, `Order By`) rather than collecting and sorting the circle.
 */

interface PlanNode {
  'Node Type': string
  'Index Name'?: string
  'Relation Name'?: string
  'Order By'?: string
  'Index Cond'?: string
  Plans?: PlanNode[]
}

/** Every node with the chain of its ancestors, root first. */
function walk (node: PlanNode, ancestors: PlanNode[] = []): Array<{ node: PlanNode, ancestors: PlanNode[] }> {
  return [{ node, ancestors }, ...(node.Plans ?? []).flatMap((child) => walk(child, [...ancestors, node]))]
}

async function explain (t: TestApp, statement: { text: string, values: readonly unknown[] }): Promise<PlanNode> {
  const rows = await t.db.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> | string }>(`EXPLAIN (FORMAT JSON) ${statement.text}`, statement.values)
  const plan = rows[0]?.['QUERY PLAN']
  const parsed = typeof plan === 'string' ? JSON.parse(plan) as Array<{ Plan: PlanNode }> : plan
  assert.ok(parsed?.[0] !== undefined, 'EXPLAIN gave no plan')
  return parsed[0].Plan
}

const describePlan = (plan: PlanNode) => JSON.stringify(plan, ['Node Type', 'Index Name', 'Relation Name', 'Order By', 'Index Cond', 'Plans'], 1)

/** No node reads the requests table except through the partial index. */
function assertOnlyIndexReadsRequests (plan: PlanNode, index = 'requests_active_location'): void {
  for (const { node } of walk(plan)) {
    if (node['Relation Name'] === 'requests' && /Scan/.test(node['Node Type']) && node['Node Type'] !== 'Bitmap Heap Scan') {
      assert.equal(node['Index Name'], index, `requests read by ${node['Node Type']}:\n${describePlan(plan)}`)
    }
  }
}

/** One KNN scan of `index` (`Order By` on the distance), and nothing between it and the LIMIT that stops it collects rows to sort them. */
function assertKnnScan (plan: PlanNode, index: string): void {
  const scans = walk(plan).filter(({ node }) => node['Index Name'] === index)
  assert.equal(scans.length, 1, describePlan(plan))
  const [{ node: scan, ancestors }] = scans as [typeof scans[0]]
  assert.equal(scan['Node Type'], 'Index Scan', describePlan(plan))
  assert.match(scan['Order By'] ?? '', /location <-> /, describePlan(plan))
  const limitAt = ancestors.map((a) => a['Node Type']).lastIndexOf('Limit')
  assert.ok(limitAt >= 0, describePlan(plan))
  for (const between of ancestors.slice(limitAt + 1)) assert.ok(!/Sort|Aggregate|Hash|Materialize/.test(between['Node Type']), describePlan(plan))
  assertOnlyIndexReadsRequests(plan, index)
}

for (const engine of engines()) {
  describe(`search plans on 100k requests (${engine})`, () => {
    let t: TestApp
    let user: Account
    before(async () => {
      t = await startApp(engine)
      user = await t.register()
      // 90% in a metro area (Berlin), 10% astride the antimeridian (Fiji); 70% approved, 10% pending,
      // 20% finished. Timestamps one minute apart, so "newest first" is well defined.
      await t.db.query(/* sql */ `
        INSERT INTO requests (requester_id, request_type_id, title, description, latitude, longitude, address, urgency, status, created_at)
        SELECT $1, 1 + i % 6, 'Request ' || i, 'Generated for the plan test', lat, lon, 'Somewhere 1', 'medium',
          CASE WHEN i % 10 < 7 THEN 'approved' WHEN i % 10 = 7 THEN 'pending_moderation'
               WHEN i % 10 = 8 THEN 'completed' ELSE 'cancelled' END,
          now() - i * interval '1 minute'
        FROM generate_series(1, 100000) AS i,
          LATERAL (SELECT CASE WHEN i % 10 = 3 THEN -17 - random() ELSE 52.3 + random() * 0.4 END AS lat,
                          CASE WHEN i % 10 = 3 THEN 178 + random() * 4 - CASE WHEN random() < 0.5 THEN 0 ELSE 360 END
                               ELSE 13.1 + random() * 0.6 END AS lon0) AS p,
          LATERAL (SELECT CASE WHEN lon0 < -180 THEN lon0 + 360 WHEN lon0 > 180 THEN lon0 - 360 ELSE lon0 END AS lon) AS q`,
      [t.admin.id])
      // Rows written by SQL have no grid point until start-up computes them: the same code here.
      await refreshGridPoints(t.db, 300)
      await t.db.query('ANALYZE')
    })
    after(() => t.close())

    it('loaded the data', async () => {
      const [row] = await t.db.query<{ n: number, fiji: number }>(
        'SELECT count(*) AS n, count(*) FILTER (WHERE latitude < 0) AS fiji FROM requests')
      assert.equal(row?.n, 100000)
      assert.equal(row?.fiji, 10000)
    })

    // The radius is no part of this SQL: it is applied to the rows it returns.
    for (const [label, offset, limit] of [['first page', 0, 20], ['full page', 0, 100], ['fifth page', 400, 100]] as const) {
      it(`nearby (${label}) is a KNN scan of requests_active_location with no sort beneath its limit`, async () => {
        const plan = await explain(t, nearbyStatement(earthPoint(52.5, 13.4), nearbyTake(offset + limit + 1), { offset, limit }))
        assertKnnScan(plan, 'requests_active_location')
      })
    }

    // docs/privacy.md › `LOCATION_PRIVACY=grid`: grid searches by a volunteer under LOCATION_PRIVACY=grid and UNMODERATED_IN_SEARCH=parties.
    const gridView = (): SearchView => ({ grid: true, hidePendingFrom: user.id })
    it('grid nearby is a KNN scan of requests_active_grid_location with no sort beneath its limit', async () => {
      const view = gridView()
      const plan = await explain(t, nearbyStatement(earthPoint(52.5, 13.4), nearbyTake(21), { offset: 0, limit: 20 }, view))
      assertKnnScan(plan, 'requests_active_grid_location')
    })

    it('grid bounds finds its candidates through requests_active_grid_location', async () => {
      const view = gridView()
      for (const rectangle of [{ minLon: 13.38, minLat: 52.5, maxLon: 13.42, maxLat: 52.52 }, { minLon: 179.5, minLat: -17.6, maxLon: -179.5, maxLat: -17.2 }]) {
        const boxes = boundsBoxes(rectangle)
        const plan = await explain(t, boundsStatement(boxes, 1001, view))
        const scans = walk(plan).filter(({ node }) => node['Index Name'] === 'requests_active_grid_location')
        assert.equal(scans.length, boxes.length, describePlan(plan))
        for (const { node } of scans) assert.match(node['Index Cond'] ?? '', /grid_location <@ /, describePlan(plan))
        assertOnlyIndexReadsRequests(plan, 'requests_active_grid_location')
      }
    })

    it('nearby is planned once and its prepared plan reused, not planned again for every search', async () => {
      const search = (i: number) => nearbyStatement(earthPoint(52.4 + i * 0.02, 13.4), nearbyTake(21), { offset: 0, limit: 20 })
      // One transaction, so one connection: prepared statements and their plan counts belong to a connection.
      const [counts] = await t.db.transaction(async (tx) => {
        for (let i = 0; i < 10; i++) await tx.query(search(i))
        return await tx.query<{ generic_plans: number, custom_plans: number }>(
          'SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement = $1', [search(0).text])
      })
      assert.ok(counts !== undefined, 'the search ran as a prepared statement')
      // PostgreSQL plans the first five runs for their values, then keeps a generic plan if it is no dearer.
      assert.ok(counts.generic_plans >= 5, `planned afresh ${counts.custom_plans} times, generic plan used ${counts.generic_plans} times`)
    })

    const rectangles = [
      ['a city district', { minLon: 13.38, minLat: 52.5, maxLon: 13.42, maxLat: 52.52 }],
      ['a box across the antimeridian', { minLon: 179.5, minLat: -17.6, maxLon: -179.5, maxLat: -17.2 }],
    ] as const
    for (const [label, rectangle] of rectangles) {
      it(`bounds (${label}) finds its candidates through requests_active_location`, async () => {
        const boxes = boundsBoxes(rectangle)
        const plan = await explain(t, boundsStatement(boxes, 1001))
        const scans = walk(plan).filter(({ node }) => node['Index Name'] === 'requests_active_location')
        assert.equal(scans.length, boxes.length, describePlan(plan))
        for (const { node } of scans) assert.match(node['Index Cond'] ?? '', /location <@ /, describePlan(plan))
        assertOnlyIndexReadsRequests(plan)
      })
    }

    for (const grid of [false, true]) {
      const index = grid ? 'requests_active_grid_location' : 'requests_active_location'
      it(`map's read is a KNN scan of ${index} with no sort beneath its limit; its fallback finds candidates through the index`, async () => {
        const view = grid ? gridView() : undefined
        const boxes = boundsBoxes({ minLon: 13.39, minLat: 52.5, maxLon: 13.41, maxLat: 52.51 })
        const point = earthPoint(52.505, 13.4)
        const plan = await explain(t, nearestMarkersStatement(point, boxes, 101, view))
        assertKnnScan(plan, index)
        const fallback = await explain(t, markersInBoxesStatement(point, boxes, 101, view))
        const candidates = walk(fallback).filter(({ node }) => node['Index Name'] === index)
        assert.equal(candidates.length, 1, describePlan(fallback))
        assert.match(candidates[0]!.node['Index Cond'] ?? '', /location <@ /, describePlan(fallback))
        assertOnlyIndexReadsRequests(fallback, index)
      })
    }

    // docs/api/visits.md › Needs and matching: `suitable` read, and `suitable=true` tested on the rows the index yields.
    it('suitable=true keeps nearby and map a KNN scan of requests_active_location and bounds on its box search', async () => {
      const match = { viewerId: user.id, today: '2027-01-15', only: true }
      assertKnnScan(await explain(t, nearbyStatement(earthPoint(52.5, 13.4), nearbyTake(21), { offset: 0, limit: 20 }, undefined, undefined, match)), 'requests_active_location')
      assertKnnScan(await explain(t, nearbyStatement(earthPoint(52.5, 13.4), nearbyTake(21), { offset: 0, limit: 20 }, undefined, undefined, { ...match, only: false })), 'requests_active_location')
      const boxes = boundsBoxes({ minLon: 13.38, minLat: 52.5, maxLon: 13.42, maxLat: 52.52 })
      const plan = await explain(t, boundsStatement(boxes, 1001, undefined, match))
      const scans = walk(plan).filter(({ node }) => node['Index Name'] === 'requests_active_location')
      assert.equal(scans.length, boxes.length, describePlan(plan))
      assertKnnScan(await explain(t, nearestMarkersStatement(earthPoint(52.505, 13.4), boxes, 101, undefined, match)), 'requests_active_location')
    })

    for (const [label, minLon, minLat, maxLon, maxLat] of [
      ['a city district', 13.38, 52.5, 13.42, 52.52],
      ['the whole city (over the cap)', 13, 52, 14, 53],
      ['across the antimeridian', 179.5, -17.6, -179.5, -17.2],
    ] as const) {
      it(`map over ${label} equals the brute-force answer: the 50 nearest the centre`, async () => {
        const res = await t.get(`/requests/map?min_lon=${minLon}&min_lat=${minLat}&max_lon=${maxLon}&max_lat=${maxLat}`, user.token)
        assert.equal(res.status, 200)
        const centreLon = minLon <= maxLon ? (minLon + maxLon) / 2 : 180
        const lonTest = minLon <= maxLon ? 'longitude BETWEEN $3 AND $4' : '(longitude >= $3 OR longitude <= $4)'
        const expected = await t.db.query<{ id: number }>(/* sql */ `
          SELECT id FROM requests WHERE ${ACTIVE} AND latitude BETWEEN $1 AND $2 AND ${lonTest}
          ORDER BY earth_distance(location, ll_to_earth($5, $6)), id LIMIT 51`, [minLat, maxLat, minLon, maxLon, (minLat + maxLat) / 2, centreLon])
        assert.ok(expected.length > 0)
        assert.deepEqual(res.body.markers.map((item: { id: number }) => item.id), expected.slice(0, 50).map((row) => row.id))
        assert.equal(res.body.truncated, expected.length > 50)
      })
    }

    // The answers on this data equal a brute-force computation that reads every row.
    const ACTIVE = "status IN ('pending_moderation', 'approved', 'in_progress')"
    for (const [label, lat, lon, radius, offset, limit] of [
      ['the centre, first page', 52.5, 13.4, 5000, 0, 100],
      ['the centre, a later page', 52.5, 13.4, 5000, 300, 100],
      ['the corner of the data', 52.3, 13.1, 500, 0, 20],
      ['across the antimeridian', -17.5, 179.99, 50000, 0, 100],
      ['nowhere', 0, 0, 50000, 0, 20],
    ] as const) {
      it(`nearby at ${label} equals the brute-force answer`, async () => {
        const res = await t.get(`/requests/nearby?lat=${lat}&lon=${lon}&radius=${radius}&limit=${limit}&offset=${offset}`, user.token)
        assert.equal(res.status, 200)
        const expected = await t.db.query<{ id: number, d: number }>(/* sql */ `
          SELECT id, earth_distance(location, ll_to_earth($1, $2)) AS d FROM requests
          WHERE ${ACTIVE} AND earth_distance(location, ll_to_earth($1, $2)) <= $3
          ORDER BY 2, 1 LIMIT $4 OFFSET $5`, [lat, lon, radius, limit, offset])
        assert.deepEqual(res.body.map((item: { id: number }) => item.id), expected.map((row) => row.id))
        if (label !== 'nowhere') assert.ok(expected.length > 0)
      })
    }

    for (const [label, minLon, minLat, maxLon, maxLat] of [
      ['a city district', 13.38, 52.5, 13.42, 52.52],
      ['the whole city (over the cap)', 13, 52, 14, 53],
      ['across the antimeridian', 179.5, -17.6, -179.5, -17.2],
    ] as const) {
      it(`bounds over ${label} equals the brute-force answer`, async () => {
        const res = await t.get(`/requests/bounds?min_lon=${minLon}&min_lat=${minLat}&max_lon=${maxLon}&max_lat=${maxLat}`, user.token)
        assert.equal(res.status, 200)
        const lonTest = minLon <= maxLon ? 'longitude BETWEEN $3 AND $4' : '(longitude >= $3 OR longitude <= $4)'
        const expected = await t.db.query<{ id: number }>(/* sql */ `
          SELECT id FROM requests WHERE ${ACTIVE} AND latitude BETWEEN $1 AND $2 AND ${lonTest}
          ORDER BY created_at DESC, id DESC LIMIT 1001`, [minLat, maxLat, minLon, maxLon])
        assert.ok(expected.length > 0)
        assert.deepEqual(res.body.map((item: { id: number }) => item.id), expected.slice(0, 1000).map((row) => row.id))
        assert.equal(res.headers['x-result-truncated'], expected.length > 1000 ? 'true' : undefined)
      })
    }
  })
}
