// The service as the browser tests use it: the built app, a fresh in-memory embedded database, an
// admin account, and cheap password hashing. Started by Playwright's webServer.
import { buildApp } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { migrate } from '../../src/db/migrate.js'
import { openPglite } from '../../src/db/pglite.js'
import { newSecret } from '../../src/lib/tokens.js'
import { ensureAdmin } from '../../src/modules/roles/roles.service.js'
import { E2E_ADMIN } from './accounts.js'

const port = Number(process.env.E2E_PORT)
const db = await openPglite(undefined)
await migrate(db)
const scrypt = { N: 2 ** 10, r: 8, p: 1 }
await ensureAdmin(db, E2E_ADMIN.email, E2E_ADMIN.password, scrypt)
const config = {
  ...loadConfig({ LOG_LEVEL: 'warn', PORT: String(port) }),
  scrypt,
  // Every test signs in from one address.
  rateLimits: { windowSeconds: 60, perAddress: 1_000_000, perAccount: 1_000_000 },
}
const app = await buildApp({ config, db, jwtSecret: newSecret() })
await app.listen({ port, host: '127.0.0.1' })

const stop = async (): Promise<void> => {
  await app.close()
  await db.close()
  process.exit(0)
}
process.once('SIGTERM', () => { stop().catch(() => process.exit(1)) })
process.once('SIGINT', () => { stop().catch(() => process.exit(1)) })
