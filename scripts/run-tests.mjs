// Runs the whole suite: every *.test.ts under test/ and web/src/ (the web app's unit tests sit beside
// their modules) with node's test runner (node 20's --test takes no globs, so the files are listed here;
// PostgreSQL runs too when TEST_DATABASE_URL is set), then the browser tests under web/e2e with
// Playwright, against a fresh build of the web app.
// Arguments pick files: `node scripts/run-tests.mjs test/http/foo.test.ts web/e2e/account.spec.ts`.
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'

function filesUnder (dir, suffix) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return filesUnder(path, suffix)
    return entry.name.endsWith(suffix) ? [path] : []
  })
}

function run (command, args) {
  return spawnSync(command, args, { stdio: 'inherit' }).status ?? 1
}

const only = process.argv.slice(2)
const nodeFiles = only.length > 0 ? only.filter((file) => file.endsWith('.test.ts')) : [...filesUnder('test', '.test.ts'), ...filesUnder(join('web', 'src'), '.test.ts')].sort()
const browserFiles = only.length > 0 ? only.filter((file) => file.endsWith('.spec.ts')) : filesUnder(join('web', 'e2e'), '.spec.ts').sort()
// The web app's own files are served by tests of both kinds, so it is built first (when its sources changed).
// The unit tests under web/src/ import its modules from source and need no build.
const WEB_UNIT = /(^|[\\/])web[\\/]src[\\/]/
const needsWeb = browserFiles.length > 0 || nodeFiles.some((file) => /web/.test(file) && !WEB_UNIT.test(file))

if (needsWeb && run(process.execPath, ['scripts/build.mjs', 'web']) !== 0) process.exit(1)

let status = 0
if (nodeFiles.length > 0) {
  if (!process.env.TEST_DATABASE_URL) {
    process.stdout.write('NOTE: TEST_DATABASE_URL is not set: running on PGlite only, the PostgreSQL engine is NOT tested.\n')
  }
  status = run(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...nodeFiles])
}
if (browserFiles.length > 0) {
  const browser = run(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', '-c', 'web/playwright.config.ts', ...browserFiles])
  if (status === 0) status = browser
}
process.exit(status)
