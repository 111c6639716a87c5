import type { Database } from './db/database.js'
import { Changes, type Reactions } from './events/dispatcher.js'
import { systemClock, type Clock } from './lib/clock.js'
import { accessReactions, accountsArea, authReactions, checksReactions, rolesReactions, usersReactions, type Accounts } from './accounts/index.js'
import { dataProtectionArea } from './data-protection/index.js'
import { alertsReactions, availabilityReactions, helpArea, responsesReactions, visitsReactions } from './help/index.js'
import { deliveriesReactions, messagingArea, notificationsReactions, notificationWriter, pushReactions, smsInboxReactions, type Messaging, type OutboxOptions, type ReplyActions } from './messaging/index.js'
import type { Channels } from './messaging/deliveries/setup.js'
import { actingPolicy, carersReactions, historyReactions, onBehalfArea } from './on-behalf/index.js'
import { calendarReactions, occurrenceSeries, regularHelpArea, seriesReactions } from './regular-help/index.js'
import type { AreaParts, Wiring } from './wiring.js'

/**
 * The areas of the service (src/README.md), bottom to top: messaging, accounts, help, regular-help, on-behalf,
 * data-protection. Each imports only those below it (npm run lint); what a lower one needs of a higher one is a
 * port it declares, handed down here.
 */

/**
 * Every module's reactions to events, in the order they run when several react to one event. The order is
 * the lock order (src/README.md): a change has locked its request row, so responses come next (a cancellation
 * cancels them before alerts are closed), then an occurrence's series (its preferred volunteer: a row completion
 * and withdrawal locked first, or one passed over), then the rest. A user's row comes before their availability,
 * as in PUT /users/me/availability and a new home location; the invitations naming an erased person (carers) go
 * before their row loses its address, by which some name them; the erased user's inbox goes last, after every
 * write that waits for a transaction notifying them. A completion checks its visit out (visits) after the request's
 * row and its series are locked, as the check-out route does. The request's history comes first: it only inserts (no row
 * lock beyond its request's key), and what reads it later in the change (the notification writer: who
 * coordinates a client's request) finds this change's entry.
 */
export const REACTIONS: readonly Reactions[] = [
  historyReactions,
  responsesReactions,
  seriesReactions,
  alertsReactions,
  visitsReactions,
  carersReactions,
  usersReactions,
  availabilityReactions,
  rolesReactions,
  checksReactions,
  authReactions,
  accessReactions,
  deliveriesReactions,
  pushReactions,
  smsInboxReactions,
  calendarReactions,
  notificationsReactions,
]

/**
 * The one dispatcher of an app (or a test, or a script) on `db`, its changes timed by `clock` (default:
 * the system's); `outbox`: the app's time zone and whether push is on.
 */
export function changesOn (db: Database, clock: Clock = systemClock, outbox: OutboxOptions = {}): Changes {
  return new Changes(db, REACTIONS, notificationWriter(clock, outbox), clock)
}

export interface Areas {
  /** Bottom to top: their routes are registered, and their jobs started, in this order. */
  all: readonly AreaParts[]
  accounts: Accounts
  messaging: Messaging
}

/** Every area built on the app's wiring, each handed what it needs from the others. */
export function wireAreas (wiring: Wiring, channels: Channels): Areas {
  // Replies to texts act through the areas above messaging, built after it: called only once the app runs.
  const replyActions: ReplyActions = {
    offer: async (...reply) => await help.replies.offer(...reply),
    cancel: async (...reply) => await help.replies.cancel(...reply),
    confirm: async (...reply) => await regularHelp.confirmByText(...reply),
  }
  const messaging = messagingArea(wiring, channels, replyActions)
  const accounts = accountsArea(wiring)
  const help = helpArea(wiring, { principals: accounts.principals, access: accounts.access, acting: actingPolicy, series: occurrenceSeries })
  const regularHelp = regularHelpArea(wiring, { disclosure: help.disclosure, acting: actingPolicy, principals: accounts.principals })
  const onBehalf = onBehalfArea(wiring)
  const dataProtection = dataProtectionArea(wiring, { principals: accounts.principals })
  return { all: [messaging, accounts, help, regularHelp, onBehalf, dataProtection], accounts, messaging }
}
