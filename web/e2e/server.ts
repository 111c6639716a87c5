// The service as the browser tests use it: the built app, a fresh in-memory embedded database, an
// admin account, and cheap password hashing. Started by Playwright's webServer.
import { mkdtemp } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { migrate } from '../../src/db/migrate.js'
import { openPglite } from '../../src/db/pglite.js'
import { newSecret } from '../../src/lib/tokens.js'
import { resolveVapid } from '../../src/lib/vapid.js'
import { ensureAdmin } from '../../src/accounts/roles/roles.service.js'
import { E2E_ADMIN } from './accounts.js'

const port = Number(process.env.E2E_PORT)

/**
 * A stand-in for a Nominatim server (no internet here): its /search answers like Nominatim's, with CORS,
 * one place for an address on Unter den Linden and none for anything else; the app calls it from the
 * browser as it would the real one.
 */
const geocoder = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://geocoder')
  const found = url.pathname === '/search' && url.searchParams.get('format') === 'jsonv2' && /unter den linden/i.test(url.searchParams.get('q') ?? '')
  res.writeHead(url.pathname === '/search' ? 200 : 404, { 'content-type': 'application/json', 'access-control-allow-origin': '*' })
  res.end(JSON.stringify(found ? [{ place_id: 1, lat: '52.5170365', lon: '13.3888599', display_name: 'Unter den Linden 1, Mitte, Berlin, 10117, Germany' }] : []))
})
await new Promise<void>((resolve) => geocoder.listen(0, '127.0.0.1', resolve))
const geocoderPort = (geocoder.address() as AddressInfo).port
const scrypt = { N: 2 ** 10, r: 8, p: 1 }
const mailDir = process.env.E2E_MAIL_DIR ?? join(tmpdir(), 'vcs-e2e-mail')
const smsDir = process.env.E2E_SMS_DIR ?? join(tmpdir(), 'vcs-e2e-sms')
// DATA_DIR holds the generated Web Push keys (the database itself is in memory); never the checkout's ./data.
const dataDir = await mkdtemp(join(tmpdir(), 'vcs-e2e-data-'))

/** One service on its own fresh database, with the settings of `env` on top of the tests' own. */
async function serveOnPort (servicePort: number, env: Record<string, string> = {}, scheduleTickMs?: number) {
  const db = await openPglite(undefined)
  await migrate(db)
  await ensureAdmin(db, E2E_ADMIN.email, E2E_ADMIN.password, scrypt)
  const config = {
    // The map's pictures from a port where nothing answers: the app must work without them (no internet here).
    // E-mails as .eml files where the tests read them (mail.ts), with links to this very service; texts as files (sms.ts).
    ...loadConfig({ LOG_LEVEL: 'warn', DATA_DIR: dataDir, PORT: String(servicePort), PUBLIC_URL: `http://127.0.0.1:${servicePort}`, MAIL_DIR: join(mailDir, String(servicePort)), SMS_DIR: join(smsDir, String(servicePort)), MAP_TILE_URL: 'http://127.0.0.1:9/{z}/{x}/{y}.png', GEOCODER_URL: `http://127.0.0.1:${geocoderPort}`, ...env }),
    scrypt,
    // Every test signs in from one address.
    rateLimits: { windowSeconds: 60, perAddress: 1_000_000, perAccount: 1_000_000 },
  }
  // Push on, as in src/main.ts: the embedded engine's keys, generated into DATA_DIR (docs/api/messaging.md › Deliveries and e-mail).
  const app = await buildApp({ config, db, jwtSecret: newSecret(), push: await resolveVapid(config), ...(scheduleTickMs !== undefined ? { scheduleTickMs } : {}) })
  await app.listen({ port: servicePort, host: '127.0.0.1' })
  return { app, db }
}

// A second service where strangers see only the city and "Erna S." (docs/privacy.md › `ADDRESS_PRIVACY=parties`), for the tests of that
// setting (PARTIES_URL in fixtures.ts); started first, so that both answer once the first one does.
const services = [
  ...(process.env.E2E_PARTIES_PORT !== undefined ? [await serveOnPort(Number(process.env.E2E_PARTIES_PORT), { ADDRESS_PRIVACY: 'parties' })] : []),
  // Addresses confirmed by a code (docs/api/accounts.md › Getting back in), for the verify-email page (CODES_URL in getting-back-in.spec.ts).
  ...(process.env.E2E_CODES_PORT !== undefined ? [await serveOnPort(Number(process.env.E2E_CODES_PORT), { EMAIL_VERIFICATION: 'code' })] : []),
  // Volunteers vetted by two checks (docs/api/accounts.md › Checks that vet volunteers), for checks-on-duty.spec.ts (CHECKS_URL there).
  ...(process.env.E2E_CHECKS_PORT !== undefined ? [await serveOnPort(Number(process.env.E2E_CHECKS_PORT), { VOLUNTEER_CHECKS: 'background,training' })] : []),
  // Visits checked in and out (docs/api/visit-checks.md), for visit-checks.spec.ts (VISITS_URL there).
  ...(process.env.E2E_VISITS_PORT !== undefined ? [await serveOnPort(Number(process.env.E2E_VISITS_PORT), { VISIT_CHECKS: 'on' })] : []),
  // The schedule's jobs every second rather than every minute (docs/api/schedule.md › Confirmation, reminders, expiry), on real time: a request whose date has
  // just passed is closed as expired within a second or two, for regular-help.spec.ts's "Ask again" (no clock is moved).
  await serveOnPort(port, {}, 1_000),
]

const stop = async (): Promise<void> => {
  for (const { app, db } of services) {
    await app.close()
    await db.close()
  }
  geocoder.close()
  process.exit(0)
}
process.once('SIGTERM', () => { stop().catch(() => process.exit(1)) })
process.once('SIGINT', () => { stop().catch(() => process.exit(1)) })
