/**
 * npm run bench:reports: the reports of docs/api/on-behalf.md › Reports for funders on a million requests, on PostgreSQL. Seeds a scratch
 * database (BENCH_DATABASE_URL names the server, default postgres://postgres@127.0.0.1:5432/postgres; it is
 * created and dropped) with BENCH_REQUESTS (1,000,000) requests over the last five years, their offers and
 * ratings, and five history entries each (5,000,000); then, through the service on a real port, times
 * GET /reports/summary (goal: 1 s) and streams GET /reports/requests.csv of every request (goal: 50,000
 * rows/s), sampling the process's RSS during the stream (flat memory). Figures in docs/performance.md.
 * BENCH_EXPLAIN=1 prints the plans of the summary's statements and of a CSV batch. BENCH_KEEP=name seeds a
 * database of that name and keeps it, or measures again on it when it exists (no seeding; migrations newer
 * than it are applied, then VACUUM ANALYZE).
 */
import { readFile } from 'node:fs/promises'
import pg from 'pg'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { migrate } from '../src/db/migrate.js'
import { openPostgres } from '../src/db/postgres.js'
import { accessTokens } from '../src/lib/tokens.js'
import { statementParts, type Database, type Queryable } from '../src/db/database.js'
import { dateRange, periodsOf } from '../src/on-behalf/reports/range.js'
import * as reports from '../src/on-behalf/reports/reports.repo.js'
import { REPORT_TIMES_FROM_OFFERS } from './lib/report-times.js'

const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1_000_000)
const HISTORY_PER_REQUEST = 5
const USERS = 20_000
const CHUNK = 100_000
const SECRET = 'bench-secret-that-is-long-enough-0123456789'
const MANAGER_ROLE_ID = 5

const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0)
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

async function timed<T> (label: string, fn: () => Promise<T>): Promise<T> {
  const start = performance.now()
  const result = await fn()
  console.log(`${label}: ${((performance.now() - start) / 1000).toFixed(1)} s`)
  return result
}

/** Every row from a plan of random values, so requests, offers, ratings and history agree with each other. */
async function seed (db: Queryable): Promise<void> {
  // direct write: set-based, twenty thousand accounts in one statement; users.repo inserts one per call
  await db.query(`INSERT INTO users (email, password_hash, first_name, last_name)
    SELECT 'report' || i || '@example.org', 'x', 'Report', 'User' FROM generate_series(1, ${USERS}) i`)
  // Five years back from now less a day, so the whole span fits one CSV range (shorter than 5 years).
  await db.query(`CREATE UNLOGGED TABLE bench_plan AS
    SELECT i, now() - interval '5 years' + interval '3 days' + random() * (interval '5 years' - interval '3 days') AS created,
      random() AS s, random() * 360 AS offer_min, random() * 120 AS accept_min, random() * 960 AS help_min, random() AS second,
      1 + floor(random() * ${USERS / 2})::bigint AS requester, ${USERS / 2} + 1 + floor(random() * ${USERS / 2 - 1})::bigint AS volunteer,
      1 + floor(random() * 6)::bigint AS type, (ARRAY['low', 'medium', 'high', 'urgent'])[1 + floor(random() * 4)::int] AS urgency,
      CASE WHEN random() < 0.1 THEN 1 + floor(random() * 2000)::bigint END AS client,
      (ARRAY['Berlin', 'Potsdam', 'Leipzig', NULL])[1 + floor(random() * 4)::int] AS city,
      51 + random() * 2 AS lat, 12 + random() * 2 AS lon, CASE WHEN random() < 0.6 THEN 1 + floor(random() * 5)::int END AS rating
    FROM generate_series(1, ${REQUESTS}) i`)
  await db.query('ALTER TABLE bench_plan ADD COLUMN status text, ADD COLUMN reason text')
  // direct write: the bench's own scratch table of random values, which no repo owns
  await db.query(`UPDATE bench_plan SET
    status = CASE WHEN s < 0.55 THEN 'completed' WHEN s < 0.72 THEN 'cancelled' WHEN s < 0.75 THEN 'rejected'
      WHEN s < 0.85 THEN 'approved' WHEN s < 0.92 THEN 'in_progress' ELSE 'pending_moderation' END,
    reason = CASE WHEN s >= 0.55 AND s < 0.65 THEN 'requester' WHEN s >= 0.65 AND s < 0.72 THEN 'expired' END`)
  await db.query('CREATE INDEX ON bench_plan (i)')
  for (let first = 1; first <= REQUESTS; first += CHUNK) {
    const range = `i BETWEEN ${first} AND ${first + CHUNK - 1}`
    // direct write: set-based, a hundred thousand requests with past times in one statement; requests.repo inserts one per call at now()
    await db.query(`INSERT INTO requests (id, requester_id, request_type_id, title, description, latitude, longitude, address, city, urgency,
        status, cancel_reason, created_at, updated_at, finished_at, assigned_volunteer_id, client_id, grid_latitude, grid_longitude, grid_meters)
      OVERRIDING SYSTEM VALUE
      SELECT i, requester, type, 'Bench', 'A request of the reports bench', lat, lon, 'Street 1', city, urgency, status, reason, created, created,
        CASE status WHEN 'completed' THEN created + (offer_min + accept_min + help_min) * interval '1 minute'
          WHEN 'cancelled' THEN created + help_min * 4 * interval '1 minute' WHEN 'rejected' THEN created + interval '1 hour' END,
        CASE WHEN status IN ('completed', 'in_progress') THEN volunteer END, client, lat, lon, 300
      FROM bench_plan WHERE ${range}`)
    // direct write: set-based, each offered request's first offer at a past time; responses.repo inserts one per call at now()
    await db.query(`INSERT INTO volunteer_responses (request_id, volunteer_id, status, responded_at, accepted_at)
      SELECT i, volunteer, CASE WHEN status IN ('completed', 'in_progress') THEN 'accepted' WHEN status = 'cancelled' THEN 'cancelled' ELSE 'pending' END,
        created + offer_min * interval '1 minute',
        CASE WHEN status IN ('completed', 'in_progress') THEN created + (offer_min + accept_min) * interval '1 minute' END
      FROM bench_plan WHERE ${range} AND (status IN ('completed', 'in_progress', 'approved') OR reason = 'requester')`)
    // direct write: set-based, a second offer for half of them, by another volunteer
    await db.query(`INSERT INTO volunteer_responses (request_id, volunteer_id, status, responded_at)
      SELECT i, volunteer + 1, CASE WHEN status IN ('completed', 'in_progress') THEN 'rejected' WHEN status = 'cancelled' THEN 'cancelled' ELSE 'pending' END,
        created + (offer_min + 10) * interval '1 minute'
      FROM bench_plan WHERE ${range} AND second < 0.5 AND (status IN ('completed', 'in_progress', 'approved') OR reason = 'requester')`)
    // direct write: set-based, the ratings of past completions; responses.repo rates one completion per call
    await db.query(`INSERT INTO ratings (request_id, volunteer_id, rater_id, score, created_at)
      SELECT i, volunteer, requester, rating, created + (offer_min + accept_min + help_min) * interval '1 minute'
      FROM bench_plan WHERE ${range} AND status = 'completed' AND rating IS NOT NULL`)
    // direct write: set-based, five history entries per request in one statement (bulk, past times; the history is only read here)
    await db.query(`INSERT INTO request_history (request_id, at, action, actor_id, actor_role, details)
      SELECT i, created + k * interval '10 minutes', (ARRAY['created', 'approved', 'offer_made', 'accepted', 'completed'])[k],
        CASE WHEN k = 3 THEN volunteer ELSE requester END, CASE WHEN k = 3 THEN 'volunteer' ELSE 'requester' END, '{}'
      FROM bench_plan, generate_series(1, ${HISTORY_PER_REQUEST}) k WHERE ${range}`)
    process.stdout.write(`\r  seeded ${Math.min(first + CHUNK - 1, REQUESTS).toLocaleString('en')} requests`)
  }
  process.stdout.write('\n')
  // direct write: set-based, the seeded offers' first times on their requests, as the migration derives them
  await db.query(REPORT_TIMES_FROM_OFFERS)
  await db.query(`SELECT setval(pg_get_serial_sequence('requests', 'id'), ${REQUESTS})`)
  await db.query('DROP TABLE bench_plan')
}

async function summaryTimes (base: string, token: string, query: string, runs = 5): Promise<{ ms: number[], periods: number }> {
  const ms: number[] = []
  let periods = 0
  for (let run = 0; run < runs; run++) {
    const start = performance.now()
    const res = await fetch(`${base}/reports/summary${query}`, { headers: { authorization: `Bearer ${token}` } })
    const body = await res.json() as { periods: unknown[] }
    if (res.status !== 200) throw new Error(`summary: ${res.status} ${JSON.stringify(body)}`)
    ms.push(performance.now() - start)
    periods = body.periods.length
  }
  return { ms, periods }
}

/** CPU seconds so far of each PostgreSQL backend serving the database (/proc, same machine), by pid. */
async function backendCpu (db: Queryable): Promise<Map<number, number>> {
  // Every backend, this statement's too: the pool hands it the connection the stream used last.
  const pids = await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()')
  const cpu = new Map<number, number>()
  for (const { pid } of pids) {
    // utime and stime, fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 a second on Linux).
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')).split(') ')[1]?.split(' ') ?? []
    if (fields.length > 13) cpu.set(pid, (Number(fields[11]) + Number(fields[12])) / 100)
  }
  return cpu
}

/**
 * Streams the CSV of every request, reading as fast as the client can, with the RSS sampled every 100 ms, and
 * the CPU per row of this process (service and client) and of the database's backends: on a machine shared
 * with other work, CPU time is the figure that does not depend on the load.
 */
async function csvStream (db: Queryable, base: string, token: string, from: string): Promise<void> {
  global.gc?.()
  const rss: number[] = [process.memoryUsage().rss]
  const sampler = setInterval(() => rss.push(process.memoryUsage().rss), 100)
  const [cpuBefore, backendsBefore] = [process.cpuUsage(), await backendCpu(db)]
  const start = performance.now()
  let firstByte = 0
  let bytes = 0
  let rows = -1
  const res = await fetch(`${base}/reports/requests.csv?from=${from}`, { headers: { authorization: `Bearer ${token}` } })
  if (res.status !== 200 || res.body === null) throw new Error(`csv: ${res.status}`)
  for await (const chunk of res.body) {
    if (firstByte === 0) firstByte = performance.now() - start
    bytes += chunk.length
    for (let k = chunk.indexOf(10); k !== -1; k = chunk.indexOf(10, k + 1)) rows++
  }
  const seconds = (performance.now() - start) / 1000
  clearInterval(sampler)
  const node = process.cpuUsage(cpuBefore)
  let backends = 0
  for (const [pid, cpu] of await backendCpu(db)) backends += cpu - (backendsBefore.get(pid) ?? 0)
  const perRow = (cpuSeconds: number) => (cpuSeconds * 1e6 / rows).toFixed(1)
  const tail = rss.slice(Math.floor(rss.length / 10))
  console.log(`CSV: ${rows.toLocaleString('en')} rows, ${mib(bytes)} MiB in ${seconds.toFixed(1)} s = ${Math.round(rows / seconds).toLocaleString('en')} rows/s ` +
    `(first byte after ${firstByte.toFixed(0)} ms)`)
  console.log(`RSS during the stream (${rss.length} samples): start ${mib(rss[0]!)} MiB, min ${mib(Math.min(...rss))}, max ${mib(Math.max(...rss))}, ` +
    `after the first tenth ${mib(Math.min(...tail))}..${mib(Math.max(...tail))} MiB, end ${mib(rss.at(-1)!)} MiB`)
  console.log(`CPU per row: Node ${perRow((node.user + node.system) / 1e6)} µs (service and client), PostgreSQL ${perRow(backends)} µs`)
}

async function main (): Promise<void> {
  const keep = process.env.BENCH_KEEP
  const name = keep ?? `vcs_bench_reports_${process.pid}`
  const server = new pg.Client({ connectionString: SERVER })
  await server.connect()
  const exists = keep !== undefined && (await server.query('SELECT 1 FROM pg_database WHERE datname = $1', [keep])).rowCount === 1
  if (!exists) await server.query(`CREATE DATABASE ${name}`)
  const url = new URL(SERVER)
  url.pathname = `/${name}`
  const db = await openPostgres(url.toString(), { statementTimeoutMs: 3_600_000 })
  try {
    // A kept database seeded by an older build gets this build's new migrations, as a deployment would.
    const applied = await timed('migrations', () => migrate(db))
    if (exists && applied.length > 0) console.log(`applied to the kept database: ${applied.join(', ')}`)
    if (!exists) await timed(`seeding ${REQUESTS.toLocaleString('en')} requests and ${(REQUESTS * HISTORY_PER_REQUEST).toLocaleString('en')} history rows`, () => seed(db))
    if (!exists || applied.length > 0) await timed('VACUUM ANALYZE', () => db.query('VACUUM ANALYZE'))
    const counts = await db.query<{ table: string, rows: number }>(`SELECT 'requests' AS table, count(*)::int AS rows FROM requests
      UNION ALL SELECT 'volunteer_responses', count(*)::int FROM volunteer_responses UNION ALL SELECT 'ratings', count(*)::int FROM ratings
      UNION ALL SELECT 'request_history', count(*)::int FROM request_history`)
    console.log(counts.map((row) => `${row.table} ${row.rows.toLocaleString('en')}`).join(', '))
    // direct write: one manager account (role 5, view_reports) for the bench's calls
    const [manager] = await db.query<{ id: number }>(`INSERT INTO users (email, password_hash, first_name, last_name)
      VALUES ('manager@example.org', 'x', 'Bench', 'Manager') ON CONFLICT DO NOTHING RETURNING id`)
    // direct write: its role, beside the account above
    if (manager !== undefined) await db.query('INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2)', [manager.id, MANAGER_ROLE_ID])
    const [{ id: managerId }] = await db.query<{ id: number }>('SELECT id FROM users WHERE email = \'manager@example.org\'') as [{ id: number }]

    const config = loadConfig({ LOG_LEVEL: 'silent', JWT_SECRET: SECRET, DATABASE_URL: url.toString(), TIME_ZONE: 'Europe/Berlin' })
    const app = await buildApp({ config, db, jwtSecret: SECRET, alertTickMs: 0, deliveryTickMs: 0, scheduleTickMs: 0, horizonTickMs: 0 })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/api/v1`
    const token = accessTokens(SECRET, 3600).sign(managerId)
    try {
      const today = new Date()
      const fiveYears = new Date(today.getTime() - (5 * 365 - 1) * 86_400_000).toISOString().slice(0, 10)
      for (const [label, query] of [['12 months by month (default)', ''], ['12 months by week', '?by=week'], [`5 years by month (from ${fiveYears})`, `?from=${fiveYears}`]] as const) {
        const { ms, periods } = await summaryTimes(base, token, query)
        console.log(`summary, ${label}: ${periods} periods, median ${median(ms).toFixed(0)} ms (runs: ${ms.map((v) => v.toFixed(0)).join(', ')} ms)`)
      }
      await csvStream(db, base, token, fiveYears)
      if (process.env.BENCH_EXPLAIN === '1') await explainReports(db, config.timeZone)
    } finally {
      await app.close()
    }
  } finally {
    await db.close()
    if (keep === undefined) await server.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await server.end()
  }
}

/** EXPLAIN ANALYZE of the summary's statements (default range by month) and of the CSV's first batch, as the service sends them. */
async function explainReports (db: Database, timeZone: string): Promise<void> {
  const range = dateRange({}, new Date(), timeZone)
  const periods = periodsOf(range, 'month', timeZone)
  await reports.withoutJit(db, async (tx) => {
    const explaining: Queryable = {
      query: async <R>(statement: Parameters<Queryable['query']>[0], params?: readonly unknown[]): Promise<R[]> => {
        const { text, values } = statementParts(statement, params)
        const plan = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values)
        console.log(`\n${plan.map((row) => row['QUERY PLAN']).join('\n')}`)
        return []
      },
    }
    await reports.createdCounts(explaining, periods)
    await reports.waits(explaining, periods)
    await reports.finishedCounts(explaining, periods)
    await reports.csvBatch(explaining, range.start, range.end, undefined, 5000)
  })
}

await main()
