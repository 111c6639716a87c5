/**
 * npm run bench:alerts: database time of a request's first alert round with 10,000 on-duty volunteers in
 * range, on PostgreSQL (target under 20 ms; figures in docs/performance.md › Alert rounds).
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) names a server where a scratch
 * database is created and dropped.
 *
 * Two layouts: the 10,000 spread over 5 km around the request (rings of 1 km hold a few hundred each),
 * and all 10,000 within 1 km (one ring holds them all: the worst case of the fairness sort). Each has
 * 30,000 earlier alerts among the volunteers over the last day. For each of 30 approvals it reports the
 * choosing statement's execution time (EXPLAIN ANALYZE, rolled back) and the whole round as the service
 * runs it (claim, pending offers, choose and insert, reschedule, notifications, commit), timed by the client
 * on the same machine.
 */
import pg from 'pg'
import { loadConfig } from '../src/config.js'
import { statementParts, type Queryable, type Statement } from '../src/db/database.js'
import { migrate } from '../src/db/migrate.js'
import { openPostgres } from '../src/db/postgres.js'
import { gridPoint } from '../src/lib/grid.js'
import { alertVolunteers, scheduleFirstRound } from '../src/help/alerts/alerts.repo.js'
import { AlertService } from '../src/help/alerts/alerts.service.js'
import { changesOn } from '../src/areas.js'
import { insertRequest, moderateRequest } from '../src/help/requests/requests.repo.js'
import { VOLUNTEER_ROLE_ID } from '../src/accounts/roles/roles.repo.js'

const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const VOLUNTEERS = 10_000
const RUNS = Number(process.env.BENCH_RUNS ?? 30)
const CENTRE = { lat: 52.52, lon: 13.405 }
const M_PER_DEG_LAT = 111_320
const M_PER_DEG_LON = M_PER_DEG_LAT * Math.cos(CENTRE.lat * Math.PI / 180)

async function admin (sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: SERVER })
  await client.connect()
  try { await client.query(sql) } finally { await client.end() }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const p90 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.9)]!

async function layout (spreadMeters: number): Promise<{ choose: number[], round: number[], alerted: number }> {
  const name = `vcs_bench_alerts_${process.pid}_${spreadMeters}`
  await admin(`CREATE DATABASE ${name}`)
  const url = new URL(SERVER)
  url.pathname = `/${name}`
  const db = await openPostgres(url.toString(), { statementTimeoutMs: 600_000 })
  try {
    await migrate(db)
    // direct write: set-based, ten thousand accounts in one statement; users.repo inserts one per call
    await db.query(/* sql */ `
      INSERT INTO users (email, password_hash, first_name, last_name)
      SELECT 'bench' || i || '@example.org', 'x', 'Bench', 'User' FROM generate_series(1, $1::int + 1) i`, [VOLUNTEERS])
    // direct write: set-based, every account's role in one statement; roles.repo grants one per call
    await db.query('INSERT INTO user_roles (user_id, role_id) SELECT id, $1 FROM users', [VOLUNTEER_ROLE_ID])
    // Volunteers uniformly over a disc of `spreadMeters` around the centre, radius 10 km: all in range.
    // direct write: set-based, ten thousand volunteers at random points in one statement
    await db.query(/* sql */ `
      INSERT INTO volunteer_availability (user_id, on_duty, radius_meters, latitude, longitude, alert_point)
      SELECT id, true, 10000, lat, lon, ll_to_earth(lat, lon) FROM (
        SELECT id, $1 + r * sin(a) / $3 AS lat, $2 + r * cos(a) / $4 AS lon
        FROM (SELECT id, $5 * sqrt(random()) AS r, 2 * pi() * random() AS a FROM users WHERE id > 1) p
      ) q`, [CENTRE.lat, CENTRE.lon, M_PER_DEG_LAT, M_PER_DEG_LON, spreadMeters])
    // History: 3000 earlier requests, each of which alerted 10 volunteers over the last day.
    // direct write: set-based, 3000 finished requests in one statement (requests.repo creates one pending request per call)
    await db.query(/* sql */ `
      INSERT INTO requests (requester_id, request_type_id, title, description, latitude, longitude, address, urgency, status)
      SELECT 1, 1, 'Earlier', 'Earlier', $1, $2, 'Here', 'low', 'completed' FROM generate_series(1, 3000)`, [CENTRE.lat, CENTRE.lon])
    // direct write: set-based, 30,000 past alerts at random times of the last day
    await db.query(/* sql */ `
      INSERT INTO request_alerts (request_id, volunteer_id, round, sent_at)
      SELECT r.id, 2 + floor(random() * $1)::int, 1, now() - random() * interval '23 hours'
      FROM requests r CROSS JOIN generate_series(1, 10)
      ON CONFLICT DO NOTHING`, [VOLUNTEERS])
    // Each volunteer's newest alert times, as the rounds keep them (migrations/0011_alert_times.sql).
    // direct write: set-based, every volunteer's alert times from the past alerts above
    await db.query(/* sql */ `
      UPDATE volunteer_availability v SET alert_times = ARRAY(
        SELECT sent_at FROM (SELECT a.sent_at FROM request_alerts a WHERE a.volunteer_id = v.user_id ORDER BY a.sent_at DESC LIMIT 50) newest
        ORDER BY sent_at)`)
    await db.query('ANALYZE')

    const { alerts: alertSettings, mapGridMeters: gridMeters } = loadConfig({})
    const service = new AlertService(changesOn(db), alertSettings)
    const choose: number[] = []
    const round: number[] = []
    let alerted = 0
    for (let i = 0; i < RUNS; i++) {
      // Created and approved as the service does it (account 2, a volunteer, moderates).
      const request = await insertRequest(db, 1, { request_type_id: 1, title: 'Bench', description: 'Bench', latitude: CENTRE.lat, longitude: CENTRE.lon, address: 'Here', urgency: 'urgent' },
        gridPoint(CENTRE.lat, CENTRE.lon, gridMeters), gridMeters)
      const id = Number(request!.id)
      await moderateRequest(db, id, 2, 'approved', null)
      // The choosing statement alone, under EXPLAIN ANALYZE, rolled back.
      await db.transaction(async (tx) => {
        const explaining: Queryable = {
          async query<R> (statement: Statement, values?: readonly unknown[]): Promise<R[]> {
            const { text, values: params } = statementParts(statement, values)
            if (!text.includes('WITH clock')) return await tx.query<R>(text, params)
            if (process.env.BENCH_PLAN !== undefined && i === 0) {
              const plan = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE) ${text}`, params)
              process.stderr.write(plan.map((r) => r['QUERY PLAN']).join('\n') + '\n')
            }
            const [row] = await tx.query<{ 'QUERY PLAN': Array<{ 'Execution Time': number }> }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, params)
            choose.push(row!['QUERY PLAN'][0]!['Execution Time'])
            return []
          },
        }
        await alertVolunteers(explaining, {
          requestId: id, round: 1, requesterId: 1, requestTypeId: 1, latitude: CENTRE.lat, longitude: CENTRE.lon, batch: 5, ringMeters: 1000, at: null,
        })
        throw new Error('rollback')
      }).catch((error: Error) => { if (error.message !== 'rollback') throw error })
      // The whole round as the ticker runs it.
      await db.transaction((tx) => scheduleFirstRound(tx, id))
      const started = process.hrtime.bigint()
      const outcome = await service.runOne()
      round.push(Number(process.hrtime.bigint() - started) / 1e6)
      alerted += outcome?.alerted.length ?? 0
    }
    return { choose, round, alerted }
  } finally {
    await db.close()
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  }
}

for (const spread of (process.env.BENCH_SPREADS ?? '5000,1000').split(',').map(Number)) {
  const { choose, round, alerted } = await layout(spread)
  process.stdout.write(`${VOLUNTEERS} on duty within ${spread} m, ${RUNS} first rounds (${alerted} alerts): ` +
    `choosing statement median ${median(choose).toFixed(2)} ms, p90 ${p90(choose).toFixed(2)} ms; ` +
    `whole round median ${median(round).toFixed(2)} ms, p90 ${p90(round).toFixed(2)} ms\n`)
}
