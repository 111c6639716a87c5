// Runs the whole suite with node's test runner: every *.test.ts under test/ (node 20's --test takes
// no globs, so the files are listed here). PostgreSQL runs too when TEST_DATABASE_URL is set.
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'

function testFiles (dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return testFiles(path)
    return entry.name.endsWith('.test.ts') ? [path] : []
  })
}

const only = process.argv.slice(2)
const files = only.length > 0 ? only : testFiles('test').sort()
if (!process.env.TEST_DATABASE_URL) {
  process.stdout.write('NOTE: TEST_DATABASE_URL is not set: running on PGlite only, the PostgreSQL engine is NOT tested.\n')
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], { stdio: 'inherit' })
process.exit(result.status ?? 1)
