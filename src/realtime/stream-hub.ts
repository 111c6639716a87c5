import type { ServerResponse } from 'node:http'
import { systemClock, type Clock } from '../lib/clock.js'
import type { Realtime } from './realtime.js'
import { StreamSlots } from './stream-slots.js'
import { Stream, STREAM_DEFAULTS, type StreamEvent, type StreamOptions, type StreamSource } from './streams.js'

/** Streams whose next rows one query reads, and rows per stream per read. */
const STREAMS_PER_READ = 500
const ROWS_PER_STREAM = 100
/** Reads under way at once: the pool keeps connections for the API too. */
const MAX_CONCURRENT_READS = 2
/** After a failed read (database away), the streams concerned are read again this much later. */
const RETRY_MS = 1000

interface Logger { warn(obj: object, msg: string): void }

/**
 * This process's live event streams (docs/api/messaging.md › Live events). One LISTEN on the database (Realtime.listen) wakes
 * them: a NOTIFY carries only the recipients' user ids, and the streams of those users on this process
 * then read their new rows, many streams per query. A stream's position is the last id it sent, and ids
 * increase in commit order per user (notifications.repo.ts), so reading `id > position` misses nothing
 * and repeats nothing, on resume too. A stream ends when its access token expires, by `clock`.
 */
export class StreamHub {
  readonly #byUser = new Map<number, Set<Stream>>()
  readonly #slots: StreamSlots
  readonly #pending = new Set<Stream>()
  #reads = 0
  #listening: Promise<() => Promise<void>> | undefined
  #ping: NodeJS.Timeout | undefined
  #blockCheck: NodeJS.Timeout | undefined
  #closed = false
  readonly options: StreamOptions

  constructor (
    private readonly realtime: Realtime,
    private readonly source: StreamSource,
    private readonly log: Logger,
    options: Partial<StreamOptions> = {},
    private readonly clock: Clock = systemClock
  ) {
    this.options = { ...STREAM_DEFAULTS, ...options }
    this.#slots = new StreamSlots(realtime, this.options.maxPerUser)
  }

  /** Open streams of the user on this process. */
  count (userId: number): number {
    return this.#byUser.get(userId)?.size ?? 0
  }

  get size (): number {
    let total = 0
    for (const streams of this.#byUser.values()) total += streams.size
    return total
  }

  /**
   * Takes a free one of the user's stream slots (stream-slots.ts), or returns undefined when every slot is
   * held. The stream joins the hub (pings, wakes) only once it holds its slot, before which its response
   * has no headers.
   */
  async reserve (userId: number, res: ServerResponse): Promise<Stream | undefined> {
    const held = new Set([...this.#byUser.get(userId) ?? []].map((stream) => stream.slot))
    const taken = await this.#slots.take(userId, held, () => this.#closed)
    if (taken === undefined) return undefined
    // Shut down, or the client gone, while the lock was tried: the slot goes straight back.
    if (this.#closed || res.destroyed) {
      await taken.release().catch(() => {})
      return undefined
    }
    const stream = new Stream(userId, res, taken.slot, taken.release)
    let streams = this.#byUser.get(userId)
    if (streams === undefined) {
      streams = new Set()
      this.#byUser.set(userId, streams)
    }
    streams.add(stream)
    res.on('close', () => this.#remove(stream))
    return stream
  }

  /**
   * Starts a reserved stream: from just after `lastEventId`, or from now on without it; ends it when
   * the access token expires (`expiresAt`, epoch ms).
   */
  async start (stream: Stream, lastEventId: number | undefined, expiresAt: number): Promise<void> {
    stream.timer = setTimeout(() => this.#end(stream), Math.max(0, expiresAt - this.clock.now().getTime()))
    this.#startTimers()
    try {
      // Listening first: a notification committed after the starting point is read below is then never missed.
      await this.#listen()
      stream.after = lastEventId ?? await this.source.lastId(stream.userId)
    } catch (error) {
      this.log.warn({ err: error }, 'event stream could not start')
      this.#end(stream)
      return
    }
    // The first bytes go out only now, so a client that has them knows every later notification will come.
    // `retry` tells EventSource clients to reconnect after 2 s.
    this.#write(stream, 'retry: 2000\n\n')
    this.#schedule(stream)
  }

  /** Ends every stream (shutdown): clients reconnect elsewhere with Last-Event-ID. */
  async close (): Promise<void> {
    this.#closed = true
    clearInterval(this.#ping)
    clearInterval(this.#blockCheck)
    for (const streams of [...this.#byUser.values()]) {
      for (const stream of [...streams]) this.#end(stream, true)
    }
    const stop = await this.#listening?.catch(() => undefined)
    await stop?.()
  }

  #listen (): Promise<() => Promise<void>> {
    this.#listening ??= this.realtime.listen(this.source.channel, (payload) => this.#wake(payload))
    // A failed LISTEN is tried again by the next stream.
    this.#listening.catch(() => { this.#listening = undefined })
    return this.#listening
  }

  #startTimers (): void {
    if (this.#ping !== undefined) return
    this.#ping = setInterval(() => {
      for (const streams of this.#byUser.values()) for (const stream of streams) this.#write(stream, ': ping\n\n')
    }, this.options.pingMs)
    this.#blockCheck = setInterval(() => { this.#checkBlocked().catch(() => {}) }, this.options.blockCheckMs)
    // Neither keeps a process alive that has nothing else to do.
    this.#ping.unref()
    this.#blockCheck.unref()
  }

  /**
   * A NOTIFY payload: the recipients' ids; undefined when the listening connection was lost and is back.
   * Then the streams' slots went with the old connection, so every stream ends, and its client resumes by
   * Last-Event-ID (nothing is missed) and takes a slot again.
   */
  #wake (payload: string | undefined): void {
    if (payload === undefined) {
      for (const streams of [...this.#byUser.values()]) for (const stream of [...streams]) this.#end(stream)
      return
    }
    for (const id of payload.split(',')) {
      const streams = this.#byUser.get(Number(id))
      if (streams !== undefined) for (const stream of streams) this.#schedule(stream)
    }
  }

  #schedule (stream: Stream): void {
    // A stream waiting for its client is read again on 'drain' (#awaitDrain).
    if (stream.closed || stream.draining || stream.after === undefined) return
    // One read per stream at a time, so its events go out once and in order; a wake meanwhile reads again after.
    if (stream.reading) {
      stream.again = true
      return
    }
    this.#pending.add(stream)
    this.#pump()
  }

  #pump (): void {
    while (this.#reads < MAX_CONCURRENT_READS && this.#pending.size > 0) {
      const batch: Stream[] = []
      for (const stream of this.#pending) {
        this.#pending.delete(stream)
        stream.reading = true
        batch.push(stream)
        if (batch.length === STREAMS_PER_READ) break
      }
      this.#reads += 1
      // #read handles its own failures; this only hands the streams back.
      this.#read(batch).catch(() => {}).finally(() => {
        this.#reads -= 1
        for (const stream of batch) {
          stream.reading = false
          if (stream.again) {
            stream.again = false
            this.#schedule(stream)
          }
        }
        this.#pump()
      })
    }
  }

  async #read (batch: readonly Stream[]): Promise<void> {
    let rows: StreamEvent[]
    try {
      rows = await this.source.eventsAfter(batch.map((stream) => ({ userId: stream.userId, after: stream.after ?? 0 })), ROWS_PER_STREAM)
    } catch (error) {
      this.log.warn({ err: error }, 'event streams could not read notifications; trying again')
      setTimeout(() => { for (const stream of batch) this.#schedule(stream) }, RETRY_MS).unref()
      return
    }
    const counts = new Map<Stream, number>()
    for (const row of rows) {
      const stream = batch[row.i - 1]
      // Past a full socket buffer the rest is left unread: the stream's position stays at the last one written.
      if (stream === undefined || stream.closed || stream.draining) continue
      this.#write(stream, `id: ${row.id}\nevent: ${row.event}\ndata: ${row.data}\n\n`)
      stream.after = row.id
      counts.set(stream, (counts.get(stream) ?? 0) + 1)
      if (stream.res.writableNeedDrain) this.#awaitDrain(stream)
    }
    for (const [stream, count] of counts) {
      // A full batch: there may be more.
      if (count === ROWS_PER_STREAM && !stream.closed && !stream.draining) stream.again = true
    }
  }

  /** Back-pressure: nothing more for this client until it drains, and it is dropped if it does not in time. */
  #awaitDrain (stream: Stream): void {
    stream.draining = true
    const timer = setTimeout(() => this.#drop(stream), this.options.drainTimeoutMs)
    stream.res.once('drain', () => {
      clearTimeout(timer)
      stream.draining = false
      this.#schedule(stream)
    })
  }

  /** A client this far behind would only hold our memory: drop it; it resumes by Last-Event-ID. */
  #drop (stream: Stream): void {
    this.#remove(stream)
    stream.res.destroy()
  }

  #write (stream: Stream, text: string): void {
    if (stream.closed) return
    stream.res.write(text)
    if (stream.res.writableLength > this.options.maxBufferBytes) this.#drop(stream)
  }

  async #checkBlocked (): Promise<void> {
    const ids = [...this.#byUser.keys()]
    if (ids.length === 0) return
    const active = await this.source.activeUsers(ids)
    for (const id of ids) {
      if (active.has(id)) continue
      for (const stream of [...this.#byUser.get(id) ?? []]) this.#end(stream)
    }
  }

  /** Ends the response cleanly; on shutdown the connection too, so the server can close. */
  #end (stream: Stream, closeConnection = false): void {
    if (stream.closed) return
    this.#remove(stream)
    stream.res.end(() => { if (closeConnection) stream.res.socket?.destroy() })
  }

  #remove (stream: Stream): void {
    if (stream.closed) return
    stream.closed = true
    clearTimeout(stream.timer)
    this.#pending.delete(stream)
    const streams = this.#byUser.get(stream.userId)
    streams?.delete(stream)
    if (streams?.size === 0) this.#byUser.delete(stream.userId)
    // Fails only when the connection is gone, and the lock with it.
    stream.release().catch(() => {})
  }
}
