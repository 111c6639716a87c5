import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { maybeOne, sqlState, type Database } from './database.js'
import { sql } from './sql.js'

/** Same place relative to src/db and dist/db. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url))

/** Any constant works, as long as every instance uses the same one. */
const MIGRATION_LOCK_KEY = 7_301_940_226

export class MigrationError extends Error {}

/**
 * Applies the migrations not yet applied, in file-name order, each in its own transaction under
 * one advisory lock, so several instances starting at once apply each file exactly once.
 * A file changed after it was applied stops start-up: migrations are forward-only.
 */
export async function migrate (db: Database, dir: string = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await readdir(dir)).filter((name) => /^\d{4}_[a-z0-9_]+\.sql$/.test(name)).sort()
  const applied: string[] = []
  for (const file of files) {
    const script = await readFile(`${dir}/${file}`, 'utf8')
    const checksum = createHash('sha256').update(script).digest('hex')
    const version = Number(file.slice(0, 4))
    const ran = await db.transaction(async (tx) => {
      await tx.query(sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`)
      await tx.exec(/* sql */ `CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        checksum text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`)
      const done = await maybeOne<{ checksum: string }>(tx, sql`SELECT checksum FROM schema_migrations WHERE version = ${version}`)
      if (done !== undefined) {
        if (done.checksum !== checksum) throw new MigrationError(`migration ${file} was changed after it was applied`)
        return false
      }
      try {
        await tx.exec(script)
      } catch (error) {
        throw new MigrationError(explain(file, error))
      }
      await tx.query(sql`INSERT INTO schema_migrations (version, name, checksum) VALUES (${version}, ${file}, ${checksum})`)
      return true
    })
    if (ran) applied.push(file)
  }
  return applied
}

function explain (file: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  if (sqlState(error) === '42501' && /extension/i.test(message)) {
    return `migration ${file} failed: ${message}. The earthdistance extension needs a superuser: ` +
      'ask your database administrator to run CREATE EXTENSION cube; CREATE EXTENSION earthdistance; in this database'
  }
  return `migration ${file} failed: ${message}`
}
