import { changesOn } from '../../src/areas.js'
import type { Clock } from '../../src/lib/clock.js'
import type { Account, TestApp } from './app.js'
import { machineTimeoutMs } from './service.js'

/** One row of the outbox, as the tests look at it. */
export interface DeliveryRow {
  id: number
  user_id: number
  notification_id: number | null
  account_message: string | null
  channel: string
  status: string
  attempts: number
  secret: string | null
  due_at: Date
  /** While a sender holds it: until when (its lease). */
  leased_until: Date | null
  last_error: string | null
  sent_at: Date | null
  type: string | null
}

/** A user's deliveries, oldest first, with their notification's type. */
export function deliveriesOf (t: TestApp, userId: number): Promise<DeliveryRow[]> {
  return t.db.query<DeliveryRow>(`
    SELECT d.*, n.type FROM deliveries d LEFT JOIN notifications n ON n.id = d.notification_id
    WHERE d.user_id = $1 ORDER BY d.id`, [userId])
}

/** Polls `check` (every 20 ms) until it returns a value other than undefined; rejects after `timeoutMs`, longer on a busy machine. */
export async function until<T> (check: () => Promise<T | undefined>, timeoutMs = 10_000, what = 'the condition'): Promise<T> {
  // Real work in the background (a sender, a gateway): a busy machine gets the longer wait it needs (helpers/service.ts).
  const limitMs = machineTimeoutMs(timeoutMs)
  const deadline = Date.now() + limitMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`${what} did not hold within ${limitMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** `count` new people, each with one account e-mail waiting in the outbox, in this order (recorded at `clock`'s time). */
export async function peopleAwaitingMail (t: TestApp, clock: Clock, count: number): Promise<Account[]> {
  const people: Account[] = []
  for (let i = 0; i < count; i++) {
    const person = await t.register()
    await changesOn(t.db, clock).run(person.id, async (_tx, change) => {
      change.record({ type: 'account_message', userId: person.id, message: 'password_changed', sealedCode: null })
    })
    people.push(person)
  }
  return people
}
