import { PGlite } from '@electric-sql/pglite'
import { cube } from '@electric-sql/pglite/contrib/cube'
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance'
import type { Database, Transaction } from './database.js'

/**
 * Embedded PostgreSQL (WASM) on disk, or in memory when dataDir is undefined.
 * PGlite has a single connection: its transaction() holds it exclusively, so other
 * queries wait for the transaction to end. Keep transactions short.
 */
export async function openPglite (dataDir: string | undefined): Promise<Database> {
  const pg = await PGlite.create(dataDir, { extensions: { cube, earthdistance } })
  return {
    engine: 'pglite',
    async query (text, params) {
      const result = await pg.query(text, params as unknown[] | undefined)
      return result.rows as never[]
    },
    async transaction (fn) {
      return await pg.transaction(async (tx) => {
        const wrapped: Transaction = {
          async query (text, params) {
            return (await tx.query(text, params as unknown[] | undefined)).rows as never[]
          },
          async exec (script) { await tx.exec(script) },
        }
        return await fn(wrapped)
      })
    },
    async close () { await pg.close() },
  }
}
