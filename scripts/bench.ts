// Load test of a running service with autocannon, side by side with the same queries straight against
// PostgreSQL at the same concurrency, so that the service's overhead is a ratio measured in one run.
//
//   npm run bench -- --base http://127.0.0.1:3000/api/v1 [--database-url postgres://...] [--pid PID]
//     [--duration 10] [--warmup 2] [--connections 32] [--scenarios nearby,bounds,detail,me,create,login,mix,health-login]
//     [--runs 1] [--label text] [--json results.json]
//
// With --runs N each scenario (and its raw-SQL twin, run right after it) is measured N times and the
// median of each figure is reported, the spread of the throughput beside it; every run is kept in the JSON.
//
// The service should run with rate limits raised (RATE_LIMIT_PER_ADDRESS, RATE_LIMIT_PER_ACCOUNT), or the
// login scenarios measure 429s. Data comes from `npm run seed`: the bench logs in as demo accounts.
// See docs/performance.md for the procedure and the figures.
import { execFileSync } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { cpus, totalmem } from 'node:os'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import type { Database } from '../src/db/database.js'
import { openPostgres } from '../src/db/postgres.js'
import { findNearest, findRequestDetail } from '../src/modules/requests/requests.repo.js'
import { json } from '../test/helpers/service.js'
import { DEFAULTS, DEMO_PASSWORD, demoEmail } from './seed.js'

const SCENARIOS = ['nearby', 'bounds', 'detail', 'me', 'create', 'login', 'mix', 'health-login', 'health'] as const
type Scenario = typeof SCENARIOS[number]

interface Options {
  base: string
  databaseUrl: string | undefined
  pid: number | undefined
  duration: number
  warmup: number
  connections: number
  runs: number
  scenarios: Scenario[]
  label: string
  json: string | undefined
  center: { lat: number, lon: number }
  /** Demo accounts the login storm cycles through (demo-1 .. demo-N), so no one account is rate limited. */
  loginAccounts: number
  seed: number
}

export interface Result {
  scenario: string
  requestsPerSecond: number
  p50: number
  p99: number
  /** Connection errors, timeouts and answers other than 2xx. */
  errors: number
  total: number
  /** Largest resident set of the service seen during the run, in MiB (undefined when not sampled). */
  peakRssMiB: number | undefined
  /** CPU time per answered request, in ms: the service's processes, PostgreSQL's backends on the database, this load generator. */
  cpu?: { service: number | undefined, postgres: number | undefined, client: number }
  statuses?: Record<string, number>
  /** With --runs above 1: the slowest and fastest run's throughput, and every run. */
  spread?: { min: number, max: number }
  runs?: Result[]
}

function median (values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** The runs of one scenario summed up: the median of each figure, the errors of all, the highest memory. */
function medianResult (runs: readonly Result[]): Result {
  const first = runs[0]
  if (first === undefined) throw new Error('no runs')
  if (runs.length === 1) return first
  const of = (pick: (r: Result) => number | undefined) => {
    const values = runs.map(pick).filter((v): v is number => v !== undefined)
    return values.length === 0 ? undefined : median(values)
  }
  const rates = runs.map((r) => r.requestsPerSecond)
  const statuses: Record<string, number> = {}
  for (const r of runs) for (const [status, n] of Object.entries(r.statuses ?? {})) statuses[status] = (statuses[status] ?? 0) + n
  return {
    scenario: first.scenario,
    requestsPerSecond: median(rates),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    total: runs.reduce((sum, r) => sum + r.total, 0),
    peakRssMiB: of((r) => r.peakRssMiB) === undefined ? undefined : Math.max(...runs.map((r) => r.peakRssMiB ?? 0)),
    ...(first.cpu !== undefined
      ? { cpu: { service: of((r) => r.cpu?.service), postgres: of((r) => r.cpu?.postgres), client: of((r) => r.cpu?.client) ?? NaN } }
      : {}),
    statuses,
    spread: { min: Math.min(...rates), max: Math.max(...rates) },
    runs: [...runs],
  }
}

// --- numbers ---------------------------------------------------------------------------------------

/** mulberry32: a small seeded PRNG, so every run asks the same questions. */
function prng (seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6D2B79F5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A point where people are: the seed's distribution (70% normal around the centre, σ 4 km; 30% over 25 km). */
function metroPoint (random: () => number, center: { lat: number, lon: number }): { lat: number, lon: number } {
  const distance = random() < 0.7 ? Math.min(4000 * Math.sqrt(-2 * Math.log(1 - random())), 40000) : 25000 * Math.sqrt(random())
  const angle = 2 * Math.PI * random()
  const lat = center.lat + (distance * Math.cos(angle)) / 111320
  const lon = center.lon + (distance * Math.sin(angle)) / (111320 * Math.cos((center.lat * Math.PI) / 180))
  return { lat: Number(lat.toFixed(5)), lon: Number(lon.toFixed(5)) }
}

class Latencies {
  #values = new Float64Array(1 << 16)
  #length = 0
  errors = 0
  readonly statuses: Record<string, number> = {}

  add (ms: number, status: number | 'error'): void {
    if (this.#length === this.#values.length) {
      const grown = new Float64Array(this.#values.length * 2)
      grown.set(this.#values)
      this.#values = grown
    }
    this.#values[this.#length++] = ms
    this.statuses[status] = (this.statuses[status] ?? 0) + 1
    if (status === 'error' || status < 200 || status > 299) this.errors += 1
  }

  get count (): number { return this.#length }

  percentile (p: number): number {
    if (this.#length === 0) return NaN
    const sorted = this.#values.slice(0, this.#length).sort()
    return sorted[Math.min(this.#length - 1, Math.ceil((p / 100) * this.#length) - 1)] ?? NaN
  }
}

// --- memory ----------------------------------------------------------------------------------------

/** Resident memory of a process and its descendants (cluster workers), from /proc, in bytes. */
async function rssOfTree (pid: number): Promise<number> {
  let total = 0
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '')
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1]
  if (kb !== undefined) total += Number(kb) * 1024
  const children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '')
  for (const child of children.split(/\s+/).filter(Boolean)) total += await rssOfTree(Number(child))
  return total
}

/** Samples the service's memory while a run lasts: from /proc with --pid, else from its /metrics. */
function memorySampler (options: Options): { stop(): Promise<number | undefined> } {
  let peak: number | undefined
  const state = { running: true }
  const metrics = `${new URL(options.base).origin}/metrics`
  const sample = async (): Promise<number | undefined> => {
    if (options.pid !== undefined) return await rssOfTree(options.pid)
    const text = await fetch(metrics).then((res) => res.text()).catch(() => '')
    const bytes = /^process_resident_memory_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)$/m.exec(text)?.[1]
    return bytes === undefined ? undefined : Number(bytes)
  }
  const loop = (async () => {
    while (state.running) {
      const bytes = await sample()
      if (bytes !== undefined) peak = Math.max(peak ?? 0, bytes)
      await new Promise((resolve) => setTimeout(resolve, options.pid !== undefined ? 200 : 1000))
    }
  })()
  return {
    async stop () {
      state.running = false
      await loop
      return peak === undefined ? undefined : peak / 2 ** 20
    },
  }
}

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat; 0 when it is gone or not ours to read. */
async function cpuSeconds (pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')
  // Fields after the command name, which may hold spaces: utime and stime are the 12th and 13th (in clock ticks of 1/100 s).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / 100
}

async function descendants (pid: number): Promise<number[]> {
  const children = (await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '')).split(/\s+/).filter(Boolean).map(Number)
  return [pid, ...(await Promise.all(children.map(descendants))).flat()]
}

interface CpuSnapshot { service: number | undefined, postgres: Map<number, number> | undefined, client: number }

/**
 * Where the machine's CPU goes: the service (with --pid), PostgreSQL's backends on the bench database (when the
 * server runs on this machine, so /proc shows them) and this process. Backends of other databases are not counted.
 */
async function cpuSnapshot (options: Options, db: Database | undefined): Promise<CpuSnapshot> {
  const usage = process.cpuUsage()
  const service = options.pid === undefined
    ? undefined
    : (await Promise.all((await descendants(options.pid)).map(cpuSeconds))).reduce((a, b) => a + b, 0)
  let postgres: Map<number, number> | undefined
  if (db !== undefined) {
    const pids = (await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()')).map((row) => row.pid)
    const seconds = await Promise.all(pids.map(cpuSeconds))
    postgres = seconds.some((value) => value > 0) ? new Map(pids.map((pid, i) => [pid, seconds[i] ?? 0])) : undefined
  }
  return { service, postgres, client: (usage.user + usage.system) / 1e6 }
}

function cpuPerRequest (before: CpuSnapshot, after: CpuSnapshot, requests: number): Result['cpu'] {
  const per = (seconds: number) => (1000 * seconds) / Math.max(1, requests)
  let postgres: number | undefined
  if (before.postgres !== undefined && after.postgres !== undefined) {
    let seconds = 0
    for (const [pid, end] of after.postgres) seconds += end - (before.postgres.get(pid) ?? 0)
    postgres = per(seconds)
  }
  return {
    service: before.service === undefined || after.service === undefined ? undefined : per(after.service - before.service),
    postgres,
    client: per(after.client - before.client),
  }
}

// --- the service -----------------------------------------------------------------------------------

async function login (base: string, email: string, password: string): Promise<string> {
  const res = await json(base, 'POST', '/auth/login', { email, password })
  if (res.status !== 200) {
    throw new Error(`cannot log in as ${email} (${res.status} ${JSON.stringify(res.body)}): seed the database with npm run seed, ` +
      'and run the service with RATE_LIMIT_PER_ADDRESS and RATE_LIMIT_PER_ACCOUNT raised')
  }
  return res.body.access_token as string
}

/** The account requests are created with: its own, so that they can be told apart and removed afterwards. */
async function benchAccount (base: string): Promise<{ id: number, token: string }> {
  const email = 'bench@example.org'
  const password = 'bench-password'
  const registered = await json(base, 'POST', '/auth/register', { email, password, first_name: 'Bench', last_name: 'Mark' })
  const res = registered.status === 201 ? registered : await json(base, 'POST', '/auth/login', { email, password })
  if (res.status !== 200 && res.status !== 201) throw new Error(`cannot register or log in the bench account: ${res.status}`)
  return { id: res.body.user.id as number, token: res.body.access_token as string }
}

const NEW_REQUEST = (point: { lat: number, lon: number }, n: number) => ({
  request_type_id: 1 + (n % 6),
  title: `Benchmark request ${n}`,
  description: 'Made by the benchmark; deleted at the end (cancelled, without database access).',
  latitude: point.lat,
  longitude: point.lon,
  address: 'Benchmarkstraße 1',
  urgency: 'medium',
})

interface Target {
  method: 'GET' | 'POST'
  path: string
  body?: string
  token?: string | undefined
}

/** The HTTP request of one call of a scenario. */
type Generator = () => Target

interface Context {
  options: Options
  random: () => number
  token: string
  creator: { id: number, token: string }
  requestIds: number[]
  db: Database | undefined
}

function nearbyTarget (ctx: Context): Target {
  const { lat, lon } = metroPoint(ctx.random, ctx.options.center)
  return { method: 'GET', path: `/requests/nearby?lat=${lat}&lon=${lon}`, token: ctx.token }
}

/** A map view of about 1.4 by 1.1 km somewhere people are. */
function boundsTarget (ctx: Context): Target {
  const { lat, lon } = metroPoint(ctx.random, ctx.options.center)
  return { method: 'GET', path: `/requests/bounds?min_lon=${(lon - 0.01).toFixed(5)}&min_lat=${(lat - 0.005).toFixed(5)}&max_lon=${(lon + 0.01).toFixed(5)}&max_lat=${(lat + 0.005).toFixed(5)}`, token: ctx.token }
}

function detailTarget (ctx: Context): Target {
  const id = ctx.requestIds[Math.floor(ctx.random() * ctx.requestIds.length)]
  return { method: 'GET', path: `/requests/${id}`, token: ctx.token }
}

let created = 0
function createTarget (ctx: Context): Target {
  created += 1
  return { method: 'POST', path: '/requests', body: JSON.stringify(NEW_REQUEST(metroPoint(ctx.random, ctx.options.center), created)), token: ctx.creator.token }
}

function loginTarget (ctx: Context): Target {
  const email = demoEmail(1 + Math.floor(ctx.random() * ctx.options.loginAccounts))
  return { method: 'POST', path: '/auth/login', body: JSON.stringify({ email, password: DEMO_PASSWORD }) }
}

function generator (scenario: Exclude<Scenario, 'health-login'>, ctx: Context): Generator {
  switch (scenario) {
    case 'nearby': return () => nearbyTarget(ctx)
    case 'bounds': return () => boundsTarget(ctx)
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

/** One autocannon run; latencies are taken from each response (float ms), not autocannon's whole-ms histogram. */
function cannon (options: Options, next: Generator, settings: { connections: number, duration: number, overallRate?: number }, latencies?: Latencies): Promise<void> {
  const url = new URL(options.base)
  const prefix = url.pathname.replace(/\/$/, '')
  return new Promise((resolve, reject) => {
    const instance = autocannon({
      url: url.origin,
      connections: settings.connections,
      duration: settings.duration,
      ...(settings.overallRate !== undefined ? { overallRate: settings.overallRate } : {}),
      requests: [{
        setupRequest: (request) => {
          const target = next()
          const headers: Record<string, string> = {}
          if (target.token !== undefined) headers.authorization = `Bearer ${target.token}`
          if (target.body !== undefined) headers['content-type'] = 'application/json'
          return { ...request, method: target.method, path: `${prefix}${target.path}`, headers, ...(target.body !== undefined ? { body: target.body } : {}) }
        },
      }],
    }, (error) => { if (error !== null) reject(error); else resolve() })
    if (latencies !== undefined) {
      instance.on('response', (_client, status, _bytes, ms) => latencies.add(ms, status))
      instance.on('reqError', () => latencies.add(0, 'error'))
    }
  })
}

function result (scenario: string, latencies: Latencies, seconds: number, peakRssMiB: number | undefined): Result {
  return {
    scenario,
    requestsPerSecond: latencies.count / seconds,
    p50: latencies.percentile(50),
    p99: latencies.percentile(99),
    errors: latencies.errors,
    total: latencies.count,
    peakRssMiB,
    statuses: latencies.statuses,
  }
}

async function runHttp (scenario: Exclude<Scenario, 'health-login'>, ctx: Context): Promise<Result> {
  const { options } = ctx
  const next = generator(scenario, ctx)
  if (options.warmup > 0) await cannon(options, next, { connections: options.connections, duration: options.warmup })
  const latencies = new Latencies()
  const memory = memorySampler(options)
  const before = await cpuSnapshot(options, ctx.db)
  const started = performance.now()
  await cannon(options, next, { connections: options.connections, duration: options.duration }, latencies)
  const seconds = (performance.now() - started) / 1000
  const cpu = cpuPerRequest(before, await cpuSnapshot(options, ctx.db), latencies.count)
  return { ...result(scenario, latencies, seconds, await memory.stop()), cpu }
}

/** GET /health at a steady 100 per second on 2 connections, while a login storm runs on the others. */
async function runHealthDuringLogins (ctx: Context): Promise<Result[]> {
  const { options } = ctx
  const health = new Latencies()
  const logins = new Latencies()
  const memory = memorySampler(options)
  const started = performance.now()
  await Promise.all([
    cannon(options, () => loginTarget(ctx), { connections: options.connections, duration: options.duration }, logins),
    cannon(options, () => ({ method: 'GET', path: '/health' }), { connections: 2, duration: options.duration, overallRate: 100 }, health),
  ])
  const seconds = (performance.now() - started) / 1000
  const peak = await memory.stop()
  return [result('health during logins', health, seconds, peak), result('  (the login storm)', logins, seconds, peak)]
}

/**
 * Without database access (the embedded engine), the requests the bench account created since `since`
 * are cancelled through the API. Its list is newest first, so the paging stops at the first older one
 * (the cancelled requests of earlier runs stay in the list, and reading them all grew slower every run).
 */
async function cancelOwnRequests (base: string, token: string, since: number): Promise<void> {
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

// --- straight against PostgreSQL -------------------------------------------------------------------

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

// --- the run ---------------------------------------------------------------------------------------

/** Ids of active requests to read: from the database when it is at hand, else from nearby searches. */
async function sampleRequestIds (ctx: Context, db: Database | undefined): Promise<number[]> {
  if (db !== undefined) {
    const rows = await db.query<{ id: number }>(
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

function machine (): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU'
  return `${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`
}

function commit (): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
  } catch {
    return 'unknown'
  }
}

const ms = (value: number) => (Number.isNaN(value) ? '-' : value < 10 ? value.toFixed(2) : value.toFixed(1))

function table (results: readonly Result[]): string {
  const lines = ['| scenario | req/s | p50 ms | p99 ms | errors | peak RSS MiB | CPU ms/request: service | PostgreSQL | load generator |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|']
  const cpu = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(2))
  for (const r of results) {
    const spread = r.spread === undefined ? '' : ` (${r.spread.min.toFixed(0)}–${r.spread.max.toFixed(0)})`
    lines.push(`| ${r.scenario} | ${r.requestsPerSecond.toFixed(0)}${spread} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.errors} | ${r.peakRssMiB === undefined ? '-' : r.peakRssMiB.toFixed(0)} | ` +
      `${cpu(r.cpu?.service)} | ${cpu(r.cpu?.postgres)} | ${cpu(r.cpu?.client)} |`)
  }
  return lines.join('\n')
}

function parseOptions (argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      base: { type: 'string', default: 'http://127.0.0.1:3000/api/v1' },
      'database-url': { type: 'string' },
      pid: { type: 'string' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '32' },
      runs: { type: 'string', default: '1' },
      scenarios: { type: 'string', default: SCENARIOS.join(',') },
      label: { type: 'string', default: '' },
      json: { type: 'string' },
      center: { type: 'string' },
      'login-accounts': { type: 'string', default: '100' },
      seed: { type: 'string', default: '1' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  if (values.help === true) {
    process.stdout.write('npm run bench -- --base URL [--database-url URL] [--pid PID] [--duration S] [--warmup S] [--connections N] [--runs N]\n' +
      `  [--scenarios ${SCENARIOS.join(',')}] [--label TEXT] [--json FILE] [--center lat,lon] [--login-accounts N] [--seed S]\n`)
    process.exit(0)
  }
  const positive = (name: string, raw: string, min = 1) => {
    const value = Number(raw)
    if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be a whole number of at least ${min}`)
    return value
  }
  const scenarios = values.scenarios.split(',').map((s) => s.trim()).filter(Boolean)
  for (const s of scenarios) {
    if (!(SCENARIOS as readonly string[]).includes(s)) throw new Error(`unknown scenario "${s}": choose from ${SCENARIOS.join(', ')}`)
  }
  const [lat, lon] = values.center === undefined ? [DEFAULTS.center.lat, DEFAULTS.center.lon] : values.center.split(',').map(Number)
  return {
    base: values.base.replace(/\/$/, ''),
    databaseUrl: values['database-url'],
    pid: values.pid === undefined ? undefined : positive('pid', values.pid),
    duration: positive('duration', values.duration),
    warmup: positive('warmup', values.warmup, 0),
    connections: positive('connections', values.connections),
    runs: positive('runs', values.runs),
    scenarios: scenarios as Scenario[],
    label: values.label,
    json: values.json,
    center: { lat: lat ?? NaN, lon: lon ?? NaN },
    loginAccounts: positive('login-accounts', values['login-accounts']),
    seed: positive('seed', values.seed, 0),
  }
}

async function main (): Promise<void> {
  const options = parseOptions(process.argv.slice(2))
  const health = await fetch(`${options.base}/health`).catch(() => undefined)
  if (health?.status !== 200) throw new Error(`no service answers at ${options.base}/health`)
  // When this run began by the service's clock (its Date header counts whole seconds, hence the second less).
  const started = Date.parse(health.headers.get('date') ?? '') - 1000 || Date.now() - 60_000
  const db = options.databaseUrl === undefined ? undefined : await openPostgres(options.databaseUrl, { max: options.connections })
  const random = prng(options.seed)
  const token = await login(options.base, demoEmail(2), DEMO_PASSWORD)
  const creator = await benchAccount(options.base)
  const ctx: Context = { options, random, token, creator, requestIds: [], db }
  ctx.requestIds = await sampleRequestIds(ctx, db)
  const firstNew = db === undefined ? undefined : (await db.query<{ last: number | null }>('SELECT max(id) AS last FROM requests'))[0]?.last ?? 0

  process.stderr.write(`Benchmark of ${options.base}: ${options.connections} connections, ${options.duration} s per scenario (after ${options.warmup} s warm-up)\n`)
  const results: Result[] = []
  const report = (r: Result) => {
    const odd = Object.entries(r.statuses ?? {}).filter(([status]) => !/^2\d\d$/.test(status))
    process.stderr.write(`${r.scenario.padEnd(22)} ${r.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${ms(r.p50).padStart(6)} ms  p99 ${ms(r.p99).padStart(6)} ms` +
      `  errors ${r.errors}${odd.length > 0 ? ` ${JSON.stringify(Object.fromEntries(odd))}` : ''}` +
      `${r.peakRssMiB !== undefined ? `  peak RSS ${r.peakRssMiB.toFixed(0)} MiB` : ''}\n`)
  }
  try {
    /** One run of a scenario: its result, and the same queries straight against PostgreSQL right after. */
    const measure = async (scenario: Scenario): Promise<Result[]> => {
      // Fresh tokens for each run: a long run outlives an access token.
      ctx.token = await login(options.base, demoEmail(2), DEMO_PASSWORD)
      ctx.creator = await benchAccount(options.base)
      if (scenario === 'health-login') return await runHealthDuringLogins(ctx)
      const measured = [await runHttp(scenario, ctx)]
      if (db !== undefined && scenario === 'nearby') {
        const raw = prng(options.seed)
        measured.push(await runRaw('nearby, raw SQL', db, () => {
          const { lat, lon } = metroPoint(raw, options.center)
          // What the service runs for a first page: the 21 nearest, page of 20 (see RequestsService.nearby).
          return findNearest(db, lat, lon, 21, { limit: 20, offset: 0 })
        }, options))
      }
      if (db !== undefined && scenario === 'detail') {
        const raw = prng(options.seed)
        measured.push(await runRaw('detail, raw SQL', db, () => findRequestDetail(db, ctx.requestIds[Math.floor(raw() * ctx.requestIds.length)] ?? 1), options))
      }
      return measured
    }
    for (const scenario of options.scenarios) {
      const runs = new Map<string, Result[]>()
      for (let run = 0; run < options.runs; run++) {
        for (const r of await measure(scenario)) {
          report(r)
          runs.set(r.scenario, [...runs.get(r.scenario) ?? [], r])
        }
      }
      for (const measured of runs.values()) results.push(medianResult(measured))
    }
  } finally {
    // The bench's own requests go again, so that a repeated run searches the same active requests.
    if (db !== undefined) {
      await db.query('DELETE FROM requests WHERE requester_id = $1 AND id > $2', [creator.id, firstNew])
      await db.close()
    } else {
      await cancelOwnRequests(options.base, ctx.creator.token, started)
    }
  }

  const ratio = (service: string, raw: string) => {
    const a = results.find((r) => r.scenario === service)
    const b = results.find((r) => r.scenario === raw)
    return a !== undefined && b !== undefined ? `${service}: service ${(100 * a.requestsPerSecond / b.requestsPerSecond).toFixed(0)}% of raw SQL throughput` : undefined
  }
  const summary = [ratio('nearby', 'nearby, raw SQL'), ratio('detail', 'detail, raw SQL')].filter((line) => line !== undefined)
  process.stdout.write(`\n${options.label !== '' ? `${options.label}\n\n` : ''}${table(results)}\n${summary.length > 0 ? `\n${summary.join('\n')}\n` : ''}`)
  if (options.json !== undefined) {
    const record = { label: options.label, date: new Date().toISOString(), commit: commit(), machine: machine(), connections: options.connections, duration: options.duration, results }
    const previous = await readFile(options.json, 'utf8').then((text) => JSON.parse(text) as unknown[]).catch(() => [])
    await writeFile(options.json, `${JSON.stringify([...previous, record], null, 2)}\n`)
  }
}

await main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
