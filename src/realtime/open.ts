import type { Database } from '../db/database.js'
import { listeningSession } from '../db/listening.js'
import { embeddedRealtime } from './embedded.js'
import type { Realtime } from './realtime.js'
import { ServerRealtime } from './server.js'

/**
 * The Realtime of an open Database, on the same engine: a listening client of its own on the server
 * engine (connected on first use), PGlite's single session on the embedded one. Close it before the Database.
 */
export function openRealtime (db: Database): Realtime {
  const session = listeningSession(db)
  return session.engine === 'postgres' ? new ServerRealtime(session.connectionString) : embeddedRealtime(session)
}
