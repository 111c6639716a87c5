// Builds what changed: the service (tsc into dist/) and the web app (vite into web/dist/), each only when
// a hash of its inputs differs from the one stored beside its last build, so `npm start` with nothing
// changed goes straight to serving. (A build at install would not run: .npmrc sets ignore-scripts.)
// `node scripts/build.mjs [service] [web] [--force]`: both parts by default; --force builds regardless.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const bin = (...path) => join(root, 'node_modules', ...path)

const PARTS = {
  service: {
    inputs: ['src', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'],
    outDir: 'dist',
    output: 'dist/main.js',
    // tsc leaves files whose source is gone, so the folder is emptied first.
    build: () => {
      rmSync(join(root, 'dist'), { recursive: true, force: true })
      return run(bin('typescript', 'bin', 'tsc'), ['-p', 'tsconfig.build.json'])
    },
  },
  web: {
    inputs: ['web/src', 'web/public', 'web/index.html', 'web/service-worker.js', 'web/vite.config.ts', 'web/tsconfig.json', 'package-lock.json'],
    outDir: 'web/dist',
    output: 'web/dist/index.html',
    build: () => run(bin('vite', 'bin', 'vite.js'), ['build', '--config', 'web/vite.config.ts', '--logLevel', 'warn']),
  },
}

/** The file, or every file under the folder, in a fixed order; nothing when it is missing. */
function files (path) {
  const full = join(root, path)
  if (!existsSync(full)) return []
  if (!statSync(full).isDirectory()) return [path]
  return readdirSync(full, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort()
}

/**
 * A hash of the inputs' names and contents: a checkout or an edit that changes nothing keeps it. The unit
 * tests beside the web app's modules (the *.test.ts files in web/src) are no input of its build: left out.
 */
function inputsHash (inputs) {
  const hash = createHash('sha256')
  for (const file of inputs.flatMap(files).filter((name) => !name.endsWith('.test.ts'))) hash.update(file).update('\0').update(readFileSync(join(root, file))).update('\0')
  return hash.digest('hex')
}

function run (script, args) {
  return spawnSync(process.execPath, [script, ...args], { cwd: root, stdio: 'inherit' }).status ?? 1
}

const args = process.argv.slice(2)
const force = args.includes('--force')
const named = args.filter((arg) => arg !== '--force')
const unknown = named.filter((name) => !(name in PARTS))
if (unknown.length > 0) {
  process.stderr.write(`build: unknown part ${unknown.join(', ')} (known: ${Object.keys(PARTS).join(', ')})\n`)
  process.exit(2)
}

for (const name of named.length > 0 ? named : Object.keys(PARTS)) {
  const part = PARTS[name]
  const stamp = join(root, part.outDir, '.inputs-hash')
  const hash = inputsHash(part.inputs)
  const built = existsSync(join(root, part.output)) && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash
  if (built && !force) continue
  const started = performance.now()
  process.stdout.write(`Building the ${name === 'web' ? 'web app' : 'service'} (its sources changed since the last build)...\n`)
  if (part.build() !== 0) process.exit(1)
  writeFileSync(stamp, hash)
  process.stdout.write(`Built the ${name === 'web' ? 'web app' : 'service'} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`)
}
