import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { startApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'

const CODES = ['car', 'wheelchair_vehicle', 'door_through_door', 'lifting', 'pets_at_home', 'same_gender']

// GET /needs (docs/api/help.md › Needs): the fixed list in the table's order, in the caller's language.
for (const engine of engines()) {
  describe(`GET /needs (${engine})`, () => {
    it('answers anyone with every code, a name and a question, in English by default and in German when asked', async () => {
      const t = await startApp(engine)
      try {
        const english = await t.get('/needs')
        assert.equal(english.status, 200)
        const list = english.body as Array<{ code: string, name: string, question: string }>
        assert.deepEqual(list.map((need) => need.code), CODES)
        for (const need of list) assert.ok(need.name.length > 0 && need.question.length > 0)
        assert.equal(list[0]?.name, 'Car')

        const german = await t.request('GET', '/needs', { headers: { 'accept-language': 'fr;q=1, de-DE;q=0.9, en;q=0.5' } })
        assert.equal(german.status, 200)
        const deList = german.body as Array<{ code: string, name: string }>
        assert.deepEqual(deList.map((need) => need.code), CODES)
        assert.equal(deList[0]?.name, 'Auto')

        const unknown = await t.request('GET', '/needs', { headers: { 'accept-language': 'fr, it;q=0.8' } })
        assert.equal((unknown.body as Array<{ name: string }>)[0]?.name, 'Car')
      } finally {
        await t.close()
      }
    })
  })
}
