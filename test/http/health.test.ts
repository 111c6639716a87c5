import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, type TestApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'

for (const engine of engines()) {
  describe(`health and unknown routes (${engine})`, () => {
    let t: TestApp
    before(async () => { t = await startApp(engine) })
    after(() => t.close())

    it('GET /health answers 200 text/plain', async () => {
      const res = await t.get('/health')
      assert.equal(res.status, 200)
      assert.match(String(res.headers['content-type']), /^text\/plain/)
      assert.equal(res.text, 'ok')
    })

    it('GET /api/v1 answers a small index whose links lead to the reference page and the OpenAPI document', async () => {
      for (const url of ['/api/v1', '/api/v1/']) {
        const res = await t.app.inject({ method: 'GET', url })
        assert.equal(res.statusCode, 200, url)
        assert.match(String(res.headers['content-type']), /^application\/json/)
        assert.deepEqual(res.json(), {
          name: 'Volunteer Coordination Service',
          version: '1.0.1',
          links: { docs: '/api/v1/docs', openapi: '/api/v1/openapi.json', health: '/api/v1/health' },
        })
      }
      const { links } = (await t.app.inject({ method: 'GET', url: '/api/v1' })).json<{ links: Record<string, string> }>()
      const docs = await t.app.inject({ method: 'GET', url: links.docs! })
      assert.ok([200, 302].includes(docs.statusCode), `docs: ${docs.statusCode}`)
      const openapi = await t.app.inject({ method: 'GET', url: links.openapi! })
      assert.equal(openapi.statusCode, 200)
      assert.equal(openapi.json<{ info: { version: string } }>().info.version, '1.0.1')
      assert.equal((await t.app.inject({ method: 'GET', url: links.health! })).body, 'ok')
    })

    it('an unknown route is 404 {"error":"not found"}', async () => {
      const res = await t.get('/no/such/route')
      assert.equal(res.status, 404)
      assert.deepEqual(res.body, { error: 'not found' })
    })
  })
}

for (const engine of engines()) {
  describe(`path ids are digits only (${engine})`, () => {
    let t: TestApp
    before(async () => { t = await startApp(engine) })
    after(() => t.close())

    for (const raw of ['1e3', '0x10', '%201', '1.0', '-1', 'abc', '99999999999999999999']) {
      it(`"${decodeURIComponent(raw)}" is not an id`, async () => {
        const user = await t.register()
        assert.deepEqual((await t.get(`/requests/${raw}`, user.token)).body, { error: 'invalid request id' })
        assert.deepEqual((await t.get(`/users/${raw}`, user.token)).body, { error: 'invalid user id' })
        const res = await t.post(`/admin/users/${raw}/roles/2`, undefined, t.admin.token)
        assert.deepEqual([res.status, res.body], [400, { error: 'invalid user_id' }])
        const role = await t.post(`/admin/users/${user.id}/roles/${raw}`, undefined, t.admin.token)
        assert.deepEqual([role.status, role.body], [400, { error: 'invalid role_id' }])
      })
    }

    it('0 is not an id: ids start at 1', async () => {
      const user = await t.register()
      const res = await t.get('/requests/0', user.token)
      assert.equal(res.status, 400)
      assert.deepEqual(res.body, { error: 'invalid request id' })
    })
  })
}
