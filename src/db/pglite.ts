import { PGlite, protocol } from '@electric-sql/pglite'
import { cube } from '@electric-sql/pglite/contrib/cube'
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance'
import type { Database, NotifyHandler, Transaction } from './database.js'
import { StatementNames } from './statements.js'
import { Answer, concat, type Column, type Parsers } from './wire.js'

const { serialize } = protocol

/**
 * Embedded PostgreSQL (WASM) on disk, or in memory when dataDir is undefined.
 * PGlite has a single connection: its transaction() holds it exclusively, so other
 * queries wait for the transaction to end. Keep transactions short.
 *
 * Statements run prepared, as on the server engine: PGlite's own query() parses and plans each statement
 * every time, in six calls into PostgreSQL. Here each statement text is parsed once under a name, and every
 * later run is a single call (bind, execute, sync) whose answer wire.ts reads (docs/performance.md).
 */
export async function openPglite (dataDir: string | undefined): Promise<Database> {
  const pg = await PGlite.create(dataDir, { extensions: { cube, earthdistance } })
  const names = new StatementNames()
  /** What each named statement takes and gives, learnt when it was prepared. */
  const described = new Map<string, { parameterTypes: number[], columns: Column[] }>()
  const parsers = pg.parsers as Parsers
  /** listen() handlers by channel. A NOTIFY reaches them through PGlite's own parser (a commit run by its
   * transaction()) or, for a statement run outside a transaction, through the answer read in send(). */
  const listeners = new Map<string, Set<NotifyHandler>>()
  const deliver = (channel: string, payload: string): void => {
    for (const handler of listeners.get(channel) ?? []) queueMicrotask(() => handler(payload))
  }

  /** Sends protocol messages and reads the answer's bytes itself (see wire.ts); throws the statement's error. */
  async function send (message: Uint8Array, syncToFs: boolean): Promise<Answer> {
    const chunks: Uint8Array[] = []
    // The bytes are a view of PGlite's memory, reused by its next write: copied as they come.
    await pg.execProtocolRawStream(message, { syncToFs, onRawData: (bytes) => { chunks.push(bytes.slice()) } })
    const answer = new Answer(chunks)
    const error = answer.error()
    if (error !== undefined) throw error
    if (listeners.size > 0) for (const { channel, payload } of answer.notifications()) deliver(channel, payload)
    return answer
  }

  /**
   * Runs one statement; the caller holds PGlite's query lock. A statement without a name (past the
   * cap, or stale) is parsed afresh as the unnamed statement. Outside a transaction the change is synced to disk.
   */
  async function run (text: string, params: readonly unknown[] = [], inTransaction: boolean): Promise<never[]> {
    await pg._checkReady()
    const name = names.get(text) ?? ''
    let statement = name === '' ? undefined : described.get(name)
    if (statement === undefined) {
      const answer = await send(concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]), false)
      statement = { parameterTypes: answer.parameterTypes(), columns: answer.columns() }
      if (name !== '') described.set(name, statement)
    }
    const { parameterTypes, columns } = statement
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null
      const serializer = pg.serializers[parameterTypes[i] ?? 0]
      return serializer !== undefined ? serializer(param) : String(param)
    })
    const answer = await send(concat([serialize.bind({ statement: name, values }), serialize.execute({}), serialize.sync()]), !inTransaction)
    return answer.rows(columns, parsers) as never[]
  }

  const query: Database['query'] = async (text, params) => {
    try {
      // The transaction lock first, as PGlite's query() takes it: no statement runs inside another caller's transaction.
      return await pg._runExclusiveTransaction(() => pg._runExclusiveQuery(() => run(text, params, false)))
    } catch (error) {
      // Outside a transaction a statement refused for being stale had no effect, so it can simply run again.
      if (names.stale(text, error)) return await query(text, params)
      throw error
    }
  }

  return {
    engine: 'pglite',
    query,
    async transaction (fn) {
      return await pg.transaction(async (tx) => {
        const wrapped: Transaction = {
          async query (text, params) {
            try {
              return await pg._runExclusiveQuery(() => run(text, params, true))
            } catch (error) {
              names.stale(text, error)
              throw error
            }
          },
          async exec (script) { await tx.exec(script) },
        }
        return await fn(wrapped)
      })
    },
    async listen (channel, handler) {
      let handlers = listeners.get(channel)
      if (handlers === undefined) {
        handlers = new Set()
        listeners.set(channel, handlers)
        // One single connection: PGlite's listen() issues LISTEN on it and calls back on notifications it parses.
        await pg.listen(channel, (payload) => deliver(channel, payload))
      }
      handlers.add(handler)
      return async () => { handlers.delete(handler) }
    },
    async close () { await pg.close() },
  }
}
