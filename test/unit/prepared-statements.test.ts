import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Database } from '../../src/db/database.js'
import { scratchDatabase, type ScratchDatabase } from '../helpers/databases.js'
import { databaseEngines } from '../helpers/engines.js'

for (const engine of databaseEngines()) {
  describe(`statements through the adapter, prepared where the engine does (${engine})`, () => {
    let scratch: ScratchDatabase
    let db: Database
    /** A second connection for schema changes: PGlite has only the one. */
    let other: Database
    before(async () => {
      scratch = await scratchDatabase(engine)
      db = await scratch.open()
      other = engine === 'postgres' ? await scratch.open() : db
      await db.query('CREATE TABLE things (id int PRIMARY KEY, name text, seen timestamptz, tags jsonb)')
      await db.query("INSERT INTO things (id, name) VALUES (1, 'one')")
    })
    after(async () => {
      await db.close()
      if (other !== db) await other.close()
      await scratch.drop()
    })

    it('sends each parameter as its statement\'s type and parses the results', async () => {
      const seen = new Date('2026-01-02T03:04:05.678Z')
      const text = 'UPDATE things SET seen = $2, tags = $3 WHERE id = $1 RETURNING id, name, seen, tags, $4::bigint AS big, $5::boolean AS flag'
      for (let run = 0; run < 2; run++) { // the first run prepares, the second reuses
        const rows = await db.query(text, [1, seen, { a: [1, 'x'] }, 9007199254740991, true])
        assert.deepEqual(rows, [{ id: 1, name: 'one', seen, tags: { a: [1, 'x'] }, big: 9007199254740991, flag: true }])
      }
      assert.deepEqual(await db.query('SELECT name FROM things WHERE id = $1', [null]), [])
      assert.deepEqual(await db.query('SELECT $1::text AS text, NULL::text AS nothing, \'\' AS empty', ['Zoë fährt 🚗 ✓']),
        [{ text: 'Zoë fährt 🚗 ✓', nothing: null, empty: '' }])
    })

    it('reports a failed statement with its SQLSTATE and runs the next one normally', async () => {
      await assert.rejects(db.query("INSERT INTO things (id, name) VALUES (1, 'again')"), { code: '23505' })
      await assert.rejects(db.query('SELEC 1'), { code: '42601' })
      await assert.rejects(db.query('SELECT name FROM things WHERE id = $1', ['not a number']), { code: '22P02' })
      assert.deepEqual(await db.query('SELECT name FROM things WHERE id = $1', [1]), [{ name: 'one' }])
    })

    // PGlite's public API (the fallback) prepares nothing: these are about the engines that do.
    if (engine !== 'pglite-public') {
      it('prepares each statement text once per connection and reuses it', async () => {
        const prepared = await db.transaction(async (tx) => {
          await tx.query('SELECT name FROM things WHERE id = $1', [1])
          await tx.query('SELECT name FROM things WHERE id = $1', [1])
          return await tx.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements')
        })
        assert.equal(prepared.filter((row) => row.statement === 'SELECT name FROM things WHERE id = $1').length, 1)
      })

      it('runs a statement again unprepared when a schema change made its prepared form stale', async () => {
        const text = 'SELECT id, name FROM things ORDER BY id'
        const star = 'SELECT * FROM things ORDER BY id'
        assert.deepEqual(await db.query(text), [{ id: 1, name: 'one' }])
        assert.equal((await db.query(star)).length, 1)
        await other.query('ALTER TABLE things ADD COLUMN colour text')
        // The engine refuses the prepared form ("cached plan must not change result type"); outside a transaction it is retried.
        const [row] = await db.query<Record<string, unknown>>(star)
        assert.equal(row?.colour, null)
        assert.ok(row !== undefined && 'colour' in row)
        assert.deepEqual(await db.query(text), [{ id: 1, name: 'one' }])
      })

      it('inside a transaction the stale statement fails that transaction, and runs unprepared from then on', async () => {
        const star = 'SELECT * FROM things WHERE id = $1'
        await db.transaction(async (tx) => tx.query(star, [1]))
        await other.query('ALTER TABLE things ADD COLUMN size int')
        // Ten at once take every pooled connection, the one that prepared it among them: that one is refused.
        const results = await Promise.allSettled(Array.from({ length: 10 }, () => db.transaction(async (tx) => tx.query(star, [1]))))
        const refused = results.filter((result) => result.status === 'rejected')
        assert.ok(refused.length >= 1, 'the stale prepared statement was refused')
        for (const result of refused) assert.match(String(result.reason), /cached plan must not change result type/)
        const [row] = await db.transaction(async (tx) => tx.query<Record<string, unknown>>(star, [1]))
        assert.equal(row?.size, null)
        assert.ok(row !== undefined && 'size' in row)
      })
    }
  })
}
