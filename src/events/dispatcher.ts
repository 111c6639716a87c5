import type { Database, Transaction } from '../db/database.js'
import { systemClock, type Clock } from '../lib/clock.js'
import { actorId, type Acting, type Actor, type DomainEvent, type EventOf, type EventType } from './events.js'
import type { NewNotification } from './notifications.js'

export type { NewNotification }

/** What a change, and each reaction to it, may add to its transaction's side effects. */
export interface Change {
  /** Who made the change, in what capacity (the request's history, docs/api/on-behalf.md › A request's history); null for the service's own jobs. */
  readonly actor: Actor
  /**
   * The capacity the requests policy found once the request was locked (src/help/requests/acting.ts),
   * replacing the caller's bare id given to `run`; the reactions see it.
   */
  actAs (acting: Acting): void
  /** When, by the app's clock (src/lib/clock.ts): what the change's reactions stamp and schedule from. */
  readonly at: Date
  /** How the change came when not through the API: 'sms', a reply to a text (the request's history says so). */
  readonly via: Origin['via'] | undefined
  /** Something happened: the reactions registered for its type run before the transaction commits. */
  record (event: DomainEvent): void
  /** Notifications to write with the change, all of the transaction's in one statement at its end. */
  notify (...notifications: NewNotification[]): void
}

/**
 * Where a change came from when not through the API: a reply to a text (docs/api/messaging.md › Texts › Replies),
 * acted on in one transaction with the reply's row.
 */
export interface Origin {
  readonly via: 'sms'
  /** Runs first in the change's transaction: the reply taken (it throws when it was taken before) and its answer recorded. */
  first (change: ReactionContext): Promise<void>
}

/** What a reaction gets besides its event: the change's transaction, and the change to add to. */
export interface ReactionContext extends Change {
  readonly tx: Transaction
}

export type Reaction<K extends EventType> = (event: EventOf<K>, context: ReactionContext) => Promise<void>

/** One module's reactions, by event type (e.g. alerts.reactions.ts). */
export type Reactions = { readonly [K in EventType]?: Reaction<K> }

/**
 * Runs changes with their side effects in one transaction. A service makes its change in `run` and
 * records what happened; before COMMIT the events are handed, in the order recorded, to the reactions
 * registered for their types (events a reaction records join the end of the same pass); then every
 * notification the change and its reactions collected is written by one call of `write` (the notifications
 * module's insertNotifications, which takes its recipients' inbox locks in one ascending order). Nothing else writes
 * notifications, so that rule holds by construction. A change or a reaction that throws rolls all back.
 */
export class Changes {
  readonly #reactions = new Map<EventType, Array<Reaction<EventType>>>()

  /**
   * `reactions`: every module's, in the order they run for an event that several modules react to
   * (src/areas.ts lists them, and says why in that order); `write` stores a change's
   * notifications (handed in, so that this layer stays below the modules), given the acting person's id.
   */
  constructor (
    private readonly db: Database,
    reactions: readonly Reactions[],
    private readonly write: (tx: Transaction, notifications: readonly NewNotification[], actorId: number | null) => Promise<unknown>,
    private readonly clock: Clock = systemClock
  ) {
    for (const module of reactions) {
      for (const [type, reaction] of Object.entries(module) as Array<[EventType, Reaction<EventType>]>) {
        this.#reactions.set(type, [...this.#reactions.get(type) ?? [], reaction])
      }
    }
  }

  /** Runs `change` in a new transaction by `actor`, then its reactions and notifications, then commits. */
  async run<T> (actor: Actor, change: (tx: Transaction, effects: Change) => Promise<T>, origin?: Origin): Promise<T> {
    return await this.db.transaction(async (tx) => {
      const events: DomainEvent[] = []
      const notifications: NewNotification[] = []
      let applied = false
      let acting = actor
      const effects: ReactionContext = {
        tx,
        get actor () { return acting },
        actAs: (found) => {
          if (applied) throw new Error('actor changed after its change was applied')
          acting = found
        },
        at: this.clock.now(),
        via: origin?.via,
        record: (event) => {
          if (applied) throw new Error(`${event.type} recorded after its change was applied`)
          events.push(event)
        },
        notify: (...added) => {
          if (applied) throw new Error('notification added after its change was applied')
          notifications.push(...added)
        },
      }
      await origin?.first(effects)
      const result = await change(tx, effects)
      // Indexed: reactions may append events while the pass goes on.
      for (let i = 0; i < events.length; i++) {
        const event = events[i]!
        for (const reaction of this.#reactions.get(event.type) ?? []) await reaction(event as EventOf<EventType>, effects)
      }
      applied = true
      await this.write(tx, notifications, actorId(acting))
      return result
    })
  }
}
