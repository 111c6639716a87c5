import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { PGlite } from '@electric-sql/pglite'
import type { Database } from '../../src/db/database.js'
import { sql } from '../../src/db/sql.js'
import { openPglite, pgliteDatabase } from '../../src/db/pglite.js'
import { scratchDatabase, type ScratchDatabase } from '../helpers/databases.js'
import { databaseEngines } from '../helpers/engines.js'

for (const engine of databaseEngines()) {
  describe(`transactions through the adapter (${engine})`, () => {
    let scratch: ScratchDatabase
    let db: Database
    before(async () => {
      scratch = await scratchDatabase(engine)
      db = await scratch.open()
      await db.query('CREATE TABLE things (id int PRIMARY KEY, name text NOT NULL)')
    })
    after(async () => {
      await db.close()
      await scratch.drop()
    })

    const ids = async (): Promise<number[]> => (await db.query<{ id: number }>('SELECT id FROM things ORDER BY id')).map((row) => row.id)

    it('takes a sql tagged template, outside and inside a transaction, nested fragments numbered in order', async () => {
      const name = "it's"
      await db.query(sql`INSERT INTO things VALUES (${100}, ${name})`)
      const rows = await db.transaction((tx) => tx.query<{ id: number, name: string }>(
        sql`SELECT id, name FROM things WHERE id = ANY(${[100, 101]}::int[]) AND ${sql`name = ${name}`}`))
      assert.deepEqual(rows, [{ id: 100, name }])
      await db.query(sql`DELETE FROM things WHERE id = ${100}`)
    })

    it('commits when the function resolves and rolls back when it throws', async () => {
      assert.equal(await db.transaction(async (tx) => {
        await tx.query("INSERT INTO things VALUES (1, 'one')")
        return 'done'
      }), 'done')
      await assert.rejects(db.transaction(async (tx) => {
        await tx.query("INSERT INTO things VALUES (2, 'two')")
        throw new Error('undo')
      }), /undo/)
      assert.deepEqual(await ids(), [1])
    })

    it('a statement outside the transaction neither joins it nor is undone with it', async () => {
      let entered!: () => void
      const inside = new Promise<void>((resolve) => { entered = resolve })
      let release!: () => void
      const gate = new Promise<void>((resolve) => { release = resolve })
      const undone = db.transaction(async (tx) => {
        await tx.query("INSERT INTO things VALUES (3, 'three')")
        entered()
        await gate
        throw new Error('undo')
      })
      await inside
      // On PGlite's one connection this waits for the transaction to end; on the server it runs on another connection.
      const outside = db.query("INSERT INTO things VALUES (4, 'four')")
      release()
      await assert.rejects(undone, /undo/)
      await outside
      assert.deepEqual(await ids(), [1, 4])
    })

    it('runs a script inside a transaction and reports its failure with the SQLSTATE', async () => {
      await db.transaction(async (tx) => { await tx.exec("INSERT INTO things VALUES (5, 'five'); INSERT INTO things VALUES (6, 'six')") })
      await assert.rejects(db.transaction(async (tx) => { await tx.exec("INSERT INTO things VALUES (7, 'seven'); INSERT INTO things VALUES (5, 'again')") }), { code: '23505' })
      assert.deepEqual(await ids(), [1, 4, 5, 6])
    })

    it('after a failed statement the transaction commits nothing', async () => {
      const committing = db.transaction(async (tx) => {
        await tx.query("INSERT INTO things VALUES (8, 'eight')")
        await assert.rejects(tx.query("INSERT INTO things VALUES (1, 'again')"), { code: '23505' })
      })
      // PGlite reports the COMMIT that rolled back; node-postgres, like psql, does not.
      if (engine === 'postgres') await committing
      else await assert.rejects(committing, { code: '25P02' })
      assert.deepEqual(await ids(), [1, 4, 5, 6])
    })
  })
}

describe('PGlite: the protocol path and its fallback', () => {
  it('opens on the protocol path, without a warning, where PGlite offers it', async () => {
    const warnings: string[] = []
    const db = await openPglite(undefined, { warn: (message) => warnings.push(message) })
    try {
      assert.deepEqual(await db.query('SELECT $1::int AS n', [1]), [{ n: 1 }])
      // Statements run prepared under the adapter's names only on the protocol path.
      assert.ok((await db.query<{ name: string }>('SELECT name FROM pg_prepared_statements')).some((row) => row.name.startsWith('vcs_')))
      assert.deepEqual(warnings, [])
    } finally {
      await db.close()
    }
  })

  it('falls back to the public API with one warning when PGlite lacks what the protocol path needs', async () => {
    const pg = await PGlite.create()
    // An own property hides the method, as in a PGlite version without it.
    Object.defineProperty(pg, 'runExclusive', { value: undefined })
    const warnings: string[] = []
    const db = await pgliteDatabase(pg, { warn: (message) => warnings.push(message) })
    try {
      assert.equal(warnings.length, 1)
      assert.match(warnings[0]!, /runExclusive/)
      await db.transaction(async (tx) => { await tx.exec('CREATE TABLE things (id int PRIMARY KEY)') })
      assert.deepEqual(await db.query('INSERT INTO things VALUES ($1) RETURNING id', [7]), [{ id: 7 }])
      assert.deepEqual(await db.query('SELECT name FROM pg_prepared_statements'), [])
      assert.equal(warnings.length, 1)
    } finally {
      await db.close()
    }
  })

  it('close waits for the transaction under way', async () => {
    for (const api of ['protocol', 'public'] as const) {
      const db = await openPglite(undefined, { api })
      let entered!: () => void
      const inside = new Promise<void>((resolve) => { entered = resolve })
      let release!: () => void
      const gate = new Promise<void>((resolve) => { release = resolve })
      const running = db.transaction(async (tx) => {
        entered()
        await gate
        return await tx.query('SELECT 2 AS two')
      })
      await inside
      const closing = db.close()
      release()
      assert.deepEqual(await running, [{ two: 2 }], api)
      await closing
    }
  })

  it('a closed database refuses statements', async () => {
    for (const api of ['protocol', 'public'] as const) {
      const db = await openPglite(undefined, { api })
      await db.close()
      await assert.rejects(db.query('SELECT 1'), /closed/)
    }
  })
})
