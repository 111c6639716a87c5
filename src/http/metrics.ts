import type { FastifyInstance } from 'fastify'
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { Database } from '../db/database.js'

/**
 * Prometheus metrics at GET /metrics (outside /api/v1, like a health probe): requests and latency by
 * route and status, the database pool, the deliveries outbox, texts (and those from unknown numbers), and the process. They hold no personal data, but expose
 * /metrics only to your monitoring network (e.g. block it at the reverse proxy).
 */
export function registerMetrics (app: FastifyInstance, db: Database): void {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const labelNames = ['method', 'route', 'status_code'] as const
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered', labelNames, registers: [registry] })
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request',
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  })
  const inFlight = new Gauge({ name: 'http_requests_in_flight', help: 'HTTP requests received and not yet answered or aborted', registers: [registry] })
  const pool = new Gauge({ name: 'db_pool_connections', help: 'Database pool connections by state', labelNames: ['state'], registers: [registry] })
  const deliveries = new Gauge({ name: 'deliveries', help: 'E-mail and push deliveries by channel and status (docs/api/messaging.md), across all instances', labelNames: ['channel', 'status'], registers: [registry] })
  const texts = new Gauge({ name: 'sms_texts', help: 'Texts (docs/api/messaging.md › Texts) by notification type or account message and status, across all instances', labelNames: ['type', 'status'], registers: [registry] })
  const segments = new Gauge({ name: 'sms_segments', help: 'Segments of the texts submitted, by type and status (what the operator pays for)', labelNames: ['type', 'status'], registers: [registry] })
  const unknownNumbers = new Gauge({
    name: 'sms_texts_from_unknown_numbers',
    help: 'Texts not understood from numbers nobody confirmed (docs/api/messaging.md › Texts › The inbox): counted, never stored; a running count across all instances',
    registers: [registry],
  })
  const oldestPending = new Gauge({ name: 'deliveries_oldest_pending_age_seconds', help: 'Age of the oldest pending delivery (0 when none); quiet hours and retries keep some waiting on purpose', registers: [registry] })

  // 'close' comes once per response, whether it was sent or the client went away.
  app.addHook('onRequest', (request, reply, done) => {
    inFlight.inc()
    reply.raw.once('close', () => inFlight.dec())
    done()
  })
  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, never the raw URL, so that ids do not explode the label space.
    const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) }
    requests.inc(labels)
    duration.observe(labels, reply.elapsedTime / 1000)
  })

  app.get('/metrics', { schema: { hide: true }, config: { auth: 'none' } }, async (_request, reply) => {
    const stats = db.poolStats?.()
    if (stats !== undefined) {
      pool.set({ state: 'total' }, stats.total)
      pool.set({ state: 'idle' }, stats.idle)
      pool.set({ state: 'waiting' }, stats.waiting)
    }
    await readDeliveries(db, deliveries, oldestPending)
    await readTexts(db, texts, segments)
    const [unknown] = await db.query<{ texts: number }>('SELECT texts FROM sms_counts WHERE kind = \'unknown_number\'')
    unknownNumbers.set(unknown?.texts ?? 0)
    return reply.type(registry.contentType).send(await registry.metrics())
  })
}

const CHANNELS = ['email', 'push', 'sms'] as const
const STATUSES = ['pending', 'sent', 'delivered', 'undeliverable', 'failed', 'dropped'] as const

/** The outbox's figures, read at each scrape: every channel and status (0 when none), and the oldest pending row's age. */
async function readDeliveries (db: Database, counts: Gauge<'channel' | 'status'>, oldestPending: Gauge): Promise<void> {
  const rows = await db.query<{ channel: string, status: string, count: number }>(
    'SELECT channel, status, count(*)::int AS count FROM deliveries GROUP BY channel, status')
  for (const channel of CHANNELS) {
    for (const status of STATUSES) counts.set({ channel, status }, rows.find((row) => row.channel === channel && row.status === status)?.count ?? 0)
  }
  const [oldest] = await db.query<{ created_at: Date | null }>('SELECT min(created_at) AS created_at FROM deliveries WHERE status = \'pending\'')
  oldestPending.set(oldest?.created_at != null ? Math.max(0, (Date.now() - new Date(oldest.created_at).getTime()) / 1000) : 0)
}

/** Texts and their segments by type and status, read at each scrape (and only those that have rows: the types are many). */
async function readTexts (db: Database, texts: Gauge<'type' | 'status'>, segments: Gauge<'type' | 'status'>): Promise<void> {
  const rows = await db.query<{ type: string, status: string, count: number, segments: number }>(`
    SELECT coalesce(n.type, d.account_message) AS type, d.status, count(*)::int AS count, coalesce(sum(d.segments), 0)::int AS segments
    FROM deliveries d LEFT JOIN notifications n ON n.id = d.notification_id
    WHERE d.channel = 'sms' GROUP BY 1, 2`)
  texts.reset()
  segments.reset()
  for (const row of rows) {
    texts.set({ type: row.type, status: row.status }, row.count)
    segments.set({ type: row.type, status: row.status }, row.segments)
  }
}
