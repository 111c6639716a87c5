import pg from 'pg'
import type { Database, Transaction } from './database.js'

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
  connectionTimeoutMillis?: number
}

export async function openPostgres (connectionString: string, options: PostgresOptions = {}): Promise<Database> {
  const pool = new pg.Pool({
    connectionString,
    types,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? 5000,
  })
  // An idle client that loses its server emits 'error' on the pool; without a listener that kills the process.
  pool.on('error', () => {})
  // Fail at start-up, with the driver's message, rather than on the first request.
  const probe = await pool.connect()
  probe.release()
  return {
    engine: 'postgres',
    async query (text, params) {
      const result = await pool.query(text, params as unknown[] | undefined)
      return result.rows
    },
    async transaction (fn) {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        const tx: Transaction = {
          async query (text, params) {
            return (await client.query(text, params as unknown[] | undefined)).rows
          },
          async exec (script) { await client.query(script) },
        }
        const result = await fn(tx)
        await client.query('COMMIT')
        return result
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {})
        throw error
      } finally {
        client.release()
      }
    },
    async close () { await pool.end() },
  }
}
