import type { Database } from '../db/database.js'
import type { Clock } from '../lib/clock.js'
import { Changes, type Reactions } from '../events/dispatcher.js'
import { alertsReactions } from './alerts/alerts.reactions.js'
import { authReactions } from './auth/auth.reactions.js'
import { availabilityReactions } from './availability/availability.reactions.js'
import { notificationsReactions } from './notifications/notifications.reactions.js'
import { insertNotifications } from './notifications/notifications.repo.js'
import { responsesReactions } from './responses/responses.reactions.js'
import { rolesReactions } from './roles/roles.reactions.js'
import { usersReactions } from './users/users.reactions.js'

/**
 * Every module's reactions to events (src/events/), in the order they run when several react to one
 * event. The order keeps the lock order of README.md: a change has locked its request row, so
 * responses come next (a cancellation cancels them before alerts are closed), then the rest. A user's
 * row comes before their availability, as in PUT /users/me/availability and a new home location; the
 * erased user's inbox goes last, after every write that waits for a transaction notifying them.
 */
export const REACTIONS: readonly Reactions[] = [
  responsesReactions,
  alertsReactions,
  usersReactions,
  availabilityReactions,
  rolesReactions,
  authReactions,
  notificationsReactions,
]

/** The one dispatcher of an app (or a test, or a script) on `db`, its changes timed by `clock` (default: the system's). */
export function changesOn (db: Database, clock?: Clock): Changes {
  return new Changes(db, REACTIONS, insertNotifications, clock)
}
