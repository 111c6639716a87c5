import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { scratchDatabase, type ScratchDatabase } from '../helpers/databases.js'
import { TEST_DATABASE_URL } from '../helpers/engines.js'
import { uniqueEmail } from '../helpers/app.js'
import { machineTimeoutMs, startService as startProcess, type RunningService } from '../helpers/service.js'

const ROOT = new URL('../../', import.meta.url)
const SECRET = 'startup-test-secret-that-is-long-enough-0123'

/** The environment of a spawned service: only what the test gives it, plus PATH and HOME. */
function environment (env: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'silent', ...env }
}

/** Starts src/main.ts from the repository's root and waits for the line that says where it listens. */
const startService = (env: Record<string, string>): Promise<RunningService> => startProcess(environment(env), undefined, { cwd: ROOT })

/** Runs a command to its end: exit code and output. */
function run (args: string[], env: Record<string, string>): Promise<{ code: number | null, stdout: string, stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env: environment(env), stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString() })
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString() })
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })))
}

function stop (child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.on('exit', (code) => resolve(code))
    child.kill('SIGTERM')
  })
}

async function call (base: string, method: string, path: string, body?: unknown, token?: string): Promise<{ status: number, body: any }> {
  const headers: Record<string, string> = {}
  if (body !== undefined) headers['content-type'] = 'application/json'
  if (token !== undefined) headers.authorization = `Bearer ${token}`
  const res = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) })
  const text = await res.text()
  return { status: res.status, body: res.headers.get('content-type')?.includes('json') === true ? JSON.parse(text) : text }
}

interface Setting { name: string, env: () => Record<string, string> }

const settings: Setting[] = [{ name: 'embedded database in DATA_DIR', env: () => ({}) }]
let scratch: ScratchDatabase | undefined
if (TEST_DATABASE_URL !== undefined) {
  settings.push({ name: 'PostgreSQL at DATABASE_URL', env: () => ({ DATABASE_URL: scratch!.url!, JWT_SECRET: SECRET }) })
}

for (const setting of settings) {
  describe(`the service as a process: ${setting.name}`, { timeout: machineTimeoutMs(120_000) }, () => {
    let dataDir: string
    before(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'vcs-startup-'))
      if (setting.name.startsWith('PostgreSQL')) scratch = await scratchDatabase('postgres')
    })
    after(async () => {
      await rm(dataDir, { recursive: true, force: true })
      await scratch?.drop()
      scratch = undefined
    })

    it('says where the app and the API are, and, on a database without an admin, how to make one', async () => {
      const running = await startService({ DATA_DIR: dataDir, ...setting.env() })
      try {
        assert.match(running.base, /^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/)
        const origin = running.base.replace(/\/api\/v1$/, '')
        assert.match(running.stdout(), new RegExp(`^The app is at ${origin}/ and the API at ${origin}/api/v1 `, 'm'))
        assert.match(running.stdout(), /^No admin account yet: nobody can approve requests until there is one\. Start with ADMIN_EMAIL and ADMIN_PASSWORD set, or run: npm run create-admin/m)
      } finally {
        assert.equal(await stop(running.child), 0)
      }
    })

    it('Web Push (docs/api/messaging.md): keys generated in DATA_DIR on the embedded engine and kept; off with DATABASE_URL alone, said once', async () => {
      const env = { DATA_DIR: dataDir, ...setting.env() }
      const first = await startService(env)
      let key: unknown
      try {
        const res = await call(first.base, 'GET', '/push/public-key')
        if (setting.name.startsWith('PostgreSQL')) {
          assert.deepEqual(res, { status: 404, body: { error: 'push is not configured' } })
          assert.equal(first.stdout().match(/^Web Push is off: set VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT/gm)?.length, 1)
        } else {
          assert.equal(res.status, 200)
          key = res.body.public_key
          assert.equal(JSON.parse(await readFile(join(dataDir, 'vapid.json'), 'utf8')).publicKey, key)
          assert.doesNotMatch(first.stdout(), /Web Push is off/)
        }
      } finally {
        assert.equal(await stop(first.child), 0)
      }
      if (key === undefined) return
      const second = await startService(env)
      try {
        assert.deepEqual(await call(second.base, 'GET', '/push/public-key'), { status: 200, body: { public_key: key } })
      } finally {
        assert.equal(await stop(second.child), 0)
      }
    })

    it('starts, serves, stops on SIGTERM with status 0, and starts again with sessions and data intact', async () => {
      const adminEmail = uniqueEmail('startup-admin')
      const env = { DATA_DIR: dataDir, ADMIN_EMAIL: adminEmail, ADMIN_PASSWORD: 'startup admin password', ...setting.env() }
      const first = await startService(env)
      let running: RunningService | undefined = first
      try {
        assert.deepEqual(await call(first.base, 'GET', '/health'), { status: 200, body: 'ok' })
        const email = uniqueEmail('startup')
        const registered = await call(first.base, 'POST', '/auth/register', { email, password: 'startup password', first_name: 'Start', last_name: 'Up' })
        assert.equal(registered.status, 201)
        assert.equal(await stop(first.child), 0)
        running = undefined

        const second = await startService(env)
        running = second
        assert.doesNotMatch(second.stdout(), /No admin account/)
        const me = await call(second.base, 'GET', '/auth/me', undefined, registered.body.access_token)
        assert.deepEqual(me, { status: 200, body: { id: registered.body.user.id, email } })
        assert.equal((await call(second.base, 'POST', '/auth/login', { email, password: 'startup password' })).status, 200)
        assert.equal((await call(second.base, 'POST', '/auth/refresh', { refresh_token: registered.body.refresh_token })).status, 200)
        // The admin from ADMIN_EMAIL, bootstrapped on both starts, exists once and can administer.
        const admin = await call(second.base, 'POST', '/auth/login', { email: adminEmail, password: 'startup admin password' })
        assert.equal(admin.status, 200)
        assert.equal((await call(second.base, 'GET', '/roles', undefined, admin.body.access_token)).status, 200)
        assert.equal(await stop(second.child), 0)
        running = undefined
      } finally {
        if (running !== undefined) await stop(running.child)
      }
    })

    it('npm run create-admin makes an admin who can log in, and says so without the password', async () => {
      const email = uniqueEmail('cli-admin')
      const env = { DATA_DIR: dataDir, ...setting.env() }
      const created = await run(['scripts/create-admin.ts', '--email', email.toUpperCase(), '--password', 'cli admin password'], env)
      assert.equal(created.code, 0, created.stderr)
      assert.match(created.stdout, new RegExp(`^created admin account ${email.replaceAll('.', '\\.')} \\(id \\d+\\)\\n$`, 'm'))
      assert.doesNotMatch(created.stdout + created.stderr, /cli admin password/)
      // Again, from the environment this time, with another password: the account keeps its own.
      const again = await run(['scripts/create-admin.ts'], { ...env, ADMIN_EMAIL: email, ADMIN_PASSWORD: 'another password' })
      assert.equal(again.code, 0, again.stderr)
      assert.match(again.stdout, /already existed: it holds role admin now; its password is unchanged/)
      assert.doesNotMatch(again.stdout + again.stderr, /another password/)

      const service = await startService(env)
      try {
        const login = await call(service.base, 'POST', '/auth/login', { email, password: 'cli admin password' })
        assert.equal(login.status, 200)
        assert.equal((await call(service.base, 'GET', '/roles', undefined, login.body.access_token)).status, 200)
        assert.equal((await call(service.base, 'POST', '/auth/login', { email, password: 'another password' })).status, 401)
      } finally {
        assert.equal(await stop(service.child), 0)
      }
    })

    it('npm run migrate brings the database up to date', async () => {
      const result = await run(['scripts/migrate.ts'], { DATA_DIR: dataDir, ...setting.env() })
      assert.equal(result.code, 0, result.stderr)
      assert.equal(result.stdout, 'database is up to date\n')
    })
  })
}

describe('the service refuses a bad configuration', { timeout: machineTimeoutMs(60_000) }, () => {
  it('exits with status 1 and one clear line on stderr', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'vcs-startup-'))
    try {
      const cases: Array<[Record<string, string>, string]> = [
        [{ JWT_SECRET: 'short' }, 'configuration error: JWT_SECRET must be at least 32 characters long'],
        [{ PORT: 'eighty' }, 'configuration error: PORT must be a whole number from 0 to 65535, got "eighty"'],
        [{ DATABASE_URL: 'postgres://127.0.0.1:1/none' }, 'configuration error: JWT_SECRET is required when DATABASE_URL is set'],
        [{ ADMIN_EMAIL: 'admin@example.org' }, 'configuration error: ADMIN_EMAIL and ADMIN_PASSWORD must be set together'],
      ]
      for (const [env, message] of cases) {
        const result = await run(['src/main.ts'], { DATA_DIR: dataDir, ...env })
        assert.equal(result.code, 1, JSON.stringify(env))
        assert.equal(result.stderr, `volunteer-coordination-service: ${message}\n`)
        assert.equal(result.stdout, '')
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  it('npm run create-admin refuses bad input with a clear message', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'vcs-startup-'))
    try {
      const env = { DATA_DIR: dataDir }
      const short = await run(['scripts/create-admin.ts', '--email', uniqueEmail(), '--password', 'short'], env)
      assert.equal(short.code, 1)
      assert.equal(short.stderr, 'volunteer-coordination-service: configuration error: ADMIN_PASSWORD must be 8 to 128 characters long\n')
      const none = await run(['scripts/create-admin.ts'], env)
      assert.equal(none.code, 1)
      assert.equal(none.stderr, 'volunteer-coordination-service: give --email and --password, or set ADMIN_EMAIL and ADMIN_PASSWORD\n')
      const unknown = await run(['scripts/create-admin.ts', '--name', 'x'], env)
      assert.equal(unknown.code, 1)
      assert.match(unknown.stderr, /usage: npm run create-admin -- --email <address> --password <8 to 128 characters>/)
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  it('a database it cannot reach is a clear message too', async () => {
    const result = await run(['src/main.ts'], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', JWT_SECRET: SECRET })
    assert.equal(result.code, 1)
    assert.match(result.stderr, /^volunteer-coordination-service: cannot open the database: .*ECONNREFUSED.*\n$/)
  })
})

describe('npm run openapi:export', { timeout: machineTimeoutMs(60_000) }, () => {
  it('writes the document the service serves', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vcs-openapi-'))
    try {
      const out = join(dir, 'openapi.json')
      const result = await run(['scripts/export-openapi.ts', '--out', out], {})
      assert.equal(result.code, 0, result.stderr)
      assert.equal(result.stdout, `wrote ${out}\n`)
      const doc = JSON.parse(await readFile(out, 'utf8'))
      assert.equal(doc.openapi, '3.1.0')
      assert.equal(doc.info.version, '1.0.1')
      assert.ok(doc.paths['/api/v1/auth/register'].post)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
