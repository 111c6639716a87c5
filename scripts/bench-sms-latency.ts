/**
 * npm run bench:sms-latency: commit-to-submit of texts through the whole service (goal p99 at most 5 s; figures in
 * docs/performance.md › Current figures and docs/bench/sms-latency.md). In this one process: the `smpp` package's server,
 * acknowledging each submit_sm as an operator's gateway would (as scripts/bench-sms.ts's does), and the service on
 * a real port, bound to it (SMS_SMPP_URL), with its own sending loop at its shipped tick. The database is PGlite in
 * memory, or PostgreSQL at DATABASE_URL (a scratch database: the bench adds accounts and requests and drops nothing).
 *
 * Setup, through the HTTP API as a client would: `BENCH_TEXTS` requesters (default 200), each with a mobile number
 * confirmed by the code texted to it, texts on for request_approved, and one request awaiting moderation. Then a
 * moderator approves them all over `BENCH_CONNECTIONS` connections (default 4), as fast as they answer or at
 * `BENCH_RATE` a second; each text is timed from its approval's answer (just after the commit that writes its sms
 * row) to its submit_sm's arrival at the server (the last part's, matched by the destination number).
 * Prints one JSON object; `--out FILE` writes it there too.
 */
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { migrate } from '../src/db/migrate.js'
import { openPglite } from '../src/db/pglite.js'
import { openPostgres } from '../src/db/postgres.js'
import { ADMIN_ROLE_ID, grantRole } from '../src/accounts/roles/roles.repo.js'
import { ensureAdmin } from '../src/accounts/roles/roles.service.js'
import { newSecret } from '../src/lib/tokens.js'
import { json } from './lib/http.js'
import { startSmppSink } from './bench/smpp-sink.js'

const TEXTS = Number(process.env.BENCH_TEXTS ?? 200)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4)
const RATE = Number(process.env.BENCH_RATE ?? 0)
const DATABASE_URL = process.env.DATABASE_URL
/** How long the texts may take to arrive in full before the missing ones count as lost. */
const ARRIVAL_TIMEOUT_MS = 120_000
const now = (): number => performance.timeOrigin + performance.now()
const sleep = async (ms: number): Promise<void> => { await new Promise((resolve) => setTimeout(resolve, ms)) }

// The operator's side: every whole text (the last part of a concatenated one) by its destination, with its arrival time.
const arrived = new Map<string, Array<{ at: number, text: string }>>()
const { port: smppPort, close: closeSink } = await startSmppSink((pdu) => {
  const at = now()
  const body = pdu.short_message as { udh?: Buffer[], message: string }
  const header = body.udh?.find((element) => element[0] === 0x00)
  if (header === undefined || header[4] === header[3]) {
    const to = String(pdu.destination_addr)
    arrived.set(to, [...arrived.get(to) ?? [], { at, text: String(body.message) }])
  }
})

const db = DATABASE_URL !== undefined ? await openPostgres(DATABASE_URL) : await openPglite(undefined)
await migrate(db)
const scrypt = { N: 2 ** 10, r: 8, p: 1 }
const config = {
  ...loadConfig({
    LOG_LEVEL: 'error',
    SMS_SMPP_URL: `smpp://bench:bench@127.0.0.1:${smppPort}`,
    SMS_FROM: '+4930123456',
    SMS_DAILY_LIMIT: '1000000',
    SMS_DAILY_LIMIT_PER_NUMBER: '1000',
    // Never the checkout's ./data (e-mails of the setup are written as files, with no SMTP_URL).
    DATA_DIR: join(tmpdir(), 'vcs-bench-sms-latency'),
  }),
  // Cheap password hashing, as the tests': the setup registers hundreds of accounts; every one from 127.0.0.1.
  scrypt,
  rateLimits: { windowSeconds: 60, perAddress: 1_000_000, perAccount: 1_000_000 },
}
const app = await buildApp({ config, db, jwtSecret: newSecret() })
await app.listen({ port: 0, host: '127.0.0.1' })
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1`

async function call (method: string, path: string, body: unknown, token: string | undefined, expect: number): Promise<any> {
  const res = await json(base, method, path, body, token)
  if (res.status !== expect) throw new Error(`${method} ${path} answered ${res.status} ${JSON.stringify(res.body)}`)
  return res.body
}

/** `workers` loops taking items off `items` and running `fn` on each. */
async function pool<T> (items: readonly T[], workers: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0
  await Promise.all(Array.from({ length: workers }, async () => {
    while (next < items.length) {
      const index = next++
      await fn(items[index]!, index)
    }
  }))
}

async function register (label: string): Promise<{ id: number, token: string }> {
  const body = await call('POST', '/auth/register', { email: `${label}.${randomBytes(4).toString('hex')}@example.org`, password: 'correct horse battery', first_name: 'Bench', last_name: 'Requester' }, undefined, 201)
  return { id: body.user.id as number, token: body.access_token as string }
}

async function textTo (to: string, index: number): Promise<string> {
  const deadline = now() + 30_000
  for (;;) {
    const text = arrived.get(to)?.[index]
    if (text !== undefined) return text.text
    if (now() > deadline) throw new Error('no phone code arrived within 30 s')
    await sleep(10)
  }
}

// The moderator: an account given the role by the admin through the admin API.
const adminEmail = `admin.${randomBytes(4).toString('hex')}@example.org`
const { id: adminId } = await ensureAdmin(db, adminEmail, 'admin password 123', scrypt)
await grantRole(db, adminId, ADMIN_ROLE_ID, null)
const admin = await call('POST', '/auth/login', { email: adminEmail, password: 'admin password 123' }, undefined, 200)
const moderator = await register('moderator')
await call('POST', `/admin/users/${moderator.id}/roles/2`, undefined, admin.access_token, 200)

// The requesters: a number each (0151 and eight digits), confirmed by its code; texts on for request_approved; one pending request.
const setupStart = now()
const requests: Array<{ id: number, to: string }> = []
await pool(Array.from({ length: TEXTS }, (_, i) => i), CONNECTIONS, async (i) => {
  const requester = await register(`requester${i}`)
  const e164 = `+49151${String(20_000_000 + i)}`
  const to = e164.slice(1)
  await call('PATCH', '/users/me', { phone: e164 }, requester.token, 200)
  await call('POST', '/users/me/phone/verify', {}, requester.token, 202)
  const code = /\b(\d{6})\b/.exec(await textTo(to, 0))?.[1]
  if (code === undefined) throw new Error('no code in the phone code text')
  await call('POST', '/users/me/phone/verify/confirm', { code }, requester.token, 200)
  await call('PUT', '/users/me/notification-settings', { sms: { enabled: true, types: ['request_approved'] } }, requester.token, 200)
  const created = await call('POST', '/requests', {
    request_type_id: 1 + (i % 6),
    title: `Text bench ${i}`,
    description: 'Made by the benchmark to be approved and texted about.',
    latitude: 52.52,
    longitude: 13.405,
    address: 'Benchmarkstraße 1',
    urgency: 'medium',
  }, requester.token, 201)
  requests.push({ id: created.id as number, to })
})
const setupSeconds = (now() - setupStart) / 1000

// The phase: approvals as fast as the connections allow (or at RATE a second); each answer's time by number.
const committed = new Map<string, number>()
let failed = 0
const cpuStart = process.cpuUsage()
const phaseStart = now()
await pool(requests, CONNECTIONS, async ({ id, to }, index) => {
  const wait = RATE > 0 ? phaseStart + (1000 * index) / RATE - now() : 0
  if (wait > 0) await sleep(wait)
  const res = await json(base, 'POST', `/moderation/requests/${id}/approve`, {}, moderator.token)
  if (res.status === 200) committed.set(to, now())
  else failed += 1
})
const approvalSeconds = (now() - phaseStart) / 1000
const deadline = now() + ARRIVAL_TIMEOUT_MS
while ([...committed.keys()].some((to) => (arrived.get(to)?.length ?? 0) < 2) && now() < deadline) await sleep(10)
const cpu = process.cpuUsage(cpuStart)

const latencies: number[] = []
let first = Infinity
let last = phaseStart
for (const [to, at] of committed) {
  const text = arrived.get(to)?.[1]
  if (text === undefined) continue
  latencies.push(Math.max(0, text.at - at))
  first = Math.min(first, text.at)
  last = Math.max(last, text.at)
}
const seconds = (last - phaseStart) / 1000

await app.close()
await db.close()
closeSink()

const sorted = [...latencies].sort((a, b) => a - b)
const at = (share: number): number | null => sorted.length === 0 ? null : Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * share) - 1)]!)
const result = {
  date: new Date().toISOString(),
  commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim(),
  node: process.version,
  engine: DATABASE_URL !== undefined ? 'postgres' : 'pglite',
  texts: TEXTS,
  connections: CONNECTIONS,
  approval_rate: RATE > 0 ? RATE : 'as fast as answered',
  setup_seconds: Math.round(setupSeconds * 10) / 10,
  approvals_per_second: Math.round(committed.size / approvalSeconds),
  approvals_failed: failed,
  texts_arrived: latencies.length,
  texts_lost: committed.size - latencies.length,
  // Over the phase, from the first approval to the last text (so a short run counts the first text's wait too);
  // and between the first text's arrival and the last's, the rate the outbox kept up once under way.
  texts_per_second: Math.round(latencies.length / seconds),
  texts_per_second_arriving: latencies.length < 2 ? null : Math.round((latencies.length - 1) / ((last - first) / 1000)),
  commit_to_submit_ms: { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: at(1) },
  // Everything in this process: the HTTP answers, the sending loop, the gateway, the SMPP server, and PGlite when it is the engine.
  cpu_ms_per_text: latencies.length === 0 ? null : Math.round((cpu.user + cpu.system) / 1000 / latencies.length * 100) / 100,
  cpu_share_of_one_core: Math.round((cpu.user + cpu.system) / 1000 / (seconds * 1000) * 100) / 100,
  load_average: loadavg().map((load) => Math.round(load * 10) / 10),
}
const output = JSON.stringify(result, null, 2)
process.stdout.write(`${output}\n`)
const out = process.argv.indexOf('--out')
if (out !== -1 && process.argv[out + 1] !== undefined) writeFileSync(process.argv[out + 1]!, `${output}\n`)
process.exit(latencies.length === committed.size && failed === 0 ? 0 : 1)
