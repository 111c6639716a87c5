import { isDeepStrictEqual } from 'node:util'
import { Mutex, PGlite, TransactionAbortedError, protocol } from '@electric-sql/pglite'
import { cube } from '@electric-sql/pglite/contrib/cube'
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance'
import { statementParts, type Database, type Transaction } from './database.js'
import { attachListeningSession } from './listening.js'
import { protocolChannel, type ProtocolChannel } from './pglite-protocol.js'
import { StatementNames } from './statements.js'
import { concat, type Answer, type Column, type Parsers } from './wire.js'

const { serialize } = protocol

export interface PgliteOptions {
  /**
   * 'protocol' (the default): statements run prepared and their answers are read by wire.ts, through the
   * members of PGlite listed in pglite-protocol.ts. 'public': PGlite's query(), exec() and transaction() only,
   * slower but independent of those members; what the adapter falls back to, and what tests select to run on it.
   */
  api?: 'protocol' | 'public'
  /** Receives the one warning when the protocol path is unavailable (default: process.emitWarning). */
  warn?: (message: string) => void
  /** A copy made by PGlite's dumpDataDir to start from, instead of a new empty cluster (in memory only). */
  loadDataDir?: Blob
}

/**
 * Embedded PostgreSQL (WASM) on disk, or in memory when dataDir is undefined.
 * PGlite has a single connection: a transaction holds it exclusively, so other statements wait for the
 * transaction to end. Keep transactions short.
 */
export async function openPglite (dataDir: string | undefined, options: PgliteOptions = {}): Promise<Database> {
  const loadDataDir = options.loadDataDir
  return await pgliteDatabase(await PGlite.create(dataDir, { extensions: { cube, earthdistance }, ...(loadDataDir !== undefined ? { loadDataDir } : {}) }), options)
}

/** The adapter over an open PGlite: the protocol path when this PGlite offers it and passes the probe, else the public API. */
export async function pgliteDatabase (pg: PGlite, options: PgliteOptions = {}): Promise<Database> {
  if (options.api === 'public') return publicApi(pg)
  const channel = protocolChannel(pg)
  let reason: string | undefined
  if (typeof channel === 'string') {
    reason = channel
  } else {
    const db = protocolApi(pg, channel)
    reason = await probe(pg, db)
    if (reason === undefined) return db
  }
  const warn = options.warn ?? ((message: string) => { process.emitWarning(message, 'PGliteWarning') })
  warn(`PGlite ${reason}: using its public query API, correct but slower (src/db/pglite-protocol.ts, docs/performance.md)`)
  return publicApi(pg)
}

/**
 * Checks at open that the protocol path reads what PGlite answers: one transaction with one parameterised
 * statement, which a changed wire format, lock or transaction handling would fail. Undefined when it works.
 */
async function probe (pg: PGlite, db: Database): Promise<string | undefined> {
  try {
    const rows = await db.transaction((tx) => tx.query('SELECT $1::int AS n, $2::text AS t', [7, 'é']))
    return isDeepStrictEqual(rows, [{ n: 7, t: 'é' }]) ? undefined : `answered the probe with ${JSON.stringify(rows)}`
  } catch (error) {
    // Whatever state the probe left behind, the public API starts outside a transaction.
    await pg.exec('ROLLBACK').catch(() => {})
    return `failed the probe (${error instanceof Error ? error.message : String(error)})`
  }
}

/**
 * Statements run prepared, as on the server engine: PGlite's own query() parses and plans each statement every
 * time, in six calls into PostgreSQL. Here each statement text is parsed once under a name, and every later run
 * is a single call (bind, execute, sync) whose answer wire.ts reads (docs/performance.md).
 */
function protocolApi (pg: PGlite, channel: ProtocolChannel): Database {
  const names = new StatementNames()
  /** What each named statement takes and gives, learnt when it was prepared. */
  const described = new Map<string, { parameterTypes: number[], columns: Column[] }>()
  const parsers = pg.parsers as Parsers
  /**
   * Held by a transaction from BEGIN to its end and by each statement outside one, so that no statement runs
   * inside another caller's transaction: PGlite's own transaction lock is private (pglite-protocol.ts).
   */
  const transactionLock = new Mutex()
  /** Where src/realtime takes NOTIFYs, which arrive in the answers read here (a transaction's at its COMMIT). */
  const sinks = new Set<(channel: string, payload: string) => void>()
  const send = async (message: Uint8Array, syncToFs: boolean): Promise<Answer> => {
    const answer = await channel.send(message, syncToFs)
    if (sinks.size > 0) {
      for (const { channel: name, payload } of answer.notifications()) for (const sink of sinks) sink(name, payload)
    }
    return answer
  }

  /**
   * Runs one statement; the caller holds the channel. A statement without a name (past the cap, or stale) is
   * parsed afresh as the unnamed statement. Outside a transaction the change is synced to disk.
   */
  async function run (text: string, params: readonly unknown[] = [], inTransaction: boolean): Promise<never[]> {
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

  /** A script in the simple protocol (transaction control, migrations). */
  async function script (sql: string, syncToFs: boolean): Promise<Answer> {
    return await channel.exclusive(() => send(serialize.query(sql), syncToFs))
  }

  const query: Database['query'] = async (statement, given) => {
    const { text, values: params } = statementParts(statement, given)
    try {
      return await transactionLock.runExclusive(() => channel.exclusive(() => run(text, params, false)))
    } catch (error) {
      // Outside a transaction a statement refused for being stale had no effect, so it can simply run again.
      if (names.stale(text, error)) return await query(text, params)
      throw error
    }
  }

  const db: Database = {
    engine: 'pglite',
    query,
    async transaction (fn) {
      return await transactionLock.runExclusive(async () => {
        let open = true
        const tx: Transaction = {
          async query (statement, given) {
            if (!open) throw new Error('Transaction is closed')
            const { text, values: params } = statementParts(statement, given)
            try {
              return await channel.exclusive(() => run(text, params, true))
            } catch (error) {
              names.stale(text, error)
              throw error
            }
          },
          async exec (sql) {
            if (!open) throw new Error('Transaction is closed')
            await script(sql, false)
          },
        }
        await script('BEGIN', false)
        let result
        try {
          result = await fn(tx)
        } catch (error) {
          open = false
          await script('ROLLBACK', true)
          throw error
        }
        open = false
        // As PGlite's transaction(): a COMMIT that rolled back (a statement failed and fn went on) is an error.
        if ((await script('COMMIT', true)).commandTag() === 'ROLLBACK') throw new TransactionAbortedError()
        return result
      })
    },
    // After the running transaction, as PGlite's close() waits for its own transaction lock.
    async close () { await transactionLock.runExclusive(() => pg.close()) },
  }
  const onNotification = (sink: (channel: string, payload: string) => void): () => void => {
    sinks.add(sink)
    return () => { sinks.delete(sink) }
  }
  return attachListeningSession(db, { engine: 'pglite', pg, query, onNotification })
}

/** PGlite's public query API: each statement parsed, planned and read by PGlite itself. */
function publicApi (pg: PGlite): Database {
  const query: Database['query'] = async (statement, given) => {
    const { text, values } = statementParts(statement, given)
    return (await pg.query<never>(text, values as unknown[] | undefined)).rows
  }
  const db: Database = {
    engine: 'pglite',
    query,
    async transaction (fn) {
      return await pg.transaction(async (tx) => await fn({
        async query (statement, given) {
          const { text, values } = statementParts(statement, given)
          return (await tx.query<never>(text, values as unknown[] | undefined)).rows
        },
        async exec (sql) { await tx.exec(sql) },
      }))
    },
    async close () { await pg.close() },
  }
  // Realtime listens through PGlite's own listen(), called back on each notification its parser reads.
  return attachListeningSession(db, { engine: 'pglite', pg, query })
}
