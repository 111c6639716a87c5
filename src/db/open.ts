import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Config } from '../config.js'
import type { Database } from './database.js'
import { openPglite } from './pglite.js'
import { openPostgres } from './postgres.js'

/** The PGlite data folder inside DATA_DIR (the signing secret sits beside it). */
export function pgliteDir (dataDir: string): string {
  return join(dataDir, 'pgdata')
}

/** A PostgreSQL server when DATABASE_URL is set, otherwise the embedded engine on disk in DATA_DIR. */
export async function openDatabase (config: Pick<Config, 'databaseUrl' | 'dataDir' | 'dbPoolSize' | 'dbConnectTimeoutMs' | 'dbStatementTimeoutMs'>): Promise<Database> {
  if (config.databaseUrl !== undefined) {
    return await openPostgres(config.databaseUrl, { max: config.dbPoolSize, connectTimeoutMs: config.dbConnectTimeoutMs, statementTimeoutMs: config.dbStatementTimeoutMs })
  }
  await mkdir(config.dataDir, { recursive: true })
  return await openPglite(pgliteDir(config.dataDir))
}
