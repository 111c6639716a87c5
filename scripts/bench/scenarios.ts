// What each scenario asks the service: one HTTP request per call, its places drawn from the shared city
// model so searches land where the seeded requests are.
import type { Database } from '../../src/db/database.js'
import { json } from '../lib/http.js'
import { randomMetroPoint } from '../lib/metro.js'
import { DEMO_PASSWORD, demoEmail } from '../seed.js'
import type { Options, Scenario } from './options.js'

export interface Target {
  method: 'GET' | 'POST'
  path: string
  body?: string
  token?: string | undefined
}

/** The HTTP request of one call of a scenario. */
export type Generator = () => Target

export interface Context {
  options: Options
  random: () => number
  token: string
  creator: { id: number, token: string }
  requestIds: number[]
  db: Database | undefined
}

export async function login (base: string, email: string, password: string): Promise<string> {
  const res = await json(base, 'POST', '/auth/login', { email, password })
  if (res.status !== 200) {
    throw new Error(`cannot log in as ${email} (${res.status} ${JSON.stringify(res.body)}): seed the database with npm run seed, ` +
      'and run the service with RATE_LIMIT_PER_ADDRESS and RATE_LIMIT_PER_ACCOUNT raised')
  }
  return res.body.access_token as string
}

/** The account requests are created with: its own, so that they can be told apart and removed afterwards. */
export async function benchAccount (base: string): Promise<{ id: number, token: string }> {
  const email = 'bench@example.org'
  const password = 'bench-password'
  const registered = await json(base, 'POST', '/auth/register', { email, password, first_name: 'Bench', last_name: 'Mark' })
  const res = registered.status === 201 ? registered : await json(base, 'POST', '/auth/login', { email, password })
  if (res.status !== 200 && res.status !== 201) throw new Error(`cannot register or log in the bench account: ${res.status}`)
  return { id: res.body.user.id as number, token: res.body.access_token as string }
}

/** A place people are, to five decimals as a client would send it. */
export function clientPoint (random: () => number, center: { lat: number, lon: number }): { lat: number, lon: number } {
  const { lat, lon } = randomMetroPoint(random, center)
  return { lat: Number(lat.toFixed(5)), lon: Number(lon.toFixed(5)) }
}

const place = (ctx: Context) => clientPoint(ctx.random, ctx.options.center)

export function nearbyTarget (ctx: Context): Target {
  const { lat, lon } = place(ctx)
  return { method: 'GET', path: `/requests/nearby?lat=${lat}&lon=${lon}`, token: ctx.token }
}

/** A map view of about 1.4 by 1.1 km somewhere people are, as list items (bounds) or markers (map). */
function rectangleTarget (ctx: Context, path: '/requests/bounds' | '/requests/map'): Target {
  const { lat, lon } = place(ctx)
  return { method: 'GET', path: `${path}?min_lon=${(lon - 0.01).toFixed(5)}&min_lat=${(lat - 0.005).toFixed(5)}&max_lon=${(lon + 0.01).toFixed(5)}&max_lat=${(lat + 0.005).toFixed(5)}`, token: ctx.token }
}
const boundsTarget = (ctx: Context) => rectangleTarget(ctx, '/requests/bounds')

function detailTarget (ctx: Context): Target {
  const id = ctx.requestIds[Math.floor(ctx.random() * ctx.requestIds.length)]
  return { method: 'GET', path: `/requests/${id}`, token: ctx.token }
}

let created = 0
function createTarget (ctx: Context): Target {
  created += 1
  const { lat, lon } = place(ctx)
  return {
    method: 'POST',
    path: '/requests',
    body: JSON.stringify({
      request_type_id: 1 + (created % 6),
      title: `Benchmark request ${created}`,
      description: 'Made by the benchmark; deleted at the end (cancelled, without database access).',
      latitude: lat,
      longitude: lon,
      address: 'Benchmarkstraße 1',
      urgency: 'medium',
    }),
    token: ctx.creator.token,
  }
}

export function loginTarget (ctx: Context): Target {
  const email = demoEmail(1 + Math.floor(ctx.random() * ctx.options.loginAccounts))
  return { method: 'POST', path: '/auth/login', body: JSON.stringify({ email, password: DEMO_PASSWORD }) }
}

export function generator (scenario: Exclude<Scenario, 'health-login' | 'deliveries'>, ctx: Context): Generator {
  switch (scenario) {
    case 'nearby': return () => nearbyTarget(ctx)
    case 'bounds': return () => boundsTarget(ctx)
    case 'map': return () => rectangleTarget(ctx, '/requests/map')
    case 'detail': return () => detailTarget(ctx)
    case 'me': return () => ({ method: 'GET', path: '/users/me', token: ctx.token })
    // The framework alone: no database, no authentication.
    case 'health': return () => ({ method: 'GET', path: '/health' })
    case 'create': return () => createTarget(ctx)
    case 'login': return () => loginTarget(ctx)
    case 'mix': return () => {
      // 70% searches and detail reads, 20% profile reads, 10% creations.
      const r = ctx.random()
      if (r < 0.35) return nearbyTarget(ctx)
      if (r < 0.50) return boundsTarget(ctx)
      if (r < 0.70) return detailTarget(ctx)
      if (r < 0.90) return { method: 'GET', path: '/users/me', token: ctx.token }
      return createTarget(ctx)
    }
  }
}

/** Ids of active requests to read: from the database when it is at hand, else from nearby searches. */
export async function sampleRequestIds (ctx: Context): Promise<number[]> {
  if (ctx.db !== undefined) {
    const rows = await ctx.db.query<{ id: number }>(
      "SELECT id FROM requests WHERE status IN ('pending_moderation', 'approved', 'in_progress') ORDER BY random() LIMIT 2000")
    if (rows.length > 0) return rows.map((row) => row.id)
  }
  const ids = new Set<number>()
  for (let i = 0; i < 100 && ids.size < 2000; i++) {
    const target = nearbyTarget(ctx)
    const res = await json(ctx.options.base, target.method, target.path, undefined, ctx.token)
    if (res.status !== 200) throw new Error(`nearby search answered ${res.status}: cannot find requests to read`)
    for (const item of res.body as Array<{ id: number }>) ids.add(item.id)
  }
  if (ids.size === 0) throw new Error('no requests found: seed the database with npm run seed')
  return [...ids]
}

/**
 * Without database access (the embedded engine), the requests the bench account created since `since`
 * are cancelled through the API. Its list is newest first, so the paging stops at the first older one
 * (reading the cancelled requests of earlier runs too would make every run slower than the last).
 */
export async function cancelOwnRequests (base: string, token: string, since: number): Promise<void> {
  const active = new Set(['pending_moderation', 'approved', 'in_progress'])
  const ids: number[] = []
  for (let offset = 0; ; offset += 100) {
    const page = await json(base, 'GET', `/requests/my?limit=100&offset=${offset}`, undefined, token)
    const items = page.body as Array<{ id: number, status: string, created_at: string }>
    const recent = items.filter((item) => Date.parse(item.created_at) >= since)
    ids.push(...recent.filter((item) => active.has(item.status)).map((item) => item.id))
    if (items.length < 100 || recent.length < items.length) break
  }
  const queue = [...ids]
  await Promise.all(Array.from({ length: 8 }, async () => {
    for (let id = queue.pop(); id !== undefined; id = queue.pop()) await json(base, 'POST', `/requests/${id}/cancel`, undefined, token)
  }))
}
