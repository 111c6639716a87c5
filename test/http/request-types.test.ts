import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'

const SEEDED = [
  { id: 1, name: 'Shopping', description: 'Groceries, pharmacy and other errands', icon: 'shopping-cart', is_active: true, default_needs: [] },
  { id: 2, name: 'Transport and escort', description: 'A lift or company on the way somewhere', icon: 'car', is_active: true, default_needs: [] },
  { id: 3, name: 'Household help', description: 'Small jobs and a hand around the home', icon: 'home', is_active: true, default_needs: [] },
  { id: 4, name: 'Accompaniment to appointments', description: 'Company at the doctor, an office or a hearing', icon: 'calendar', is_active: true, default_needs: [] },
  { id: 5, name: 'Technology help', description: 'Phones, computers, online forms and video calls', icon: 'laptop', is_active: true, default_needs: [] },
  { id: 6, name: 'Other', description: 'Anything else a neighbour could help with', icon: 'help-circle', is_active: true, default_needs: [] },
]

for (const engine of engines()) {
  describe(`request types (${engine})`, () => {
    let t: TestApp
    before(async () => { t = await startApp(engine) })
    after(() => t.close())

    it('GET /request-types needs no token and lists the seeded kinds of help, all active', async () => {
      const res = await t.get('/request-types')
      assertStatus(res, 200)
      assert.deepEqual(res.body, SEEDED)
    })

    it('a token, when sent, changes nothing', async () => {
      const account = await t.register()
      assert.deepEqual((await t.get('/request-types', account.token)).body, SEEDED)
    })

    it('an inactive type is listed with is_active false', async () => {
      const [row] = await t.db.query<{ id: number }>("INSERT INTO request_types (name, is_active) VALUES ('Retired kind', false) RETURNING id")
      try {
        const res = await t.get('/request-types')
        assert.deepEqual(res.body.at(-1), { id: row!.id, name: 'Retired kind', description: null, icon: null, is_active: false, default_needs: [] })
      } finally {
        await t.db.query('DELETE FROM request_types WHERE id = $1', [row!.id])
      }
    })

    it('a database failure is 500 failed to get request types, with nothing else in the body', async (ctx) => {
      ctx.mock.method(t.db, 'query', async () => {
        throw Object.assign(new Error('relation "request_types" does not exist'), { code: '42P01' })
      })
      const res = await t.get('/request-types')
      assertError(res, 500, 'failed to get request types')
    })
  })
}
