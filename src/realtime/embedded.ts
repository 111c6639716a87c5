import type { Database } from '../db/database.js'
import type { ListeningSession } from '../db/listening.js'
import type { NotifyHandler, Realtime } from './realtime.js'

type EmbeddedSession = Extract<ListeningSession, { engine: 'pglite' }>

const quote = (identifier: string): string => `"${identifier.replaceAll('"', '""')}"`

/**
 * Realtime on PGlite, which has a single session: it listens and locks on the one the queries use.
 * That session is never lost, so handlers never get `undefined`; it closes with the Database.
 */
export function embeddedRealtime (session: EmbeddedSession): Realtime {
  const stops = new Set<() => Promise<void>>()
  const listen = session.onNotification !== undefined ? protocolListen(session, session.onNotification, stops) : publicListen(session)
  return {
    async listen (channel, handler) {
      const stop = await listen(channel, handler)
      const once = async (): Promise<void> => {
        stops.delete(once)
        await stop()
      }
      stops.add(once)
      return once
    },
    tryLock: (classId, objectId) => tryLock(session.query, classId, objectId),
    async close () {
      for (const stop of [...stops]) await stop()
    },
  }
}

/** PGlite's own listen(), called back on each notification its parser reads (a transaction's at its COMMIT). */
function publicListen (session: EmbeddedSession): Realtime['listen'] {
  return async (channel, handler) => {
    const stop = await session.pg.listen(channel, handler)
    return async () => { await stop() }
  }
}

/** On the protocol path the adapter hands over every notification it reads; here they go to their channel's handlers. */
function protocolListen (session: EmbeddedSession, onNotification: NonNullable<EmbeddedSession['onNotification']>, stops: Set<() => Promise<void>>): Realtime['listen'] {
  const handlers = new Map<string, Set<NotifyHandler>>()
  const unsubscribe = onNotification((channel, payload) => {
    // Outside the adapter's read: a handler's own queries must wait for the statement under way.
    for (const handler of handlers.get(channel) ?? []) queueMicrotask(() => handler(payload))
  })
  stops.add(async () => unsubscribe())
  return async (channel, handler) => {
    let set = handlers.get(channel)
    if (set === undefined) {
      set = new Set()
      handlers.set(channel, set)
      await session.query(`LISTEN ${quote(channel)}`)
    }
    set.add(handler)
    return async () => { set.delete(handler) }
  }
}

async function tryLock (query: Database['query'], classId: number, objectId: number): Promise<(() => Promise<void>) | undefined> {
  const [row] = await query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1::int, $2::int) AS locked', [classId, objectId])
  if (row?.locked !== true) return undefined
  return async () => { await query('SELECT pg_advisory_unlock($1::int, $2::int)', [classId, objectId]) }
}
