import { createHash, randomBytes } from 'node:crypto'
import { readdir, readFile, rename, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import type { Database } from '../../src/db/database.js'
import { migrate, MIGRATIONS_DIR } from '../../src/db/migrate.js'
import { cube } from '@electric-sql/pglite/contrib/cube'
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance'
import { openPglite, pgliteDatabase, type PgliteOptions } from '../../src/db/pglite.js'
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

function pgliteOptions (engine: Exclude<Engine, 'postgres'>): PgliteOptions {
  if (engine === 'pglite-public') return { api: 'public' }
  // A PGlite that lost the protocol path fails the suite here instead of running it on the fallback unnoticed.
  return { warn: (message: string): never => { throw new Error(message) } }
}

/** An empty database of its own: in-memory PGlite, or a new database on the test server (a copy of `template` when given). */
export async function scratchDatabase (engine: Engine, template?: string): Promise<ScratchDatabase> {
  if (engine !== 'postgres') return { url: undefined, open: () => openPglite(undefined, pgliteOptions(engine)), drop: async () => {} }
  if (TEST_DATABASE_URL === undefined) throw new Error('TEST_DATABASE_URL is not set')
  const name = `vcs_test_${process.pid}_${randomBytes(4).toString('hex')}`
  await admin((client) => client.query(`CREATE DATABASE ${name}${template === undefined ? '' : ` TEMPLATE ${template}`}`))
  const url = new URL(TEST_DATABASE_URL)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    // Some tests bulk-load 100k rows on a busy machine: more time than the service's default statement limit.
    open: () => openPostgres(url.toString(), { statementTimeoutMs: 120_000 }),
    drop: () => admin(async (client) => { await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }),
  }
}

/** The migrations' and PGlite's fingerprint: names the migrated templates, so a changed migration makes new ones. */
let fingerprint: Promise<string> | undefined
function migrationsFingerprint (): Promise<string> {
  fingerprint ??= (async () => {
    const hash = createHash('sha256').update(await readFile(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url)))
    for (const file of (await readdir(MIGRATIONS_DIR)).sort()) hash.update(file).update(await readFile(join(MIGRATIONS_DIR, file)))
    return hash.digest('hex').slice(0, 16)
  })()
  return fingerprint
}

let postgresTemplate: Promise<string> | undefined

/**
 * The name of a database on the test server holding every migration, made once for all test processes under an
 * advisory lock and copied by CREATE DATABASE ... TEMPLATE for each test app: a copy takes a fraction of running
 * the migrations (docs/development.md). Templates of older migrations are dropped when a new one is made.
 */
function migratedPostgresTemplate (): Promise<string> {
  postgresTemplate ??= (async () => {
    const name = `vcs_template_${await migrationsFingerprint()}`
    await admin(async (client) => {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', ['vcs test template'])
      try {
        const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])
        if (found.rowCount !== 0) return
        const old = await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'vcs\\_template\\_%'")
        // Another checkout's run may still copy an old one: then it stays until a later run drops it.
        for (const { datname } of old.rows) await client.query(`DROP DATABASE IF EXISTS ${datname}`).catch(() => {})
        // Built under a name of its own and renamed once complete: a copy is never taken of half a template.
        const building = `${name}_building`
        await client.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`)
        await client.query(`CREATE DATABASE ${building}`)
        const url = new URL(TEST_DATABASE_URL!)
        url.pathname = `/${building}`
        const db = await openPostgres(url.toString())
        try {
          await migrate(db)
        } finally {
          await db.close()
        }
        await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`)
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', ['vcs test template'])
      }
    })
    return name
  })()
  return postgresTemplate
}

/** A scratch database copied from the template; made again when another run dropped it as old (invalid_catalog_name). */
async function copyOfTemplate (): Promise<ScratchDatabase> {
  try {
    return await scratchDatabase('postgres', await migratedPostgresTemplate())
  } catch (error) {
    if ((error as { code?: string }).code !== '3D000') throw error
    postgresTemplate = undefined
    return await scratchDatabase('postgres', await migratedPostgresTemplate())
  }
}

let pgliteTemplate: Promise<Blob> | undefined

/**
 * PGlite's cluster after every migration, as a dump, made once for all test processes (a file in the
 * temporary folder named by the migrations' contents and PGlite's version): a PGlite loaded from it opens
 * in about half the time of a new cluster with its initdb (docs/development.md).
 */
function migratedPgliteDump (): Promise<Blob> {
  pgliteTemplate ??= (async () => {
    const path = join(tmpdir(), `vcs-test-pglite-${await migrationsFingerprint()}.tar`)
    const saved = await readFile(path).catch(() => undefined)
    if (saved !== undefined) return new Blob([saved])
    const fresh = await PGlite.create(undefined, { extensions: { cube, earthdistance } })
    await migrate(await pgliteDatabase(fresh, { api: 'public' }))
    const dump = await fresh.dumpDataDir('none')
    await fresh.close()
    // Written whole under a name of its own, then renamed: another process never reads half a file.
    const partial = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()))
    await rename(partial, path)
    return dump
  })()
  return pgliteTemplate
}

/** A migrated database, and the way to get rid of it. */
export async function migratedDatabase (engine: Engine): Promise<{ db: Database, scratch: ScratchDatabase, dispose(): Promise<void> }> {
  const scratch = engine === 'postgres' ? await copyOfTemplate() : await scratchDatabase(engine)
  const db = engine === 'postgres' ? await scratch.open() : await openPglite(undefined, { ...pgliteOptions(engine), loadDataDir: await migratedPgliteDump() })
  // Nothing to do on a copied template or a loaded dump but check that it holds every migration unchanged.
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
