import type { Realtime } from './realtime.js'

/**
 * A stream holds slot k of its user as the session advisory lock (STREAM_SLOT_CLASS + k, user id) on the
 * process's listening session (Realtime.tryLock): instances on one database share the limit, and the slots
 * of a process that dies go with its connection. Distinct from the inbox lock's class (notifications.repo.ts).
 */
const STREAM_SLOT_CLASS = 1_935_762_000

export interface Slot {
  readonly slot: number
  /** Frees the slot (its lock). */
  readonly release: () => Promise<void>
}

/**
 * The per-user stream slots of docs/api/messaging.md › Live events (at most `maxPerUser` open streams per user, across every
 * instance on one database). A slot is marked as being tried while its lock is, so simultaneous opens on
 * this process never try the same one.
 */
export class StreamSlots {
  /** Slots whose lock is being tried right now, by user. */
  readonly #trying = new Map<number, Set<number>>()

  constructor (private readonly realtime: Realtime, private readonly maxPerUser: number) {}

  /**
   * A free slot of the user's, or undefined when every one is held, here or on another instance.
   * `heldHere`: the slots this process's open streams hold (a session may take its own lock twice).
   * `stopped`: asked before each try (shutdown).
   */
  async take (userId: number, heldHere: ReadonlySet<number>, stopped: () => boolean): Promise<Slot | undefined> {
    for (let slot = 0; slot < this.maxPerUser; slot++) {
      if (stopped()) return undefined
      const trying = this.#trying.get(userId) ?? new Set<number>()
      if (trying.has(slot) || heldHere.has(slot)) continue
      trying.add(slot)
      this.#trying.set(userId, trying)
      let release: (() => Promise<void>) | undefined
      try {
        release = await this.realtime.tryLock(STREAM_SLOT_CLASS + slot, userId % 2147483647)
      } finally {
        trying.delete(slot)
        if (trying.size === 0) this.#trying.delete(userId)
      }
      if (release !== undefined) return { slot, release }
    }
    return undefined
  }
}
