// Live event streams at scale: N open streams on one service process on PostgreSQL, the memory each
// costs that process, and the time from a commit notifying all N users to the event reaching every stream.
//
//   npm run bench:streams -- --database-url postgres://postgres@127.0.0.1:5432/postgres [--streams 10000] [--rounds 5]
//
// A scratch database is created on the server and dropped at the end. The service runs in this process
// (buildApp on a real port, one LISTEN connection); the clients run in a child process, so that their
// sockets do not count in the service's memory. Needs about 2 × N open files (`ulimit -n`).
// Figures and procedure: docs/performance.md.
import { fork } from 'node:child_process'
import { request } from 'node:http'
import { randomBytes } from 'node:crypto'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { migrate } from '../src/db/migrate.js'
import { openPostgres } from '../src/db/postgres.js'
import { gridPoint } from '../src/lib/grid.js'
import { accessTokens } from '../src/lib/tokens.js'
import { insertNotifications } from '../src/messaging/notifications/notifications.repo.js'
import { insertRequest } from '../src/help/requests/requests.repo.js'

const SECRET = randomBytes(32).toString('base64url')

interface ClientStart { base: string, tokens: string[] }
type ClientMessage = { type: 'open', failed: number } | { type: 'arrivals', round: number, times: number[] }

/** Child: opens every stream, then reports for each round when its event reached each stream (epoch ms). */
async function client (): Promise<void> {
  const { base, tokens } = await new Promise<ClientStart>((resolve) => process.once('message', (message) => resolve(message as ClientStart)))
  const arrivals = new Map<number, number[]>()
  let failed = 0
  // A few hundred connections at a time: all at once would overflow the server's listen backlog.
  const openOne = (token: string): Promise<void> => new Promise((resolve) => {
    const req = request(`${base}/events`, { headers: { authorization: `Bearer ${token}` }, agent: false }, (res) => {
      if (res.statusCode !== 200) {
        failed += 1
        resolve()
      }
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        resolve()
        for (const match of chunk.matchAll(/"round":(\d+)/g)) {
          const round = Number(match[1])
          const times = arrivals.get(round) ?? []
          times.push(performance.timeOrigin + performance.now())
          arrivals.set(round, times)
          if (times.length === tokens.length - failed) process.send?.({ type: 'arrivals', round, times } satisfies ClientMessage)
        }
      })
    })
    req.on('error', () => {
      failed += 1
      resolve()
    })
    req.end()
  })
  let next = 0
  await Promise.all(Array.from({ length: 200 }, async () => {
    while (next < tokens.length) await openOne(tokens[next++]!)
  }))
  process.send?.({ type: 'open', failed } satisfies ClientMessage)
}

function percentile (sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!
}

async function main (): Promise<void> {
  const { values } = parseArgs({ options: { 'database-url': { type: 'string' }, streams: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '5' } } })
  const serverUrl = values['database-url'] ?? process.env.DATABASE_URL
  if (serverUrl === undefined) throw new Error('--database-url or DATABASE_URL is required')
  const streams = Number(values.streams)
  const rounds = Number(values.rounds)

  const name = `vcs_bench_streams_${process.pid}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  const db = await openPostgres(url.toString(), { statementTimeoutMs: 600_000 })
  let child: ReturnType<typeof fork> | undefined
  try {
    await migrate(db)
    // direct write: set-based, up to tens of thousands of accounts in one statement; users.repo inserts one per call
    const users = await db.query<{ id: number }>(/* sql */ `
      INSERT INTO users (email, password_hash, first_name, last_name)
      SELECT 'stream' || i || '@example.org', 'x', 'Stream', 'User' || i FROM generate_series(1, $1::int) i RETURNING id`, [streams])
    const ids = users.map((row) => Number(row.id))
    const gridMeters = loadConfig({}).mapGridMeters
    const request = await insertRequest(db, ids[0]!, { request_type_id: 1, title: 'Bench', description: 'Bench', latitude: 52.5, longitude: 13.4, address: 'Street 1', urgency: 'low' },
      gridPoint(52.5, 13.4, gridMeters), gridMeters)

    const config = { ...loadConfig({ LOG_LEVEL: 'silent', JWT_SECRET: SECRET, DATABASE_URL: url.toString() }) }
    const app = await buildApp({ config, db, jwtSecret: SECRET })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const address = app.server.address() as { port: number }
    const tokens = accessTokens(SECRET, 3600)

    global.gc?.()
    const before = process.memoryUsage()
    child = fork(new URL(import.meta.url).pathname, ['--client'], { execArgv: ['--import', 'tsx'] })
    const messages: ClientMessage[] = []
    let notify: () => void = () => {}
    child.on('message', (message) => { messages.push(message as ClientMessage); notify() })
    const next = async (type: ClientMessage['type']): Promise<ClientMessage> => {
      for (;;) {
        const found = messages.findIndex((message) => message.type === type)
        if (found >= 0) return messages.splice(found, 1)[0]!
        await new Promise<void>((resolve) => { notify = resolve })
      }
    }
    const opening = Date.now()
    child.send({ base: `http://127.0.0.1:${address.port}/api/v1`, tokens: ids.map((id) => tokens.sign(id)) } satisfies ClientStart)
    const open = await next('open') as Extract<ClientMessage, { type: 'open' }>
    const openSeconds = (Date.now() - opening) / 1000
    global.gc?.()
    const after = process.memoryUsage()
    console.log(`streams open: ${app.eventStreams.size} (${open.failed} failed) in ${openSeconds.toFixed(1)} s`)
    console.log(`memory per stream: rss ${((after.rss - before.rss) / streams / 1024).toFixed(1)} KiB, heap ${((after.heapUsed - before.heapUsed) / streams / 1024).toFixed(1)} KiB` +
      ` (rss ${(before.rss / 2 ** 20).toFixed(0)} → ${(after.rss / 2 ** 20).toFixed(0)} MiB, heap ${(before.heapUsed / 2 ** 20).toFixed(0)} → ${(after.heapUsed / 2 ** 20).toFixed(0)} MiB)`)

    for (let round = 1; round <= rounds; round++) {
      const writing = performance.now()
      await db.transaction((tx) => insertNotifications(tx, ids.map((userId) => ({ userId, type: 'request_approved' as const, requestId: request!.id, data: { round } }))))
      const committed = performance.timeOrigin + performance.now()
      const transactionMs = performance.timeOrigin + performance.now() - (performance.timeOrigin + writing)
      const arrivals = await next('arrivals') as Extract<ClientMessage, { type: 'arrivals' }>
      const latencies = arrivals.times.map((time) => time - committed).sort((a, b) => a - b)
      console.log(`round ${round}: writing ${streams} notifications ${transactionMs.toFixed(0)} ms; commit → event at all ${latencies.length}: ` +
        `p50 ${percentile(latencies, 0.5).toFixed(0)} ms, p99 ${percentile(latencies, 0.99).toFixed(0)} ms, max ${latencies.at(-1)!.toFixed(0)} ms`)
    }
    child.kill()
    await app.close()
  } finally {
    child?.kill()
    await db.close()
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.end()
  }
}

if (process.argv.includes('--client')) await client()
else await main()
