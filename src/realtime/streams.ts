import type { ServerResponse } from 'node:http'

export interface StreamOptions {
  /** Interval of the `: ping` comment (docs/api/messaging.md: at least every 25 s). */
  pingMs: number
  /** How often the open streams' users are checked for a block (docs/api/messaging.md: ended within 5 s). */
  blockCheckMs: number
  /** Open streams per user, across every instance on one database (docs/api/messaging.md › Live events: 5). */
  maxPerUser: number
  /**
   * A client that has not taken what it was sent (the socket's buffer full) within this time is dropped,
   * and so is one whose unsent output exceeds maxBufferBytes: it resumes by Last-Event-ID.
   */
  drainTimeoutMs: number
  maxBufferBytes: number
}

export const STREAM_DEFAULTS: StreamOptions = Object.freeze({ pingMs: 20_000, blockCheckMs: 2000, maxPerUser: 5, drainTimeoutMs: 30_000, maxBufferBytes: 1024 * 1024 })

/** One event for a stream: `i` is the 1-based index of the stream's position in the read that found it. */
export interface StreamEvent { i: number, id: number, event: string, data: string }

/** What the streams carry, from the module that owns it (notifications: src/messaging/notifications/event-stream.ts). */
export interface StreamSource {
  /** The NOTIFY channel whose payloads are the comma-separated ids of the users with something new. */
  readonly channel: string
  /** The id of the user's latest event: a stream without Last-Event-ID starts after it. */
  lastId(userId: number): Promise<number>
  /** For each position, its next events (id > after, at most `limit`), in id order. */
  eventsAfter(positions: ReadonlyArray<{ userId: number, after: number }>, limit: number): Promise<StreamEvent[]>
  /** Those of `ids` who may still stream (not blocked). */
  activeUsers(ids: readonly number[]): Promise<Set<number>>
}

/** One open stream: its response and its position in the user's inbox. */
export class Stream {
  /** Last notification id written; undefined until the starting point is known. */
  after: number | undefined
  reading = false
  again = false
  closed = false
  /** Waiting for the client to take its buffered output before anything more is read for it. */
  draining = false
  timer: NodeJS.Timeout | undefined
  /** `release` frees the stream's slot (its lock). */
  constructor (readonly userId: number, readonly res: ServerResponse, readonly slot: number, readonly release: () => Promise<void>) {}
}
