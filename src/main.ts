import cluster, { type Worker } from 'node:cluster'
import { buildApp } from './app.js'
import { configOrExit, fail, openMigrated } from './cli.js'
import type { Config } from './config.js'
import type { Database } from './db/database.js'
import { openDatabase } from './db/open.js'
import { API_PREFIX } from './http/openapi.js'
import { normaliseEmail } from './lib/email.js'
import { resolveSigningSecret } from './lib/signing-secret.js'
import { pushOffReason, resolveVapid } from './lib/vapid.js'
import { refreshGridPoints } from './data-protection/privacy/retention.js'
import { hasAdmin } from './accounts/roles/roles.repo.js'
import { ensureAdmin } from './accounts/roles/roles.service.js'

const HOUR_MS = 3_600_000

/** What a worker tells the primary once it accepts connections. */
interface ListeningMessage { type: 'listening', port: number }

/** Where to go: the app at `/` (what a person opens) and the API beside it. */
function announce (config: Config, port: number, engine: Database['engine'], workers: number): void {
  const where = engine === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL server'
  const processes = workers > 1 ? `, ${workers} workers` : ''
  const origin = `http://${config.host}:${port}`
  process.stdout.write(`The app is at ${origin}/ and the API at ${origin}${API_PREFIX} (${where}${processes}); API reference at ${origin}${API_PREFIX}/docs\n`)
}

/** Without an admin nobody can approve a request, so nothing is ever shown to volunteers: say how to make one. */
const NO_ADMIN = 'No admin account yet: nobody can approve requests until there is one. Start with ADMIN_EMAIL and ' +
  "ADMIN_PASSWORD set, or run: npm run create-admin -- --email you@example.org --password '...'\n"

/** Schema and first admin: done once, by the single process or by the cluster's primary before it forks. */
async function prepare (config: Config): Promise<Database> {
  const { db } = await openMigrated(config)
  if (config.admin !== undefined) {
    const admin = await ensureAdmin(db, config.admin.email, config.admin.password, config.scrypt)
      .catch((error: Error) => fail(`cannot create the admin account: ${error.message}`))
    if (admin.created) process.stdout.write(`Created the admin account ${normaliseEmail(config.admin.email)}\n`)
  } else if (!await hasAdmin(db)) {
    process.stdout.write(NO_ADMIN)
  }
  // docs/privacy.md › The grid: stored grid points follow MAP_GRID_METERS before anything is served (docs/privacy.md).
  const regridded = await refreshGridPoints(db, config.mapGridMeters)
    .catch((error: Error) => fail(`cannot recompute grid points: ${error.message}`))
  if (regridded > 0) process.stdout.write(`Recomputed the grid points of ${regridded} requests for MAP_GRID_METERS=${config.mapGridMeters}\n`)
  // docs/api/messaging.md › Deliveries and e-mail: said once, here, rather than by every worker.
  const pushOff = pushOffReason(config)
  if (pushOff !== undefined) process.stdout.write(pushOff)
  return db
}

/**
 * Serves HTTP until SIGTERM or SIGINT, then finishes the requests under way and exits 0. Not close-with-grace: it exits 1 at
 * a second signal, cutting those requests off, and with WORKERS each worker gets two on Ctrl-C (the terminal's and the primary's).
 */
async function serve (config: Config, db: Database): Promise<number> {
  const jwtSecret = await resolveSigningSecret(config.jwtSecret, config.dataDir)
    .catch((error: Error) => fail(`cannot read or create the signing secret in ${config.dataDir}: ${error.message}`))
  // docs/privacy.md › `RETENTION_DAYS`: retention at start-up and hourly in every process; one at a time across them (retention.ts).
  // docs/api/accounts.md › Checks that vet volunteers: check expiry notices at start-up and hourly, each check once across processes (check-expiry.ts).
  const push = await resolveVapid(config)
    .catch((error: Error) => fail(`cannot read or create the Web Push keys in ${config.dataDir}: ${error.message}`))
  const app = await buildApp({ config, db, jwtSecret, retentionMs: HOUR_MS, checkExpiryMs: HOUR_MS, push })

  let closing = false
  const shutdown = (signal: string): void => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down: finishing in-flight requests')
    // app.close() stops accepting connections and waits for requests under way and the background jobs' runs; then the database.
    app.close()
      .then(() => db.close())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed')
        process.exit(1)
      })
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))

  try {
    await app.listen({ port: config.port, host: config.host })
  } catch (error) {
    fail(`cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`)
  }
  const address = app.server.address()
  return typeof address === 'object' && address !== null ? address.port : config.port
}

/**
 * WORKERS > 1: the primary prepares the database once, then forks the workers, which share the port
 * (node:cluster hands connections out to them). A worker that crashes is replaced; one that fails to
 * start stops the whole service. SIGTERM or SIGINT is passed on to every worker, and the primary exits
 * 0 once they have all finished their requests and exited 0.
 */
async function primary (config: Config): Promise<void> {
  await (await prepare(config)).close()

  let stopping = false
  let clean = true
  let announced = false
  // Our own bookkeeping: cluster.workers may still list a worker when its 'exit' arrives.
  const alive = new Set<Worker>()
  const listening = new Set<Worker>()
  const fork = (): void => {
    const worker = cluster.fork()
    alive.add(worker)
    worker.on('message', (message: ListeningMessage) => {
      if (message.type !== 'listening') return
      listening.add(worker)
      // Once, when every worker accepts connections.
      if (!announced && listening.size === config.workers) {
        announced = true
        announce(config, message.port, 'postgres', config.workers)
      }
    })
  }
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return
    stopping = true
    for (const worker of alive) worker.process.kill(signal)
  }
  cluster.on('exit', (worker, code, signal) => {
    alive.delete(worker)
    const started = listening.delete(worker)
    if (!stopping && !started) {
      process.stderr.write(`volunteer-coordination-service: a worker failed to start (exit ${code ?? signal}); stopping\n`)
      clean = false
      stop('SIGTERM')
    }
    // Told to stop, a serving worker finishes its requests and exits 0; anything else is a failed shutdown.
    // (One still starting has no requests, and the signal simply ends it.)
    if (stopping && started && code !== 0) clean = false
    if (stopping) {
      if (alive.size === 0) process.exit(clean ? 0 : 1)
      return
    }
    process.stderr.write(`volunteer-coordination-service: worker ${worker.process.pid} died (${code ?? signal}); starting another\n`)
    fork()
  })
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
  for (let i = 0; i < config.workers; i++) fork()
}

async function main (): Promise<void> {
  const config = configOrExit()
  if (config.workers > 1 && cluster.isPrimary) return await primary(config)

  const db = cluster.isPrimary
    ? await prepare(config)
    : await openDatabase(config).catch((error: Error) => fail(`cannot open the database: ${error.message}`))
  const port = await serve(config, db)
  if (cluster.isWorker) process.send?.({ type: 'listening', port } satisfies ListeningMessage)
  else announce(config, port, db.engine, 1)
}

await main()
