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

    it('an unknown route is 404 {"error":"not found"}', async () => {
      const res = await t.get('/no/such/route')
      assert.equal(res.status, 404)
      assert.deepEqual(res.body, { error: 'not found' })
    })
  })
}
