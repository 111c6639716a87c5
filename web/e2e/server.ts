// The service as the browser tests use it: the built app, a fresh in-memory embedded database, an
// admin account, and cheap password hashing. Started by Playwright's webServer.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { buildApp } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { migrate } from '../../src/db/migrate.js'
import { openPglite } from '../../src/db/pglite.js'
import { newSecret } from '../../src/lib/tokens.js'
import { ensureAdmin } from '../../src/modules/roles/roles.service.js'
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
const db = await openPglite(undefined)
await migrate(db)
const scrypt = { N: 2 ** 10, r: 8, p: 1 }
await ensureAdmin(db, E2E_ADMIN.email, E2E_ADMIN.password, scrypt)
const config = {
  // The map's pictures from a port where nothing answers: the app must work without them (no internet here).
  ...loadConfig({ LOG_LEVEL: 'warn', PORT: String(port), MAP_TILE_URL: 'http://127.0.0.1:9/{z}/{x}/{y}.png', GEOCODER_URL: `http://127.0.0.1:${geocoderPort}` }),
  scrypt,
  // Every test signs in from one address.
  rateLimits: { windowSeconds: 60, perAddress: 1_000_000, perAccount: 1_000_000 },
}
const app = await buildApp({ config, db, jwtSecret: newSecret() })
await app.listen({ port, host: '127.0.0.1' })

const stop = async (): Promise<void> => {
  await app.close()
  await db.close()
  geocoder.close()
  process.exit(0)
}
process.once('SIGTERM', () => { stop().catch(() => process.exit(1)) })
process.once('SIGINT', () => { stop().catch(() => process.exit(1)) })
