import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { statementParts, type Database, type Statement, type Transaction } from '../../src/db/database.js'
import type { Config } from '../../src/config.js'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'
import { destination, insertRequests, setStatus } from '../helpers/requests.js'

/**
 * What one nearby search costs the database, pinned without timing anything. A search is one
 * statement in one round trip (no transaction), its text the same object from search to search (built once,
 * not per request), and the caller's roles come from the principal cache, not from a statement per
 * request. The only second statement is docs/privacy.md › Access records's access record, when the answer reveals an address.
 * A change that adds a lookup per search, or a transaction, fails here before any benchmark would show it.
 */

interface Counted { statements: string[], transactions: number }

/** Counts, while `fn` runs, the statements the app sends through `db` (each query() is one round trip) and its transactions. */
async function counting (db: Database, fn: () => Promise<void>): Promise<Counted> {
  const counted: Counted = { statements: [], transactions: 0 }
  const { query, transaction } = db
  db.query = async <R>(statement: Statement, params?: readonly unknown[]): Promise<R[]> => {
    counted.statements.push(statementParts(statement, params).text)
    return await query.call(db, statement, params) as R[]
  }
  db.transaction = async <T>(body: (tx: Transaction) => Promise<T>): Promise<T> => {
    counted.transactions++
    return await transaction.call(db, body) as T
  }
  try {
    await fn()
  } finally {
    db.query = query
    db.transaction = transaction
  }
  return counted
}

const SEARCHES = 5

for (const engine of engines()) {
  for (const settings of [{}, { locationPrivacy: 'grid', addressPrivacy: 'parties', unmoderatedInSearch: 'parties' }] as Array<Partial<Config>>) {
    describe(`statements per nearby search (${engine}, ${JSON.stringify(settings)})`, () => {
      let t: TestApp
      let volunteer: Account
      let moderator: Account
      const at = { lat: 48.1, lon: 11.6 }
      before(async () => {
        t = await startApp(engine, settings, { alertTickMs: 0 })
        const owner = await t.register({ first_name: 'Olga', last_name: 'Owner' })
        volunteer = await t.register()
        moderator = await t.registerWithRole('moderator')
        const ids = await insertRequests(t, owner.id, Array.from({ length: 30 }, (_, i) => destination(at.lat, at.lon, i * 37, 50 + i * 40)))
        await setStatus(t, ids[0]!, 'pending_moderation')
      })
      after(() => t.close())

      /** SEARCHES searches by `account` at points around `at`, after one that fills the principal cache. */
      const searches = async (account: Account): Promise<Counted> => {
        const search = async (i: number) => {
          const res = await t.get(`/requests/nearby?lat=${at.lat + i * 0.001}&lon=${at.lon}&radius=5000`, account.token)
          assert.equal(res.status, 200, res.text)
          assert.equal(res.body.length, 20)
        }
        await search(0)
        return await counting(t.db, async () => { for (let i = 1; i <= SEARCHES; i++) await search(i) })
      }

      it('a volunteer\'s search is one statement, one round trip, no transaction, the same text each time', async () => {
        const counted = await searches(volunteer)
        assert.equal(counted.transactions, 0)
        assert.equal(counted.statements.length, SEARCHES, counted.statements.join('\n---\n'))
        assert.equal(new Set(counted.statements).size, 1)
        assert.match(counted.statements[0]!, /ORDER BY knn\s+LIMIT \d+/)
      })

      it('a moderator\'s search adds only the access record of the addresses it reveals, and only under ADDRESS_PRIVACY=parties', async () => {
        const counted = await searches(moderator)
        assert.equal(counted.transactions, 0)
        const searchTexts = counted.statements.filter((text) => /ORDER BY knn/.test(text))
        const records = counted.statements.filter((text) => /INSERT INTO access_records/.test(text))
        assert.equal(searchTexts.length, SEARCHES)
        assert.equal(records.length, settings.addressPrivacy === 'parties' ? SEARCHES : 0)
        assert.equal(counted.statements.length, searchTexts.length + records.length, counted.statements.join('\n---\n'))
      })

      it('shows the same timestamps as the detail read, though it reads them as text', async () => {
        const res = await t.get(`/requests/nearby?lat=${at.lat}&lon=${at.lon}&radius=5000&limit=3`, moderator.token)
        assert.equal(res.status, 200)
        for (const item of res.body) {
          const detail = await t.get(`/requests/${item.id}`, moderator.token)
          assert.equal(item.created_at, detail.body.created_at)
          assert.match(item.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
        }
      })
    })
  }
}
