// The deliveries scenario (docs/performance.md › Deliveries): e-mails from the service's sending loop to the bench's
// own SMTP server (smtp-sink.ts), and pushes to its own Web Push receiver (push-sink.ts), which the service
// must be started against:
//   SMTP_URL=smtp://127.0.0.1:<--smtp-port> PUSH_ENDPOINT_HOSTS=localhost NODE_EXTRA_CA_CERTS=<--push-tls-dir>/cert.pem
//   PUBLIC_URL=http://127.0.0.1:3000 node dist/main.js
// Each delivery is a request of the bench account approved by a moderator (demo-2), which e-mails its
// requester and pushes to its one device (request_approved is on for both by default). Two measures per run:
//   steady:  --deliveries approvals as fast as --connections allow (or --approval-rate a second); commit-to-send per message, from the
//            approval's answer (just after its commit) to the message's arrival at the sink.
//   backlog: the sink holds the e-mail senders at MAIL FROM while --deliveries more are approved (a mail server
//            that is slow or down; the pushes queue behind them in the loop), then lets go: how fast the loop
//            drains a backlog, from the release.
import { performance } from 'node:perf_hooks'
import { json } from '../lib/http.js'
import { Latencies, result, type Result } from './results.js'
import { clientPoint, type Context } from './scenarios.js'
import type { PushSink } from './push-sink.js'
import type { SmtpSink } from './smtp-sink.js'
import { cpuPerRequest, cpuSnapshot, memorySampler } from './usage.js'

const now = () => performance.timeOrigin + performance.now()
/** How long a phase may take to arrive in full before the missing messages count as errors. */
const ARRIVAL_TIMEOUT_MS = 120_000

/** When the last message arrived (now, when none did). */
const lastOf = (arrived: Map<number, number>) => (arrived.size === 0 ? now() : Math.max(...arrived.values()))

/** `workers` loops taking items off `items` and running `fn` on each. */
async function pool<T> (items: readonly T[], workers: number, fn: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items]
  await Promise.all(Array.from({ length: workers }, async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await fn(item)
  }))
}

/**
 * `count` requests of the bench account awaiting moderation, far (about 170 km) from the seeded
 * volunteers, so that their alert rounds find nobody and the run measures the deliveries rather than alerts.
 */
async function pendingRequests (ctx: Context, count: number, tag: string): Promise<number[]> {
  const ids: number[] = []
  const far = { lat: ctx.options.center.lat + 1.5, lon: ctx.options.center.lon }
  await pool(Array.from({ length: count }, (_, i) => i), ctx.options.connections, async (i) => {
    const { lat, lon } = clientPoint(ctx.random, far)
    const res = await json(ctx.options.base, 'POST', '/requests', {
      request_type_id: 1 + (i % 6),
      title: `Delivery bench ${tag} ${i}`,
      description: 'Made by the benchmark to be approved; deleted at the end.',
      latitude: lat,
      longitude: lon,
      address: 'Benchmarkstraße 1',
      urgency: 'medium',
    }, ctx.creator.token)
    if (res.status !== 201) throw new Error(`creating a request answered ${res.status} ${JSON.stringify(res.body)}`)
    ids.push(res.body.id as number)
  })
  return ids
}

/** Approves every request as the moderator; the time each answer came back, by request id. */
async function approveAll (ctx: Context, ids: readonly number[], errors: { count: number }, rate = 0): Promise<Map<number, number>> {
  const answered = new Map<number, number>()
  const start = now()
  let started = 0
  await pool(ids, ctx.options.connections, async (id) => {
    // At most `rate` approvals a second when it is set: the i-th starts no earlier than i / rate s in.
    const wait = rate > 0 ? start + (1000 * started++) / rate - now() : 0
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    const res = await json(ctx.options.base, 'POST', `/moderation/requests/${id}/approve`, {}, ctx.token)
    if (res.status === 200) answered.set(id, now())
    else errors.count += 1
  })
  return answered
}

/** Commit-to-send of each message that arrived, from `since(id)`; missing ones count as errors. */
function measured (name: string, committed: Map<number, number>, arrived: Array<Map<number, number>>, since: (id: number) => number, start: number, peak: number | undefined, errors: number): Result {
  const latencies = new Latencies()
  for (const channel of arrived) {
    for (const id of committed.keys()) {
      const at = channel.get(id)
      if (at === undefined) latencies.add(0, 'error')
      else latencies.add(Math.max(0, at - since(id)), 250)
    }
    for (let i = 0; i < errors; i++) latencies.add(0, 'error')
  }
  // Throughput counts delivered messages only, up to the last one's arrival; p95 beside the table's p50 and p99.
  const count = arrived.reduce((sum, channel) => sum + channel.size, 0)
  const seconds = (Math.max(...arrived.map(lastOf)) - start) / 1000
  const r = result(name, latencies, seconds, peak)
  return { ...r, requestsPerSecond: count / seconds, p95: latencies.percentile(95) }
}

/** A phase's rows: e-mail alone, and with push each channel and both together; CPU is per delivery of either channel. */
function phaseResults (phase: string, committed: Map<number, number>, email: Map<number, number>, push: Map<number, number> | undefined,
  since: (id: number) => number, start: number, peak: number | undefined, errors: number, cpu: Result['cpu']): Result[] {
  if (push === undefined) return [{ ...measured(`deliveries, ${phase}`, committed, [email], since, start, peak, errors), cpu }]
  return [
    { ...measured(`deliveries, ${phase}, e-mail`, committed, [email], since, start, peak, errors), cpu },
    { ...measured(`deliveries, ${phase}, push`, committed, [push], since, start, peak, errors), cpu },
    { ...measured(`deliveries, ${phase}, both`, committed, [email, push], since, start, peak, errors), cpu },
  ]
}

/** The messages of `ids` that arrived by each channel (waited for one after the other: the clock is in the arrivals). */
async function arrivals (sink: SmtpSink, push: PushSink | undefined, ids: Set<number>) {
  const email = await sink.waitFor(ids, ARRIVAL_TIMEOUT_MS)
  return { email, push: await push?.waitFor(ids, ARRIVAL_TIMEOUT_MS) }
}

export async function runDeliveries (ctx: Context, sink: SmtpSink, push: PushSink | undefined): Promise<Result[]> {
  const { options } = ctx
  const n = options.deliveries
  const tag = `${Date.now()}`
  await push?.subscribe(options.base, ctx.creator.token)
  const steadyIds = await pendingRequests(ctx, n, `${tag}s`)
  const backlogIds = await pendingRequests(ctx, n, `${tag}b`)

  // Steady: approvals as fast as the API answers them; the loop sends alongside.
  const steadyErrors = { count: 0 }
  let memory = memorySampler(options)
  let before = await cpuSnapshot(options, ctx.db)
  const steadyStart = now()
  const steadyCommitted = await approveAll(ctx, steadyIds, steadyErrors, options.approvalRate)
  const approvalSeconds = (now() - steadyStart) / 1000
  const steady = await arrivals(sink, push, new Set(steadyCommitted.keys()))
  const steadyCount = steady.email.size + (steady.push?.size ?? 0)
  const steadyCpu = cpuPerRequest(before, await cpuSnapshot(options, ctx.db), steadyCount)
  const results = phaseResults('steady', steadyCommitted, steady.email, steady.push, (id) => steadyCommitted.get(id)!, steadyStart, await memory.stop(), steadyErrors.count, steadyCpu)
  process.stderr.write(`  (steady: ${steadyCommitted.size} approvals at ${(steadyCommitted.size / approvalSeconds).toFixed(0)}/s)\n`)

  // Backlog: the sink holds the senders while the approvals are made, then lets go all at once.
  sink.hold()
  const backlogErrors = { count: 0 }
  const backlogCommitted = await approveAll(ctx, backlogIds, backlogErrors)
  memory = memorySampler(options)
  before = await cpuSnapshot(options, ctx.db)
  const released = now()
  sink.release()
  const backlog = await arrivals(sink, push, new Set(backlogCommitted.keys()))
  const backlogCount = backlog.email.size + (backlog.push?.size ?? 0)
  const backlogCpu = cpuPerRequest(before, await cpuSnapshot(options, ctx.db), backlogCount)
  results.push(...phaseResults('backlog', backlogCommitted, backlog.email, backlog.push, () => released, released, await memory.stop(), backlogErrors.count, backlogCpu))
  return results
}
