import type { Config } from '../config.js'
import type { AppOptions } from '../app-options.js'
import type { Database } from '../db/database.js'
import type { Clock } from '../lib/clock.js'
import { openRealtime } from '../realtime/open.js'
import { StreamHub } from '../realtime/stream-hub.js'
import type { AreaParts, Wiring } from '../wiring.js'
import { deliveriesRoutes } from './deliveries/deliveries.routes.js'
import { deliveriesJobFor, deliveriesServiceFor, deliveryChannels, publicUrlOf, type Channels } from './deliveries/setup.js'
import { eventsRoutes } from './notifications/events.routes.js'
import { notificationStream } from './notifications/event-stream.js'
import { notificationsRoutes } from './notifications/notifications.routes.js'
import { NotificationsService } from './notifications/notifications.service.js'
import { PushChannel } from './push/push-channel.js'
import { pushRoutes } from './push/push.routes.js'
import { PushService } from './push/push.service.js'
import { SmsChannel, smsGatewayJob } from './sms/sms-channel.js'
import type { IncomingText } from './sms/gateway.js'
import { SmsReplies, type ReplyActions } from './sms/replies.js'
import { replyCodesFor } from '../lib/reply-codes.js'
import { serviceNameOf, smsGatewayFor } from './sms/setup.js'
import { smsInboxRoutes } from './sms/sms-inbox.routes.js'
import { SmsInboxService } from './sms/sms-inbox.service.js'

/** Messaging: the inbox and its live stream, the outbox of e-mail, push and text deliveries, and their settings. */
export { deliveriesReactions } from './deliveries/deliveries.reactions.js'
export { checkTimeZoneInDatabase, publicUrlOf } from './deliveries/setup.js'
export { notificationsReactions } from './notifications/notifications.reactions.js'
export { notificationWriter, type OutboxOptions } from './notifications/writer.js'
export { pushReactions } from './push/push.reactions.js'
export { smsInboxReactions } from './sms/sms-inbox.reactions.js'

const DELIVERY_TICK_MS = 1000

/**
 * The ways out: the channels given (tests), else e-mail from SMTP_URL or MAIL_DIR, and push when the app has
 * a VAPID identity. Built before the dispatcher, which writes push rows only when push is on.
 */
export function messagingChannels (config: Config, db: Database, jwtSecret: string, clock: Clock, options: AppOptions, log: Wiring['log']): Channels {
  const given = options.channels ?? {}
  const push = given.push ?? (options.push === undefined
    ? undefined
    : new PushChannel({ db, identity: options.push, endpointHosts: config.pushEndpointHosts, clock, agent: options.pushAgent }))
  const sms = given.sms ?? new SmsChannel({
    db,
    openGateway: () => smsGatewayFor(config, log),
    clock,
    defaultCountry: config.smsDefaultCountry,
    budget: { perNumber: config.smsDailyLimitPerNumber, total: config.smsDailyLimit, timeZone: config.timeZone },
    help: { name: serviceNameOf(config), url: publicUrlOf(config), text: config.smsHelpText },
    codes: replyCodesFor(jwtSecret),
  })
  return deliveryChannels(config, jwtSecret, { ...given, push, sms }, log)
}

export interface Messaging extends AreaParts {
  /** This process's live event streams: ended first on shutdown, or closing would wait for them forever. */
  hub: StreamHub
}

export type { ReplyActions } from './sms/replies.js'

/** `replyActions`: what replies with a code do, in the areas above (src/areas.ts). */
export function messagingArea ({ config, db, jwtSecret, changes, clock, log, options }: Wiring, channels: Channels, replyActions: ReplyActions): Messaging {
  const deliveryTickMs = options.deliveryTickMs ?? DELIVERY_TICK_MS
  const realtime = openRealtime(db)
  const hub = new StreamHub(realtime, notificationStream(db), log, options.streams, clock)
  const smsReplies = new SmsReplies(db, changes, { defaultCountry: config.smsDefaultCountry, timeZone: config.timeZone, codes: replyCodesFor(jwtSecret), actions: replyActions, clock })
  const replies = (text: IncomingText) => smsReplies.take(text)
  return {
    hub,
    jobs: [
      ...deliveryTickMs > 0 ? [deliveriesJobFor(config, db, channels, jwtSecret, clock, log, deliveryTickMs)] : [],
      ...channels.sms instanceof SmsChannel ? [smsGatewayJob(channels.sms, replies)] : [],
    ],
    routes: async (api) => {
      await api.register(notificationsRoutes, { notifications: new NotificationsService(db) })
      await api.register(eventsRoutes, { hub })
      await api.register(pushRoutes, { push: new PushService(db, options.push, config.pushEndpointHosts, clock) })
      await api.register(deliveriesRoutes, { deliveries: deliveriesServiceFor(config, db, jwtSecret) })
      await api.register(smsInboxRoutes, { inbox: new SmsInboxService(db, clock) })
    },
    close: async () => {
      await Promise.all([channels.email.close(), channels.push?.close(), channels.sms?.close()])
      await realtime.close()
    },
  }
}
