import type { Database, Transaction } from '../db/database.js'
import { systemClock, type Clock } from '../lib/clock.js'
import { Changes, type NewNotification, type Reactions } from '../events/dispatcher.js'
import { accessReactions } from './access/access.reactions.js'
import { alertsReactions } from './alerts/alerts.reactions.js'
import { authReactions } from './auth/auth.reactions.js'
import { carersReactions } from './carers/carers.reactions.js'
import { calendarReactions } from './calendar/calendar.reactions.js'
import { availabilityReactions } from './availability/availability.reactions.js'
import { checksReactions } from './checks/checks.reactions.js'
import { deliveriesReactions } from './deliveries/deliveries.reactions.js'
import { insertNotificationDeliveries } from './deliveries/deliveries.repo.js'
import { historyReactions } from './history/history.reactions.js'
import { notificationsReactions } from './notifications/notifications.reactions.js'
import { insertNotifications, withRequesterSide } from './notifications/notifications.repo.js'
import { pushReactions } from './push/push.reactions.js'
import { responsesReactions } from './responses/responses.reactions.js'
import { rolesReactions } from './roles/roles.reactions.js'
import { seriesReactions } from './series/series.reactions.js'
import { usersReactions } from './users/users.reactions.js'

/**
 * Every module's reactions to events (src/events/), in the order they run when several react to one
 * event. The order keeps the lock order of README.md: a change has locked its request row, so
 * responses come next (a cancellation cancels them before alerts are closed), then an occurrence's series
 * (its preferred volunteer: a row completion and withdrawal locked first, or one passed over), then the rest. A user's
 * row comes before their availability, as in PUT /users/me/availability and a new home location; the invitations
 * naming an erased person (carers) go before their row loses its address, by which some name them; the
 * erased user's inbox goes last, after every write that waits for a transaction notifying them. The
 * request's history comes first: it only inserts (no row lock beyond its request's key), and what reads it
 * later in the change (the notification writer below: who coordinates a client's request) finds this change's entry.
 */
export const REACTIONS: readonly Reactions[] = [
  historyReactions,
  responsesReactions,
  seriesReactions,
  alertsReactions,
  carersReactions,
  usersReactions,
  availabilityReactions,
  rolesReactions,
  checksReactions,
  authReactions,
  accessReactions,
  deliveriesReactions,
  pushReactions,
  calendarReactions,
  notificationsReactions,
]

/** What a notification's outbox rows depend on besides the recipient's settings (docs/api/messaging.md › Deliveries and e-mail). */
export interface OutboxOptions {
  /** The deployment's TIME_ZONE: quiet hours of a person who chose no zone (default UTC). */
  timeZone?: string
  /** Whether push is configured: without it no push rows are written (default false). */
  push?: boolean
}

/**
 * What the dispatcher writes a change's notifications with: a requester's notifications routed to the
 * coordinators of a client's request or also to the person's carers (docs/api/on-behalf.md › Coordinators and clients, › Carers: withRequesterSide,
 * so no reaction needs to know), the inbox rows, then, in the same
 * transaction, their deliveries (the outbox of docs/api/messaging.md › Deliveries and e-mail), so both commit or roll back together.
 */
export function notificationWriter (clock: Clock, outbox: OutboxOptions = {}): (tx: Transaction, notifications: readonly NewNotification[], actorId?: number | null) => Promise<void> {
  const settings = { timeZone: outbox.timeZone ?? 'UTC', push: outbox.push ?? false }
  return async (tx, notifications, actorId) => {
    const written = await insertNotifications(tx, await withRequesterSide(tx, notifications, actorId ?? null))
    await insertNotificationDeliveries(tx, written, { ...settings, now: clock.now() })
  }
}

/**
 * The one dispatcher of an app (or a test, or a script) on `db`, its changes timed by `clock` (default:
 * the system's); `outbox`: the app's time zone and whether push is on.
 */
export function changesOn (db: Database, clock: Clock = systemClock, outbox: OutboxOptions = {}): Changes {
  return new Changes(db, REACTIONS, notificationWriter(clock, outbox), clock)
}
