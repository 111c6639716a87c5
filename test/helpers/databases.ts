import { randomBytes } from 'node:crypto'
import pg from 'pg'
import type { Database } from '../../src/db/database.js'
import { migrate } from '../../src/db/migrate.js'
import { openPglite } from '../../src/db/pglite.js'
import { openPostgres } from '../../src/db/postgres.js'
import { TEST_DATABASE_URL, type Engine } from './engines.js'

export interface ScratchDatabase {
  /** Connection string of the scratch database (postgres only). */
  url: string | undefined
  open(): Promise<Database>
  drop(): Promise<void>
}

async function admin<T> (fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

/** An empty database of its own: in-memory PGlite, or a new database on the test server. */
export async function scratchDatabase (engine: Engine): Promise<ScratchDatabase> {
  if (engine === 'pglite-public') {
    return { url: undefined, open: () => openPglite(undefined, { api: 'public' }), drop: async () => {} }
  }
  if (engine === 'pglite') {
    // A PGlite that lost the protocol path fails the suite here instead of running it on the fallback unnoticed.
    const warn = (message: string): never => { throw new Error(message) }
    return { url: undefined, open: () => openPglite(undefined, { warn }), drop: async () => {} }
  }
  if (TEST_DATABASE_URL === undefined) throw new Error('TEST_DATABASE_URL is not set')
  const name = `vcs_test_${process.pid}_${randomBytes(4).toString('hex')}`
  await admin((client) => client.query(`CREATE DATABASE ${name}`))
  const url = new URL(TEST_DATABASE_URL)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    // Some tests bulk-load 100k rows on a busy machine: more time than the service's default statement limit.
    open: () => openPostgres(url.toString(), { statementTimeoutMs: 120_000 }),
    drop: () => admin(async (client) => { await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }),
  }
}

/** A migrated database, and the way to get rid of it. */
export async function migratedDatabase (engine: Engine): Promise<{ db: Database, scratch: ScratchDatabase, dispose(): Promise<void> }> {
  const scratch = await scratchDatabase(engine)
  const db = await scratch.open()
  await migrate(db)
  return {
    db,
    scratch,
    async dispose () {
      await db.close()
      await scratch.drop()
    },
  }
}
