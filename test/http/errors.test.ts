import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildApp } from '../../src/app.js'
import { statementParts, type Statement } from '../../src/db/database.js'
import { startApp, TEST_SECRET, TestApp, testConfig, uniqueEmail } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { checkContract } from '../helpers/contract.js'
import { engines } from '../helpers/engines.js'

/** A line of the real (pino) log, as JSON: level 50 is error. */
type LogLine = Record<string, unknown> & { level: number }

const json = { 'content-type': 'application/json' }

/** What a failing statement looks like coming out of the driver: SQL in the message, a SQLSTATE. */
function sqlFailure (): Error {
  return Object.assign(new Error('syntax error at or near "SELEKT" in SELEKT password_hash FROM users'), { code: '42601' })
}

for (const engine of engines()) {
  describe(`errors: every failure is a JSON {"error"} body (${engine})`, () => {
    let t: TestApp
    let logged: TestApp
    const lines: LogLine[] = []

    before(async () => {
      t = await startApp(engine)
      // A second instance on the same database whose log the tests read.
      const logStream = { write: (line: string) => { lines.push(JSON.parse(line) as LogLine) } }
      const app = await buildApp({ config: testConfig({ logLevel: 'info' }), db: t.db, jwtSecret: TEST_SECRET, logStream })
      checkContract(app)
      logged = new TestApp(app, t.db, engine, t.scratch, t.admin)
    })
    after(async () => {
      await logged.app.close()
      await t.close()
    })

    it('malformed JSON is 400 invalid request body', async () => {
      for (const payload of ['{"email": "a@b.org",', '{email: 1}', 'nul', '{"a":1}}', '\u0000']) {
        assertError(await t.request('POST', '/auth/register', { payload, headers: json }), 400, 'invalid request body')
      }
    })

    it('an empty body where an object is needed is 400 invalid request body', async () => {
      assertError(await t.request('POST', '/auth/register', { payload: '', headers: json }), 400, 'invalid request body')
      assertError(await t.request('POST', '/auth/login', {}), 400, 'invalid request body')
    })

    it('a JSON array, string, number or null as the body is 400 invalid request body', async () => {
      for (const payload of ['[]', '[{"email":"a@b.org"}]', '"text"', '42', 'null', 'true']) {
        assertError(await t.request('POST', '/auth/register', { payload, headers: json }), 400, 'invalid request body')
      }
    })

    it('an empty body with a JSON content type is accepted where the operation takes no body', async () => {
      const account = await t.register()
      assertStatus(await t.request('POST', '/users/me/verify-email', { token: account.token, payload: '', headers: json }), 200)
      assertStatus(await t.request('POST', '/auth/logout', { token: account.token, payload: '', headers: json }), 200)
    })

    it('a prototype-poisoning key is 400 invalid request body', async () => {
      const payload = `{"email":"${uniqueEmail()}","password":"long enough 1","first_name":"A","last_name":"B","__proto__":{"is_admin":true}}`
      assertError(await t.request('POST', '/auth/register', { payload, headers: json }), 400, 'invalid request body')
      const constructor = '{"email":"a@b.org","password":"x","constructor":{"prototype":{"x":1}}}'
      assertError(await t.request('POST', '/auth/login', { payload: constructor, headers: json }), 400, 'invalid request body')
    })

    it('a body over 64 KiB is 413', async () => {
      const payload = JSON.stringify({ email: uniqueEmail(), password: 'long enough 1', first_name: 'A', last_name: 'B', bio: 'x'.repeat(65 * 1024) })
      assert.ok(Buffer.byteLength(payload) > 64 * 1024)
      assertError(await t.request('POST', '/auth/register', { payload, headers: json }), 413, 'request body is too large')
      // Just under the limit is read (and then judged on its merits).
      const under = JSON.stringify({ email: uniqueEmail(), password: 'long enough 1', first_name: 'A', last_name: 'B', bio: 'x'.repeat(60 * 1024) })
      assertError(await t.request('POST', '/auth/register', { payload: under, headers: json }), 400, 'bio must be at most 500 characters long')
    })

    it('a body that is not JSON is 415', async () => {
      const body = 'email=a@b.org&password=secret123'
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x']) {
        assertError(await t.request('POST', '/auth/login', { payload: body, headers: { 'content-type': type } }), 415, 'unsupported content type: send application/json')
      }
      // No content type at all, with a body.
      assertError(await t.request('POST', '/auth/login', { payload: body }), 415, 'unsupported content type: send application/json')
      // A JSON body with a charset is JSON.
      const login = await t.request('POST', '/auth/login', { payload: '{"email":"nobody@example.org","password":"x"}', headers: { 'content-type': 'application/json; charset=utf-8' } })
      assertError(login, 401, 'invalid email or password')
    })

    it('an unknown route is 404 not found, under the prefix and outside it, with any method', async () => {
      assertError(await t.get('/no/such/route'), 404, 'not found')
      assertError(await t.post('/auth/nope', { a: 1 }), 404, 'not found')
      assertError(await t.delete('/health'), 404, 'not found')
      assertError(await t.request('PUT', '/users/me', { body: {} }), 404, 'not found')
      const outside = await t.app.inject({ method: 'GET', url: '/nope' })
      assert.equal(outside.statusCode, 404)
      assert.deepEqual(outside.json(), { error: 'not found' })
      const v2 = await t.app.inject({ method: 'GET', url: '/api/v2/health' })
      assert.deepEqual([v2.statusCode, v2.json()], [404, { error: 'not found' }])
    })

    it('a malformed URL is 400 and an overlong path segment 414, both as {"error"}', async () => {
      const account = await t.register()
      assertError(await t.get('/users/%E0%A4%A', account.token), 400, 'malformed url')
      assertError(await t.get(`/users/${'1'.repeat(300)}`, account.token), 414, 'url path segment is too long')
    })

    it('a NUL character in a text field is 400 naming the field; in a key, 400 invalid request body', async () => {
      const body = { email: uniqueEmail(), password: 'long enough 1', first_name: 'A\u0000B', last_name: 'B' }
      assertError(await t.post('/auth/register', body), 400, 'invalid first_name')
      const account = await t.register()
      assertError(await t.patch('/users/me', { bio: 'nested \u0000' }, account.token), 400, 'invalid bio')
      assertError(await t.patch('/users/me', { 'bio\u0000': 'x' }, account.token), 400, 'invalid request body')
    })

    it('a string where a number is expected is 400, never coerced', async () => {
      const account = await t.register()
      assertError(await t.post('/users/me/location', { latitude: '10', longitude: 10 }, account.token), 400, 'invalid latitude')
      assertError(await t.post('/users/me/location', { latitude: 10, longitude: '10.5' }, account.token), 400, 'invalid longitude')
      assertError(await t.post('/users/me/location', { latitude: true, longitude: 10 }, account.token), 400, 'invalid latitude')
      // And a number where a string is expected.
      assertError(await t.patch('/users/me', { city: 12 }, account.token), 400, 'city must be of type string or null')
      assertError(await t.patch('/users/me', { first_name: true }, account.token), 400, 'first_name must be of type string')
    })

    it('every failure carries its request id; a success has no need of one', async () => {
      const error = await t.get('/no/such/route')
      assert.match(String(error.headers['x-request-id']), /^[0-9a-f-]{36}$/)
      const refused = await t.get('/users/me')
      assert.match(String(refused.headers['x-request-id']), /^[0-9a-f-]{36}$/)
      assert.equal((await t.get('/health')).headers['x-request-id'], undefined)
    })

    const failures: Array<[string, string, string, string, unknown?]> = [
      ['POST', '/auth/logout', 'UPDATE refresh_tokens', 'failed to logout'],
      ['PATCH', '/users/me', 'UPDATE users SET', 'failed to update profile', { bio: 'x' }],
      ['POST', '/users/me/verify-email', 'email_verified = true', 'failed to verify email'],
      ['GET', '/users/me/roles', 'SELECT r.id, r.name', 'failed to get roles'],
      ['GET', '/users/me/permissions', 'SELECT DISTINCT p.id', 'failed to get permissions'],
      ['GET', '/users/me/permissions/create_request/check', 'SELECT DISTINCT p.id', 'failed to check permission'],
      ['GET', '/request-types', 'FROM request_types', 'failed to get request types'],
      // An operation the interface gives no failure text.
      ['GET', '/users/me', 'avatar_url', 'internal server error'],
    ]
    for (const [method, path, statement, text, body] of failures) {
      it(`a server failure in ${method} ${path} is 500 ${text}: no SQL, no stack; the log has them with the request id`, async (ctx) => {
        const account = await t.register()
        const failing = (query: (sql: Statement, params?: readonly unknown[]) => Promise<unknown>) => async (sql: Statement, params?: readonly unknown[]) => {
          if (statementParts(sql, params).text.includes(statement)) throw sqlFailure()
          return await query(sql, params)
        }
        ctx.mock.method(t.db, 'query', failing(t.db.query.bind(t.db)))
        // The same statement fails inside a transaction too.
        const transaction = t.db.transaction.bind(t.db)
        ctx.mock.method(t.db, 'transaction', async (work: (tx: Parameters<Parameters<typeof transaction>[0]>[0]) => Promise<unknown>) =>
          await transaction(async (tx) => await work(Object.assign(Object.create(tx) as typeof tx, { query: failing(tx.query.bind(tx)) }))))
        lines.length = 0
        const res = await logged.request(method as 'GET', path, { token: account.token, body })
        assertError(res, 500, text)
        assert.doesNotMatch(res.text, /SELEKT|password_hash|42601|\bat\b|\.ts:/)
        const entry = lines.find((line) => line.level === 50)
        assert.ok(entry, 'the failure is logged')
        assert.equal(entry.reqId, res.headers['x-request-id'])
        const err = entry.err as { message: string, stack: string }
        assert.match(err.message, /SELEKT password_hash FROM users/)
        assert.match(err.stack, /at /)
      })
    }
  })
}
