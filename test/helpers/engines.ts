/**
 * The engines the suite runs on: PGlite always, PostgreSQL when TEST_DATABASE_URL names a server
 * (a scratch database is created on it per test app and dropped afterwards).
 */
export type Engine = 'pglite' | 'postgres'

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL?.trim() || undefined

export function engines (): Engine[] {
  return TEST_DATABASE_URL === undefined ? ['pglite'] : ['pglite', 'postgres']
}
