import { buildApp } from './app.js'
import { configOrExit, fail, openMigrated } from './cli.js'
import { API_PREFIX } from './http/openapi.js'
import { resolveSigningSecret } from './lib/signing-secret.js'
import { ensureAdmin } from './modules/roles/roles.service.js'

async function main (): Promise<void> {
  const config = configOrExit()
  const { db } = await openMigrated(config)
  const admin = config.admin === undefined
    ? undefined
    : await ensureAdmin(db, config.admin.email, config.admin.password, config.scrypt)
      .catch((error: Error) => fail(`cannot create the admin account: ${error.message}`))
  const jwtSecret = await resolveSigningSecret(config.jwtSecret, config.dataDir)
    .catch((error: Error) => fail(`cannot read or create the signing secret in ${config.dataDir}: ${error.message}`))
  const app = await buildApp({ config, db, jwtSecret })
  if (admin !== undefined) {
    app.log.info({ userId: admin.id }, admin.created ? 'admin account created from ADMIN_EMAIL' : 'admin account from ADMIN_EMAIL exists; role admin ensured')
  }

  let closing = false
  const shutdown = (signal: string): void => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down: finishing in-flight requests')
    // app.close() stops accepting connections and waits for requests under way; then the database.
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
  const port = typeof address === 'object' && address !== null ? address.port : config.port
  const where = db.engine === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL server'
  process.stdout.write(`Listening on http://${config.host}:${port}${API_PREFIX} (${where}); API reference at ${API_PREFIX}/docs\n`)
}

await main()
