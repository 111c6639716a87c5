/** Called with each NOTIFY payload on a channel; `undefined` when some may have been missed (see Realtime.listen). */
export type NotifyHandler = (payload: string | undefined) => void

/**
 * The listening side of the database, apart from Database (which repositories see): one listening
 * session per process, its notifications, and the session-level advisory locks held on it (stream slots).
 * A NOTIFY itself is sent by SQL in the transaction that makes the change (pg_notify), not through here.
 */
export interface Realtime {
  /**
   * Calls `handler` with the payload of every NOTIFY on `channel`, from any connection (this process's
   * own included), once its transaction commits; and with `undefined` when some may have been missed
   * (the listening connection was lost and is back), so the listener re-reads what it follows.
   * Resolves once listening; the returned function stops this handler.
   */
  listen(channel: string, handler: NotifyHandler): Promise<() => Promise<void>>
  /**
   * Tries a session-level advisory lock (the two-key form) on the session that listens: the release
   * function, or undefined when another session holds it. Held until released or until that session
   * ends, so a process that dies frees its locks. That session may take a lock it already holds again
   * (PostgreSQL counts it twice): callers track their own. Lost with the listening connection, after
   * which listen handlers get `undefined`.
   */
  tryLock(classId: number, objectId: number): Promise<(() => Promise<void>) | undefined>
  /** Ends the listening session (before the Database closes). */
  close(): Promise<void>
}
