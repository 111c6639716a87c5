import assert from 'node:assert/strict'
import { request as httpRequest, Agent } from 'node:http'
import { after, before, describe, it } from 'node:test'
import { HEADERS_TOO_LARGE } from '../../src/http/errors.js'
import { startApp, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'
import { createRequest, requestInput } from '../helpers/requests.js'

interface Answer { status: number, headers: Record<string, unknown>, body: string }

/** One call over a real socket through `agent` (keep-alive), so what happens to the connection is seen too. */
function call (agent: Agent, url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent, headers }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { body += chunk })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

for (const engine of engines()) {
  describe(`edges of the HTTP layer (${engine})`, () => {
    let t: TestApp
    let base: string
    before(async () => {
      t = await startApp(engine)
      base = await t.listen()
    })
    after(() => t.close())

    it('headers over 16 KiB: 431 {"error"} with Connection: close; a keep-alive client\'s next call succeeds', async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 })
      try {
        assert.equal((await call(agent, `${base}/health`)).status, 200)
        const refused = await call(agent, `${base}/health`, { 'x-padding': 'a'.repeat(17 * 1024) })
        assert.equal(refused.status, 431)
        assert.equal(refused.headers.connection, 'close')
        assert.match(String(refused.headers['content-type']), /^application\/json/)
        assert.deepEqual(JSON.parse(refused.body), { error: HEADERS_TOO_LARGE })
        // Without Connection: close the agent would reuse the reset socket and this call would fail with ECONNRESET.
        const next = await call(agent, `${base}/health`)
        assert.equal(next.status, 200)
        assert.equal(next.body, 'ok')
      } finally {
        agent.destroy()
      }
    })

    it('headers just under the limit are served', async () => {
      const agent = new Agent({ keepAlive: false })
      try {
        assert.equal((await call(agent, `${base}/health`, { 'x-padding': 'a'.repeat(15 * 1024) })).status, 200)
      } finally {
        agent.destroy()
      }
    })

    it('invalid UTF-8 in a JSON body is refused with 400 invalid request body, and nothing is stored', async () => {
      const requester = await t.register()
      const before = await t.get('/requests/my', requester.token)
      const valid = JSON.stringify(requestInput({ title: 'TITLE_PLACEHOLDER' }))
      const [head, tail] = valid.split('TITLE_PLACEHOLDER') as [string, string]
      // FF FE C3 28: not UTF-8 (FF and FE never occur; C3 must be followed by a continuation byte).
      const payload = Buffer.concat([Buffer.from(head), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from(' a lift'), Buffer.from(tail)])
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/requests', payload, headers: { 'content-type': 'application/json', authorization: `Bearer ${requester.token}` } })
      assert.equal(res.statusCode, 400)
      assert.deepEqual(res.json(), { error: 'invalid request body' })
      assert.deepEqual((await t.get('/requests/my', requester.token)).body, before.body)
      // An overlong encoding and a lone surrogate are no UTF-8 either.
      for (const bytes of [[0xc0, 0xaf], [0xed, 0xa0, 0x80]]) {
        const login = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: Buffer.concat([Buffer.from('{"email":"a@example.org","password":"'), Buffer.from(bytes), Buffer.from('"}')]), headers: { 'content-type': 'application/json' } })
        assert.equal(login.statusCode, 400)
        assert.deepEqual(login.json(), { error: 'invalid request body' })
      }
    })

    it('valid UTF-8, with or without a byte order mark, is read as sent', async () => {
      const requester = await t.register()
      const title = 'Einkäufe für Oma 🛒'
      const created = await createRequest(t, requester.token, { title })
      assert.equal(created.title, title)
      const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(requestInput({ title: 'Straße überqueren' })))])
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/requests', payload: withBom, headers: { 'content-type': 'application/json', authorization: `Bearer ${requester.token}` } })
      assert.equal(res.statusCode, 201, res.body)
      assert.equal(res.json().title, 'Straße überqueren')
      assertStatus(await t.get(`/requests/${created.id as number}`, requester.token), 200)
      assertError(await t.post('/requests', undefined, requester.token), 400, 'invalid request body')
    })
  })
}
