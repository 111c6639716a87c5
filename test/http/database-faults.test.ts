import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../src/app.js'
import type { Database } from '../../src/db/database.js'
import { migrate } from '../../src/db/migrate.js'
import { openPostgres } from '../../src/db/postgres.js'
import { TEST_SECRET, testConfig, uniqueEmail } from '../helpers/app.js'
import { checkContract } from '../helpers/contract.js'
import { scratchDatabase, type ScratchDatabase } from '../helpers/databases.js'
import { TEST_DATABASE_URL } from '../helpers/engines.js'
import { TcpProxy } from '../helpers/tcp-proxy.js'

const CONNECT_TIMEOUT_MS = 1000
const STATEMENT_TIMEOUT_MS = 2000

// Only the server engine has a network between the service and its data.
describe('PostgreSQL unreachable mid-traffic', { skip: TEST_DATABASE_URL === undefined ? 'needs TEST_DATABASE_URL' : false }, () => {
  let scratch: ScratchDatabase
  let proxy: TcpProxy
  let db: Database
  let app: FastifyInstance

  before(async () => {
    scratch = await scratchDatabase('postgres')
    const direct = await scratch.open()
    await migrate(direct)
    await direct.close()
    const target = new URL(scratch.url as string)
    proxy = new TcpProxy(target.hostname, Number(target.port || 5432))
    await proxy.up()
    target.host = `127.0.0.1:${proxy.port}`
    db = await openPostgres(target.toString(), { connectTimeoutMs: CONNECT_TIMEOUT_MS, statementTimeoutMs: STATEMENT_TIMEOUT_MS })
    // No principal cache, so every authenticated request needs the database.
    app = await buildApp({ config: testConfig({ authCacheTtlMs: 0 }), db, jwtSecret: TEST_SECRET })
    checkContract(app)
  })
  after(async () => {
    await app.close()
    await proxy.down()
    await db.close().catch(() => {})
    await scratch.drop()
  })

  const call = async (method: 'GET' | 'POST', url: string, token?: string, payload?: object) => {
    const started = Date.now()
    const res = await app.inject({ method, url: `/api/v1${url}`, headers: token ? { authorization: `Bearer ${token}` } : {}, ...(payload ? { payload } : {}) })
    return { status: res.statusCode, body: res.json(), ms: Date.now() - started, retryAfter: res.headers['retry-after'] }
  }

  it('answers 503 quickly while the database is gone, and recovers by itself when it is back', async () => {
    const registered = await call('POST', '/auth/register', undefined, { email: uniqueEmail(), password: 'long enough', first_name: 'A', last_name: 'B' })
    assert.equal(registered.status, 201)
    const token = registered.body.access_token as string
    assert.equal((await call('GET', '/users/me', token)).status, 200)

    await proxy.down()
    for (const [method, url] of [['GET', '/users/me'], ['GET', '/ready'], ['GET', '/request-types']] as const) {
      const res = await call(method, url, token)
      assert.deepEqual([res.status, res.body], [503, { error: 'database unavailable' }], `${method} ${url}`)
      assert.equal(res.retryAfter, '5')
      // Fails within the configured limits instead of hanging.
      assert.ok(res.ms < CONNECT_TIMEOUT_MS + STATEMENT_TIMEOUT_MS + 1000, `${url} took ${res.ms} ms`)
    }

    await proxy.up()
    let recovered = false
    for (let attempt = 0; attempt < 50 && !recovered; attempt++) {
      recovered = (await call('GET', '/users/me', token)).status === 200
      if (!recovered) await new Promise((resolve) => setTimeout(resolve, 200))
    }
    assert.ok(recovered, 'the service did not recover after the database came back')
    assert.equal((await call('GET', '/ready')).status, 200)
  })
})
