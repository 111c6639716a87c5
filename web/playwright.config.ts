import { mkdtempSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defineConfig } from '@playwright/test'
import { findChromium } from './e2e/browser.js'

/** A port nobody listens on now: other test runs on this machine must never answer our tests. */
async function freePort (): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => { resolve(typeof address === 'object' && address !== null ? address.port : 0) })
    })
  })
}

// Playwright loads this file again in its worker; the port chosen first is passed on through the environment.
process.env.E2E_PORT ??= String(await freePort())
// A second service with ADDRESS_PRIVACY=parties (web/e2e/server.ts), for the tests of that setting.
process.env.E2E_PARTIES_PORT ??= String(await freePort())
// A third with EMAIL_VERIFICATION=code; both write their e-mails as .eml files under E2E_MAIL_DIR (no SMTP_URL), where tests read codes.
process.env.E2E_CODES_PORT ??= String(await freePort())
// A fourth with VOLUNTEER_CHECKS, for the on-duty page's note on missing checks (checks-on-duty.spec.ts).
process.env.E2E_CHECKS_PORT ??= String(await freePort())
// A fifth with VISIT_CHECKS=on, for the visit's steps on the request pages (visit-checks.spec.ts).
process.env.E2E_VISITS_PORT ??= String(await freePort())
process.env.E2E_MAIL_DIR ??= mkdtempSync(join(tmpdir(), 'vcs-e2e-mail-'))
// Each service's texts as files under E2E_SMS_DIR/<port> (no SMS_SMPP_URL), where tests read codes and drop incoming texts.
process.env.E2E_SMS_DIR ??= mkdtempSync(join(tmpdir(), 'vcs-e2e-sms-'))
const port = Number(process.env.E2E_PORT)
const browser = await findChromium()
process.stdout.write(`browser tests: Chromium from ${browser.source} (${browser.executablePath})\n`)

export default defineConfig({
  testDir: './e2e',
  // Two browsers at once: one leaves a core idle while it waits on the service (docs/development.md);
  // E2E_WORKERS=1 for one at a time. Files run in parallel, the tests of a file in order.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: './test-results',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    headless: true,
    locale: 'en-GB',
    launchOptions: {
      executablePath: browser.executablePath,
      // Without these Chromium keeps trying to reach Google's servers, which this network refuses.
      args: [...browser.args, '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
    trace: 'off',
  },
  webServer: {
    command: 'node --import tsx web/e2e/server.ts',
    cwd: '..',
    url: `http://127.0.0.1:${port}/api/v1/health`,
    env: { E2E_PORT: String(port), E2E_PARTIES_PORT: process.env.E2E_PARTIES_PORT, E2E_CODES_PORT: process.env.E2E_CODES_PORT, E2E_CHECKS_PORT: process.env.E2E_CHECKS_PORT, E2E_MAIL_DIR: process.env.E2E_MAIL_DIR, E2E_SMS_DIR: process.env.E2E_SMS_DIR },
    reuseExistingServer: false,
    // Four services, each migrating its own database: over a minute on a busy machine.
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
})
