import type { Sql } from 'sql-template-tag'

/**
 * A statement: a `sql` tagged template (src/db/sql.ts), its text and values already worked out (a hot
 * statement kept built, search/nearby.ts), or text with its parameters beside it.
 */
export type Statement = string | Sql | { readonly text: string, readonly values: readonly unknown[] }

/** What repositories need from a connection: run one parameterised statement, get its rows. */
export interface Queryable {
  query<R = Record<string, unknown>>(statement: Statement, params?: readonly unknown[]): Promise<R[]>
}

/** The text and parameters of a statement, whichever way it was given. */
export function statementParts (statement: Statement, params?: readonly unknown[]): { text: string, values: readonly unknown[] | undefined } {
  return typeof statement === 'string' ? { text: statement, values: params } : { text: statement.text, values: statement.values }
}

/** A connection inside a transaction; `exec` runs a multi-statement script (migrations only). */
export interface Transaction extends Queryable {
  exec(script: string): Promise<void>
}

/**
 * The one seam between the service and its two engines (PGlite and a PostgreSQL server).
 * Both speak the same SQL; `engine` is for logs and tests, never for choosing SQL. Listening for
 * notifications and the locks held on that session are src/realtime's (Realtime), not this seam's.
 */
export interface Database extends Queryable {
  readonly engine: 'pglite' | 'postgres'
  /** Runs fn in one transaction: committed when fn resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>
  close(): Promise<void>
  /** Connection pool figures, for metrics (server engine only). */
  poolStats?(): { total: number, idle: number, waiting: number }
}

/**
 * The database cannot be reached or refused service (down, restarting, timed out, out of connections).
 * The request fails fast with 503; the pool reconnects by itself when the server is back.
 */
export class DatabaseUnavailableError extends Error {
  constructor (readonly cause: unknown) {
    super('database unavailable')
    this.name = 'DatabaseUnavailableError'
  }
}

/** Engine errors carry PostgreSQL's SQLSTATE as `code` on both engines. */
export function sqlState (error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined
}

/** Constraint name of an engine error (for telling apart which unique constraint failed). */
export function constraintName (error: unknown): string | undefined {
  const name = (error as { constraint?: unknown } | null)?.constraint
  return typeof name === 'string' ? name : undefined
}

export async function maybeOne<R> (db: Queryable, statement: Statement, params?: readonly unknown[]): Promise<R | undefined> {
  const rows = await db.query<R>(statement, params)
  return rows[0]
}

export async function one<R> (db: Queryable, statement: Statement, params?: readonly unknown[]): Promise<R> {
  const row = await maybeOne<R>(db, statement, params)
  if (row === undefined) throw new Error('expected one row, got none')
  return row
}
