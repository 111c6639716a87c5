// The service's own repo queries straight against PostgreSQL at the same concurrency, right after the
// scenario they serve, so the service's overhead is a ratio measured in one run on one machine.
import { performance } from 'node:perf_hooks'
import type { Database } from '../../src/db/database.js'
import { earthPoint } from '../../src/lib/geo.js'
import { findRequestDetail } from '../../src/help/requests/requests.reads.js'
import { nearbyStatement } from '../../src/help/requests/search/nearby.js'
import { EXACT_VIEW } from '../../src/help/requests/search/shared.js'
import { randomStream } from '../lib/random.js'
import type { Options, Scenario } from './options.js'
import { Latencies, result, type Result } from './results.js'
import { clientPoint, type Context } from './scenarios.js'
import { cpuPerRequest, cpuSnapshot } from './usage.js'

/** `connections` loops, each running `fn` back to back on its own pool connection, for `seconds`. */
async function poolLoop (connections: number, seconds: number, fn: () => Promise<unknown>, latencies?: Latencies): Promise<number> {
  const deadline = performance.now() + seconds * 1000
  const started = performance.now()
  await Promise.all(Array.from({ length: connections }, async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now()
      let status: number | 'error' = 200
      try {
        await fn()
      } catch {
        status = 'error'
      }
      latencies?.add(performance.now() - t0, status)
    }
  }))
  return (performance.now() - started) / 1000
}

async function runRaw (name: string, db: Database, fn: () => Promise<unknown>, options: Options): Promise<Result> {
  if (options.warmup > 0) await poolLoop(options.connections, options.warmup, fn)
  const latencies = new Latencies()
  const before = await cpuSnapshot({ ...options, pid: undefined }, db)
  const seconds = await poolLoop(options.connections, options.duration, fn, latencies)
  const cpu = cpuPerRequest(before, await cpuSnapshot({ ...options, pid: undefined }, db), latencies.count)
  return { ...result(name, latencies, seconds, undefined), cpu }
}

/**
 * The raw-SQL twins of a scenario, when it has them: the same questions from the start of the seed's sequence.
 * Nearby has two: the service's own statement (as the service runs it for the bench's account, a moderator, under
 * ADDRESS_PRIVACY=full, the default: no short names, grid points or assigned volunteer),
 * and the bare KNN read under it (the 21 nearest ids and distances), the floor any search statement stands on.
 */
export async function runRawTwins (scenario: Scenario, ctx: Context): Promise<Result[]> {
  const { db, options } = ctx
  if (db === undefined) return []
  if (scenario === 'nearby') {
    const random = randomStream(options.seed, 'bench')
    const twin = await runRaw('nearby, raw SQL', db, () => {
      const { lat, lon } = clientPoint(random, options.center)
      // What the service runs for a first page: the 21 nearest, page of 20 (see search/nearby.ts searchNearby).
      return db.query(nearbyStatement(earthPoint(lat, lon), 21, { limit: 20, offset: 0 }, EXACT_VIEW, MODERATOR_COLUMNS))
    }, options)
    const knnRandom = randomStream(options.seed, 'bench')
    const knn = await runRaw('nearby, raw KNN', db, () => {
      const { lat, lon } = clientPoint(knnRandom, options.center)
      const point = earthPoint(lat, lon)
      return db.query(BARE_KNN, [point[0], point[1], point[2]])
    }, options)
    return [twin, knn]
  }
  if (scenario === 'detail') {
    const random = randomStream(options.seed, 'bench')
    return [await runRaw('detail, raw SQL', db, () => findRequestDetail(db, ctx.requestIds[Math.floor(random() * ctx.requestIds.length)] ?? 1, 1), options)]
  }
  return []
}

const MODERATOR_COLUMNS = Object.freeze({ shortNames: false, located: false, volunteer: false })

/** The KNN read alone: the partial GiST index in distance order, the 21 nearest active requests' ids. */
const BARE_KNN = `SELECT r.id, r.location <-> cube(ARRAY[$1, $2, $3]::float8[]) AS knn FROM requests r
  WHERE r.status IN ('pending_moderation', 'approved', 'in_progress') ORDER BY knn LIMIT 21`
