import pg from 'pg'
import { DatabaseUnavailableError, sqlState, statementParts, type Database, type Transaction } from './database.js'
import { attachListeningSession } from './listening.js'
import { StatementNames } from './statements.js'

const INT8_OID = 20

/** int8 ids arrive as strings from node-postgres; ours stay far below 2^53, so parse them to numbers. */
const types = {
  getTypeParser (oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID) return (value: string) => Number(value)
    return pg.types.getTypeParser(oid, format)
  },
}

export interface PostgresOptions {
  /** Pool size per instance. */
  max?: number
  /** How long to wait for a connection before failing the request. */
  connectTimeoutMs?: number
  /** Longest a statement may run (server side) or wait for its answer (client side). */
  statementTimeoutMs?: number
}

const NETWORK_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN'])

/** Failures of reaching the server, as opposed to failures of the statement itself. */
function isUnavailable (error: unknown): boolean {
  const state = sqlState(error)
  if (state !== undefined) {
    // 08: connection exception; 57P01-03: shutting down or starting up; 53300: too many connections.
    return state.startsWith('08') || /^57P0[123]$/.test(state) || state === '53300'
  }
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === 'string' && NETWORK_ERRORS.has(code)) return true
  const message = error instanceof Error ? error.message : ''
  return /connection terminated|timeout exceeded when trying to connect|query read timeout|connection timeout|client has encountered a connection error/i.test(message)
}

function translate (error: unknown): unknown {
  return isUnavailable(error) ? new DatabaseUnavailableError(error) : error
}

export async function openPostgres (connectionString: string, options: PostgresOptions = {}): Promise<Database> {
  const statementTimeout = options.statementTimeoutMs ?? 10_000
  const pool = new pg.Pool({
    connectionString,
    types,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 3000,
    statement_timeout: statementTimeout,
    // A little longer than the server's own limit, for a server that no longer answers at all.
    query_timeout: statementTimeout + 1000,
  })
  // An idle client that loses its server emits 'error' on the pool; without a listener that kills the process.
  pool.on('error', () => {})
  // Fail at start-up, with the driver's message, rather than on the first request.
  const probe = await pool.connect()
  probe.release()
  const names = new StatementNames()
  const statement = (text: string, params: readonly unknown[] | undefined): pg.QueryConfig => {
    const name = names.get(text)
    return { text, values: params as unknown[] | undefined, ...(name !== null ? { name } : {}) }
  }
  const query: Database['query'] = async (input, given) => {
    const { text, values: params } = statementParts(input, given)
    try {
      return (await pool.query(statement(text, params))).rows
    } catch (error) {
      // Outside a transaction a statement refused for being stale had no effect, so it can simply run again.
      if (names.stale(text, error)) return await query(text, params)
      throw translate(error)
    }
  }
  const db: Database = {
    engine: 'postgres',
    query,
    async transaction (fn) {
      const client = await pool.connect().catch((error: unknown) => { throw translate(error) })
      let broken = false
      // A server lost mid-transaction fails the statement under way and also makes the client emit 'error',
      // which without a listener would end the process; the failed statement is what this code handles.
      const lost = (): void => { broken = true }
      client.on('error', lost)
      try {
        await client.query('BEGIN')
        const tx: Transaction = {
          async query (input, given) {
            const { text, values: params } = statementParts(input, given)
            try {
              return (await client.query(statement(text, params))).rows
            } catch (error) {
              names.stale(text, error)
              throw error
            }
          },
          async exec (script) { await client.query(script) },
        }
        const result = await fn(tx)
        await client.query('COMMIT')
        return result
      } catch (error) {
        await client.query('ROLLBACK').catch(() => { broken = true })
        throw translate(error)
      } finally {
        // A client whose connection failed must not go back into the pool.
        client.off('error', lost)
        client.release(broken)
      }
    },
    async close () { await pool.end() },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  }
  return attachListeningSession(db, { engine: 'postgres', connectionString })
}
