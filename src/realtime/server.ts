import pg from 'pg'
import { DatabaseUnavailableError } from '../db/database.js'
import type { NotifyHandler, Realtime } from './realtime.js'

/** Waits between reconnection attempts: doubling from 100 ms to at most 5 s. */
const RETRY_MIN_MS = 100
const RETRY_MAX_MS = 5000

/**
 * Realtime on the server engine: the one LISTEN connection of a process, a dedicated client outside the pool
 * (a pooled client would be handed to other work, and LISTEN lasts as long as the session). Lost, it
 * reconnects by itself and re-issues every LISTEN; its handlers then get `undefined`, since
 * notifications sent while it was away are gone and listeners must re-read what they follow.
 */
export class ServerRealtime implements Realtime {
  readonly #handlers = new Map<string, Set<NotifyHandler>>()
  #client: pg.Client | undefined
  #connecting: Promise<pg.Client> | undefined
  #closed = false
  #retryMs = RETRY_MIN_MS
  #timer: NodeJS.Timeout | undefined

  /** Connects on the first listen() or tryLock(): a process that never streams holds no extra connection. */
  constructor (private readonly connectionString: string) {}

  async listen (channel: string, handler: NotifyHandler): Promise<() => Promise<void>> {
    let handlers = this.#handlers.get(channel)
    const fresh = handlers === undefined
    if (handlers === undefined) {
      handlers = new Set()
      this.#handlers.set(channel, handlers)
    }
    handlers.add(handler)
    const client = await this.#connected()
    if (fresh && this.#client === client) await client.query(`LISTEN ${quote(channel)}`)
    return async () => { handlers.delete(handler) }
  }

  /** Realtime.tryLock, on this connection (opened if need be). */
  async tryLock (classId: number, objectId: number): Promise<(() => Promise<void>) | undefined> {
    let client: pg.Client
    let rows: Array<{ locked: boolean }>
    try {
      client = await this.#connected()
      rows = (await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1::int, $2::int) AS locked', [classId, objectId])).rows
    } catch (error) {
      // The connection is down (or just lost, before its 'end'): a 503, and the client tries again.
      throw new DatabaseUnavailableError(error)
    }
    if (rows[0]?.locked !== true) return undefined
    // A lock of a connection since lost went with it.
    return async () => { if (this.#client === client) await client.query('SELECT pg_advisory_unlock($1::int, $2::int)', [classId, objectId]) }
  }

  async close (): Promise<void> {
    this.#closed = true
    clearTimeout(this.#timer)
    const client = this.#client
    this.#client = undefined
    await client?.end().catch(() => {})
  }

  #connected (): Promise<pg.Client> {
    if (this.#client !== undefined) return Promise.resolve(this.#client)
    this.#connecting ??= this.#connect().finally(() => { this.#connecting = undefined })
    return this.#connecting
  }

  async #connect (): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.connectionString })
    // Without a listener an 'error' event would kill the process; 'end' follows it and reconnects.
    client.on('error', () => {})
    client.on('notification', (message) => {
      for (const handler of this.#handlers.get(message.channel) ?? []) handler(message.payload ?? '')
    })
    await client.connect()
    for (const channel of this.#handlers.keys()) await client.query(`LISTEN ${quote(channel)}`)
    client.on('end', () => this.#lost(client))
    if (this.#closed) {
      await client.end()
      throw new Error('listener closed')
    }
    this.#client = client
    this.#retryMs = RETRY_MIN_MS
    return client
  }

  #lost (client: pg.Client): void {
    if (this.#client !== client) return
    this.#client = undefined
    this.#reconnect()
  }

  #reconnect (): void {
    if (this.#closed) return
    this.#timer = setTimeout(() => {
      this.#connected().then(() => {
        // Back: whatever was sent meanwhile is lost, so every listener re-reads.
        for (const handlers of this.#handlers.values()) for (const handler of handlers) handler(undefined)
      }, () => {
        this.#retryMs = Math.min(this.#retryMs * 2, RETRY_MAX_MS)
        this.#reconnect()
      })
    }, this.#retryMs)
    this.#timer.unref()
  }
}

function quote (identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`
}
