import type { PGlite } from '@electric-sql/pglite'
import { Answer } from './wire.js'

/**
 * Everything the embedded engine's fast path uses of PGlite below its query(), exec() and transaction(), with
 * what it relies on. Read from PGlite 0.5.16 (typings and bundled source, the newest release in November 2026)
 * and its changelog and API page. All of it is public:
 *
 * - `runExclusive(fn)` (public since 0.2.14, "for use with execProtocol* methods"): runs fn under PGlite's query
 *   lock, which every statement of query(), exec() and transaction() and close() take, so nothing else runs on
 *   PGlite's one connection meanwhile. In 0.5.16 it is the private `_runExclusiveQuery` and does not take the
 *   transaction lock; the adapter never nests it in a PGlite transaction, so it stays correct if it ever does.
 * - `execProtocolRawStream(bytes, { syncToFs, onRawData })` (API page): runs protocol messages in PostgreSQL and
 *   hands the answer's bytes to onRawData as views of PGlite's memory, valid until its next write; then, when
 *   syncToFs, flushes the file system. It takes no lock and bypasses PGlite's transaction and notice bookkeeping,
 *   so the adapter runs its own transactions on this path and never mixes in PGlite's transaction().
 * - `ready` and `closed`: ready is false while closing and after close. runExclusive does not check it, and a
 *   closed PGlite has no PostgreSQL left to call.
 * - `parsers` and `serializers` (by type OID) and the `protocol.serialize` export: what query() itself uses.
 *
 * The adapter used to call the private `_checkReady`, `_runExclusiveQuery` and `_runExclusiveTransaction`. The
 * first two have the public equivalents above; the transaction lock has none, so the adapter keeps its own.
 */
export interface ProtocolChannel {
  /** Runs fn while no other statement runs on PGlite's connection; fails once PGlite is closing or closed. */
  exclusive<T>(fn: () => Promise<T>): Promise<T>
  /** Sends protocol messages (inside exclusive) and reads their answer; throws the statement's error. */
  send(message: Uint8Array, syncToFs: boolean): Promise<Answer>
}

/** The channel, or why this PGlite offers none ("has no …": a version without these members). */
export function protocolChannel (pg: PGlite): ProtocolChannel | string {
  const missing: string[] = []
  if (typeof pg.runExclusive !== 'function') missing.push('runExclusive')
  if (typeof pg.execProtocolRawStream !== 'function') missing.push('execProtocolRawStream')
  if (typeof pg.ready !== 'boolean' || typeof pg.closed !== 'boolean') missing.push('ready/closed')
  if (typeof pg.parsers !== 'object' || typeof pg.serializers !== 'object') missing.push('parsers/serializers')
  if (missing.length > 0) return `has no ${missing.join(', ')}`
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
