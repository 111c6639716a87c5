import type { PGlite } from '@electric-sql/pglite'
import { Answer } from './wire.js'

/**
 * Everything the embedded engine's fast path uses of PGlite below its query(), exec() and transaction(),
 * in one place with what it relies on. Read from PGlite 0.5.16 (its typings and bundled source), the newest
 * release in November 2026. All of it is public API:
 *
 * - `runExclusive(fn)`: runs fn under PGlite's query lock, documented as the way to use the execProtocol
 *   methods. Every statement of query(), exec() and transaction(), and close(), take that lock, so nothing
 *   else runs on PGlite's one connection meanwhile. In 0.5.16 it is the private `_runExclusiveQuery` and does
 *   not take PGlite's transaction lock; the adapter never nests it in a PGlite transaction, so it stays correct
 *   if a later version makes it take both.
 * - `execProtocolRawStream(bytes, { syncToFs, onRawData })`: runs protocol messages in PostgreSQL and hands the
 *   answer's bytes to onRawData as views of PGlite's memory, valid until its next write; then, when syncToFs,
 *   flushes the file system. Takes no lock and bypasses PGlite's transaction and notice bookkeeping (so the
 *   adapter runs its own transactions on this path and never mixes in PGlite's transaction()).
 * - `ready` and `closed`: ready is false while closing and after close (runExclusive does not check it, and a
 *   closed PGlite has no PostgreSQL left to call).
 * - `parsers` and `serializers` (by type OID) and the `protocol.serialize` export: what query() itself uses.
 *
 * Until November 2026 the adapter called the private `_checkReady`, `_runExclusiveQuery` and
 * `_runExclusiveTransaction` instead. The first two have the public equivalents above; the transaction lock has
 * none, and the adapter keeps a lock of its own in its place (pglite.ts).
 */
export interface ProtocolChannel {
  /** Runs fn while no other statement runs on PGlite's connection; fails once PGlite is closing or closed. */
  exclusive<T>(fn: () => Promise<T>): Promise<T>
  /** Sends protocol messages (inside exclusive) and reads their answer; throws the statement's error. */
  send(message: Uint8Array, syncToFs: boolean): Promise<Answer>
}

/** The channel, or why this PGlite offers none (a version without these members). */
export function protocolChannel (pg: PGlite): ProtocolChannel | string {
  const missing: string[] = []
  if (typeof pg.runExclusive !== 'function') missing.push('runExclusive')
  if (typeof pg.execProtocolRawStream !== 'function') missing.push('execProtocolRawStream')
  if (typeof pg.ready !== 'boolean' || typeof pg.closed !== 'boolean') missing.push('ready/closed')
  if (typeof pg.parsers !== 'object' || typeof pg.serializers !== 'object') missing.push('parsers/serializers')
  if (missing.length > 0) return `this PGlite has no ${missing.join(', ')}`
  return {
    async exclusive (fn) {
      return await pg.runExclusive(async () => {
        if (!pg.ready) throw new Error(pg.closed ? 'PGlite is closed' : 'PGlite is closing')
        return await fn()
      })
    },
    async send (message, syncToFs) {
      const chunks: Uint8Array[] = []
      // The bytes are a view of PGlite's memory, reused by its next write: copied as they come.
      await pg.execProtocolRawStream(message, { syncToFs, onRawData: (bytes) => { chunks.push(bytes.slice()) } })
      const answer = new Answer(chunks)
      const error = answer.error()
      if (error !== undefined) throw error
      return answer
    },
  }
}
