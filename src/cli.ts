import { ConfigError, loadConfig, type Config } from './config.js'
import type { Database } from './db/database.js'
import { migrate } from './db/migrate.js'
import { openDatabase } from './db/open.js'

/** Start-up and command-line failures: one line on stderr meant for the operator, exit status 1. */
export function fail (message: string): never {
  process.stderr.write(`volunteer-coordination-service: ${message}\n`)
  process.exit(1)
}

/** The configuration, or exit with the reason it is refused. */
export function configOrExit (env: Record<string, string | undefined> = process.env): Config {
  try {
    return loadConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) fail(`configuration error: ${error.message}`)
    throw error
  }
}

/** The configured database with every migration applied, and the migrations this call applied. */
export async function openMigrated (config: Config): Promise<{ db: Database, applied: string[] }> {
  const db = await openDatabase(config).catch((error: Error) => fail(`cannot open the database: ${error.message}`))
  const applied = await migrate(db).catch(async (error: Error) => {
    await db.close().catch(() => {})
    return fail(error.message)
  })
  return { db, applied }
}
