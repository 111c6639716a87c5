// npm run web:lighthouse: Lighthouse (mobile settings, its defaults) on the "find help nearby" page, signed
// in as a volunteer with twenty requests around them, on the same Chromium the browser tests use. Prints
// Accessibility, Best Practices, Performance and the Largest Contentful Paint (docs/web/lighthouse.md has them;
// the targets: 100, >= 95, >= 90). Not part of npm test: a score is a measurement, not a check.
//
// The service runs in this process on a fresh in-memory database, serving the built app (web/dist: the
// npm script builds it first). The page needs an account: the script signs in through the app's own
// session route and hands Lighthouse the refresh cookie as a request header, so the page loads signed in
// as a returning visitor would.
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer } from 'node:net'
import lighthouse from 'lighthouse'
import { findChromium } from '../web/e2e/browser.js'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { migrate } from '../src/db/migrate.js'
import { openPglite } from '../src/db/pglite.js'
import { newSecret } from '../src/lib/tokens.js'
import { ensureAdmin } from '../src/accounts/roles/roles.service.js'

async function freePort (): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => { resolve(typeof address === 'object' && address !== null ? address.port : 0) })
    })
  })
}

const HOME = { latitude: 52.52, longitude: 13.405 }
const ADMIN = { email: 'admin@example.org', password: 'admin password 123' }
const PASSWORD = 'correct horse battery'

const db = await openPglite(undefined)
await migrate(db)
const scrypt = { N: 2 ** 10, r: 8, p: 1 }
await ensureAdmin(db, ADMIN.email, ADMIN.password, scrypt)
const port = await freePort()
const base = `http://127.0.0.1:${port}`
const app = await buildApp({ config: { ...loadConfig({ LOG_LEVEL: 'warn', PORT: String(port) }), scrypt }, db, jwtSecret: newSecret() })
await app.listen({ port, host: '127.0.0.1' })

const call = async (method: 'GET' | 'POST', url: string, token: string | undefined, payload?: object) => {
  const response = await app.inject({ method, url: `/api/v1${url}`, payload, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } })
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`)
  return response.json()
}
const admin = (await call('POST', '/auth/login', undefined, ADMIN)).access_token as string
const requester = (await call('POST', '/auth/register', undefined, { email: 'rita@example.org', password: PASSWORD, first_name: 'Rita', last_name: 'Asker' })).access_token as string
for (let i = 0; i < 20; i++) {
  const { id } = await call('POST', '/requests', requester, {
    request_type_id: 1 + (i % 6),
    title: `Help with the shopping, week ${i + 1}`,
    description: 'Milk, bread and vegetables from the shop on the corner.',
    address: `${i + 1} Main Street`,
    city: 'Berlin',
    urgency: ['urgent', 'high', 'medium', 'low'][i % 4],
    latitude: HOME.latitude + (i - 10) / 2000,
    longitude: HOME.longitude + (i % 5 - 2) / 1500,
  })
  await call('POST', `/moderation/requests/${id}/approve`, admin, {})
}
await call('POST', '/auth/register', undefined, { email: 'vera@example.org', password: PASSWORD, first_name: 'Vera', last_name: 'Helper', ...HOME })
// Over the real port, as the app does (the session routes check that Origin names this host).
const session = await fetch(`${base}/api/v1/session`, {
  method: 'POST', body: JSON.stringify({ email: 'vera@example.org', password: PASSWORD }), headers: { 'content-type': 'application/json', 'x-vcs-csrf': '1', origin: base },
})
if (!session.ok) throw new Error(`signing in failed: ${session.status} ${await session.text()}`)
const cookie = session.headers.getSetCookie()[0]!.split(';')[0]!

const browser = await findChromium()
// A fresh profile each run: cookies do not tell ports apart, so a profile kept from an earlier run would send
// that run's session cookie to this one, and the page would be measured signed out.
const profile = await mkdtemp(join(tmpdir(), 'vcs-lighthouse-'))
const debuggingPort = await freePort()
const chrome = spawn(browser.executablePath, [...browser.args, '--headless=new', '--no-sandbox', `--remote-debugging-port=${debuggingPort}`,
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', `--user-data-dir=${profile}`, 'about:blank'], { stdio: 'ignore' })
try {
  for (let i = 0; ; i++) {
    if (await fetch(`http://127.0.0.1:${debuggingPort}/json/version`).then((r) => r.ok, () => false)) break
    if (i === 100) throw new Error('Chromium did not open its debugging port')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const url = `${base}/find-help?lat=${HOME.latitude}&lon=${HOME.longitude}&radius=5000`
  const result = await lighthouse(url, {
    port: debuggingPort, output: 'json', logLevel: 'error', onlyCategories: ['accessibility', 'best-practices', 'performance'], extraHeaders: { Cookie: cookie },
  })
  if (result === undefined) throw new Error('Lighthouse returned nothing')
  const { categories, audits } = result.lhr
  const requests = ((audits['network-requests']?.details as { items?: Array<{ url: string, statusCode: number }> } | undefined)?.items ?? [])
  if (new URL(result.lhr.finalDisplayedUrl).pathname !== '/find-help') throw new Error(`measured ${result.lhr.finalDisplayedUrl}, not the nearby page: signing in failed`)
  const shifts = (audits['layout-shifts']?.details as { items?: Array<{ node?: { snippet?: string, selector?: string }, score?: number }> } | undefined)?.items ?? []
  for (const shift of shifts) process.stdout.write(`  layout shift ${shift.score?.toFixed(3)}: ${shift.node?.selector ?? ''} ${shift.node?.snippet ?? ''}\n`)
  // The element whose paint is the LCP, and where its time went (Lighthouse's phases: TTFB, load delay, load time, render delay).
  const lcp = (audits['largest-contentful-paint-element']?.details as { items?: Array<{ items?: Array<Record<string, unknown>> }> } | undefined)?.items ?? []
  for (const row of lcp.flatMap((table) => table.items ?? [])) {
    const node = row.node as { snippet?: string } | undefined
    process.stdout.write(`  LCP ${node?.snippet ?? `${String(row.phase)}: ${Math.round(Number(row.timing))} ms`}\n`)
  }
  process.stdout.write(`API calls: ${requests.filter((r) => r.url.includes('/api/')).map((r) => `${new URL(r.url).pathname} ${r.statusCode}`).join(', ')}\n`)
  const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100)
  process.stdout.write(`Lighthouse ${result.lhr.lighthouseVersion} on ${url} (mobile, ${browser.source} Chromium)\n`)
  process.stdout.write(`Accessibility ${score('accessibility')}, Best Practices ${score('best-practices')}, Performance ${score('performance')}; ` +
    `Largest Contentful Paint ${audits['largest-contentful-paint']?.displayValue ?? '?'}, First Contentful Paint ${audits['first-contentful-paint']?.displayValue ?? '?'}, ` +
    `Total Blocking Time ${audits['total-blocking-time']?.displayValue ?? '?'}\n`)
  for (const [id, category] of Object.entries(categories)) {
    for (const ref of category.auditRefs) {
      const audit = audits[ref.id]
      if (ref.weight === 0 || audit === undefined || audit.score === null || audit.score === 1) continue
      const items = (audit.details as { items?: Array<Record<string, unknown>> } | undefined)?.items ?? []
      const what = items.map((item) => String(item.description ?? item.url ?? '')).filter((text) => text !== '').join('; ')
      process.stdout.write(`  ${id}: ${audit.id} ${audit.score} ${audit.displayValue ?? ''}${what === '' ? '' : ` (${what})`}\n`)
    }
  }
} finally {
  chrome.kill()
  await rm(profile, { recursive: true, force: true })
  await app.close()
  await db.close()
}
