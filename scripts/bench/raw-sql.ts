// The service's own repo queries straight against PostgreSQL at the same concurrency, right after the
// scenario they serve, so the service's overhead is a ratio measured in one run on one machine.
import { performance } from 'node:perf_hooks'
import type { Database } from '../../src/db/database.js'
import { earthPoint } from '../../src/lib/geo.js'
import { findRequestDetail } from '../../src/modules/requests/requests.reads.js'
import { nearbyStatement } from '../../src/modules/requests/search/nearby.js'
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

/** The raw-SQL twin of a scenario, when it has one: the same questions from the start of the seed's sequence. */
export async function runRawTwin (scenario: Scenario, ctx: Context): Promise<Result | undefined> {
  const { db, options } = ctx
  if (db === undefined) return undefined
  const random = randomStream(options.seed, 'bench')
  if (scenario === 'nearby') {
    return await runRaw('nearby, raw SQL', db, () => {
      const { lat, lon } = clientPoint(random, options.center)
      // What the service runs for a first page: the 21 nearest, page of 20 (see search/nearby.ts searchNearby).
      return db.query(nearbyStatement(earthPoint(lat, lon), 21, { limit: 20, offset: 0 }))
    }, options)
  }
  if (scenario === 'detail') {
    return await runRaw('detail, raw SQL', db, () => findRequestDetail(db, ctx.requestIds[Math.floor(random() * ctx.requestIds.length)] ?? 1, 1), options)
  }
  return undefined
}
