/**
 * The engines the suite runs on: PGlite always, PostgreSQL when TEST_DATABASE_URL names a server
 * (a scratch database is created on it per test app and dropped afterwards). 'pglite-public' is PGlite
 * through its public query API only, the adapter's fallback (src/db/pglite-protocol.ts).
 */
export type Engine = 'pglite' | 'postgres' | 'pglite-public'

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL?.trim() || undefined

export function engines (): Engine[] {
  return TEST_DATABASE_URL === undefined ? ['pglite'] : ['pglite', 'postgres']
}

/**
 * The engines of the database-level tests: those of the HTTP tests and the PGlite fallback, which thus passes
 * the same tests without tripling the HTTP suite's time.
 */
export function databaseEngines (): Engine[] {
  return [...engines(), 'pglite-public']
}
