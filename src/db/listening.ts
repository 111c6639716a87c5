import type { PGlite } from '@electric-sql/pglite'
import type { Database } from './database.js'

/**
 * How src/realtime reaches the session an engine listens on, kept off Database (which repositories see).
 * The server engine: its connection string (realtime opens a client of its own). The embedded engine has
 * a single session, which realtime shares: the PGlite itself, its queries, and on the protocol path
 * (pglite.ts) the notifications that arrive in the answers the adapter reads.
 */
export type ListeningSession =
  | { engine: 'postgres', connectionString: string }
  | {
    engine: 'pglite'
    pg: PGlite
    query: Database['query']
    /** Protocol path only: `sink` receives every notification read, until the returned function is called. PGlite's own listen() otherwise. */
    onNotification?: (sink: (channel: string, payload: string) => void) => () => void
  }

const sessions = new WeakMap<Database, ListeningSession>()

/** Called by each engine's opener on the Database it returns. */
export function attachListeningSession (db: Database, session: ListeningSession): Database {
  sessions.set(db, session)
  return db
}

/** The listening session of a Database opened by openPglite or openPostgres. */
export function listeningSession (db: Database): ListeningSession {
  const session = sessions.get(db)
  if (session === undefined) throw new Error('this Database was not opened by openPglite or openPostgres: it has no listening session')
  return session
}
