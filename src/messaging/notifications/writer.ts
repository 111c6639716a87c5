import type { Transaction } from '../../db/database.js'
import type { NewNotification } from '../../events/dispatcher.js'
import type { Clock } from '../../lib/clock.js'
import { insertClientTexts } from '../deliveries/client-texts.repo.js'
import { insertNotificationDeliveries } from '../deliveries/deliveries.repo.js'
import { insertNotifications, withRequesterSide } from './notifications.repo.js'

/** What a notification's outbox rows depend on besides the recipient's settings (docs/api/messaging.md › Deliveries and e-mail). */
export interface OutboxOptions {
  /** The deployment's TIME_ZONE: quiet hours of a person who chose no zone (default UTC). */
  timeZone?: string
  /** Whether push is configured: without it no push rows are written (default false). */
  push?: boolean
  /** Whether the app sends texts (docs/api/messaging.md › Texts): without it no sms rows are written (default false). */
  sms?: boolean
}

/**
 * What the dispatcher writes a change's notifications with: a requester's notifications routed to the
 * coordinators of a client's request or also to the person's carers (docs/api/on-behalf.md: withRequesterSide,
 * so no reaction needs to know), the inbox rows, then, in the same
 * transaction, their deliveries (the outbox, docs/api/messaging.md), so both commit or roll back together:
 * the recipients' own, and, when the app sends texts, a client's text (docs/api/on-behalf.md › Texts to a client).
 */
export function notificationWriter (clock: Clock, outbox: OutboxOptions = {}): (tx: Transaction, notifications: readonly NewNotification[], actorId?: number | null) => Promise<void> {
  const settings = { timeZone: outbox.timeZone ?? 'UTC', push: outbox.push ?? false, sms: outbox.sms ?? false }
  return async (tx, notifications, actorId) => {
    const written = await insertNotifications(tx, await withRequesterSide(tx, notifications, actorId ?? null))
    const now = clock.now()
    await insertNotificationDeliveries(tx, written, { ...settings, now })
    if (settings.sms) await insertClientTexts(tx, written, now)
  }
}
