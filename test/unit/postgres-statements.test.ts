import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Database } from '../../src/db/database.js'
import { scratchDatabase, type ScratchDatabase } from '../helpers/databases.js'
import { engines } from '../helpers/engines.js'

for (const engine of engines()) {
  if (engine !== 'postgres') continue
  describe(`prepared statements on the PostgreSQL server (${engine})`, () => {
    let scratch: ScratchDatabase
    let db: Database
    let other: Database
    before(async () => {
      scratch = await scratchDatabase('postgres')
      db = await scratch.open()
      other = await scratch.open()
      await db.query('CREATE TABLE things (id int PRIMARY KEY, name text)')
      await db.query("INSERT INTO things VALUES (1, 'one')")
    })
    after(async () => {
      await db.close()
      await other.close()
      await scratch.drop()
    })

    it('prepares each statement text once per connection and reuses it', async () => {
      const prepared = await db.transaction(async (tx) => {
        await tx.query('SELECT name FROM things WHERE id = $1', [1])
        await tx.query('SELECT name FROM things WHERE id = $1', [1])
        return await tx.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements')
      })
      assert.equal(prepared.filter((row) => row.statement === 'SELECT name FROM things WHERE id = $1').length, 1)
    })

    it('runs a statement again unprepared when a schema change made its prepared form stale', async () => {
      const text = 'SELECT * FROM things ORDER BY id'
      assert.deepEqual(await db.query(text), [{ id: 1, name: 'one' }])
      await other.query('ALTER TABLE things ADD COLUMN colour text')
      // The server refuses the prepared form ("cached plan must not change result type"); outside a transaction it is retried.
      assert.deepEqual(await db.query(text), [{ id: 1, name: 'one', colour: null }])
      assert.deepEqual(await db.query(text), [{ id: 1, name: 'one', colour: null }])
    })

    it('inside a transaction the stale statement fails that transaction, and runs unprepared from then on', async () => {
      const text = 'SELECT * FROM things WHERE id = $1'
      await db.transaction(async (tx) => tx.query(text, [1]))
      await other.query('ALTER TABLE things ADD COLUMN size int')
      // Ten at once take every pooled connection, the one that prepared it among them: that one is refused.
      const results = await Promise.allSettled(Array.from({ length: 10 }, () => db.transaction(async (tx) => tx.query(text, [1]))))
      const refused = results.filter((result) => result.status === 'rejected')
      assert.ok(refused.length >= 1, 'the stale prepared statement was refused')
      for (const result of refused) assert.match(String(result.reason), /cached plan must not change result type/)
      assert.deepEqual(await db.transaction(async (tx) => tx.query(text, [1])), [{ id: 1, name: 'one', colour: null, size: null }])
    })
  })
}
