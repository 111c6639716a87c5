import { createServer } from 'node:net'
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
const port = Number(process.env.E2E_PORT)
const browser = await findChromium()
process.stdout.write(`browser tests: Chromium from ${browser.source} (${browser.executablePath})\n`)

export default defineConfig({
  testDir: './e2e',
  // Two cores are shared with the rest of the suite; one browser at a time keeps runs steady.
  workers: 1,
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
    env: { E2E_PORT: String(port) },
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
})
