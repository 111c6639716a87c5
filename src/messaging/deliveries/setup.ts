import { join } from 'node:path'
import type { Config } from '../../config.js'
import type { Database } from '../../db/database.js'
import type { Job } from '../../jobs/job.js'
import type { Clock } from '../../lib/clock.js'
import { sealerFor } from '../../lib/sealing.js'
import { unsubscribeTokens } from '../../lib/unsubscribe.js'
import type { Channel } from './channel.js'
import { DeliveriesService } from './deliveries.service.js'
import { isKnownZone } from './notification-settings.repo.js'
import { ConfigError } from '../../lib/env-schema.js'
import { releaseLeases } from './deliveries.repo.js'
import { emailChannel } from './email-channel.js'
import { deliveriesJob, OutboxSender, type Channels, type SenderLog } from './outbox-sender.js'

export type { Channels }

/**
 * TIME_ZONE as the database sees it: quiet hours become instants in SQL (`AT TIME ZONE`), so a zone the
 * runtime knows but the database does not would fail every change that notifies someone. Refused at start-up.
 */
export async function checkTimeZoneInDatabase (db: Database, timeZone: string): Promise<void> {
  if (!await isKnownZone(db, timeZone)) throw new ConfigError(`TIME_ZONE must be an IANA time zone such as Europe/Berlin or UTC, got "${timeZone}" (the database does not know it)`)
}

/** PUBLIC_URL without a trailing slash, else the address the service listens on (docs/api/messaging.md › Deliveries and e-mail). */
export function publicUrlOf (config: Config): string {
  return (config.publicUrl ?? `http://${config.host}:${config.port}`).replace(/\/+$/, '')
}

/**
 * The app's channels: the ones given (tests, and push when it is configured), else e-mail from the
 * settings (SMTP_URL, or .eml files in MAIL_DIR, by default DATA_DIR/mail).
 */
export function deliveryChannels (config: Config, signingSecret: string, given: { email?: Channel | undefined, push?: Channel | undefined, sms?: Channel | undefined }, log: { info (fields: Record<string, unknown>, message: string): void }): Channels {
  const email = given.email ?? emailChannel({
    smtpUrl: config.smtpUrl,
    mailDir: config.mailDir ?? join(config.dataDir, 'mail'),
    from: config.mailFrom,
    links: { publicUrl: publicUrlOf(config), unsubscribe: unsubscribeTokens(signingSecret) },
    log,
  })
  return { email, push: given.push, sms: given.sms }
}

/**
 * The sending loop of this instance (docs/api/messaging.md › Deliveries and e-mail), run every `tickMs`. On the embedded engine, which is this
 * process's alone, its first run releases the claims a crashed run left, so they go out at once.
 */
export function deliveriesJobFor (config: Config, db: Database, channels: Channels, signingSecret: string, clock: Clock, log: SenderLog, tickMs: number): Job {
  const job = deliveriesJob(new OutboxSender(db, channels, sealerFor(signingSecret), { maxAttempts: config.deliveryMaxAttempts, timeZone: config.timeZone }, clock, log), tickMs)
  if (db.engine !== 'pglite') return job
  let started = false
  return {
    ...job,
    async run (stopping) {
      if (!started) {
        const released = await releaseLeases(db)
        started = true
        if (released > 0) log.warn({ released }, 'deliveries claimed by a run that did not finish (a crash?) released: they are sent again now')
      }
      return await job.run(stopping)
    },
  }
}

/** The settings, deliveries list and unsubscribe routes' service. */
export function deliveriesServiceFor (config: Config, db: Database, signingSecret: string): DeliveriesService {
  return new DeliveriesService(db, { timeZone: config.timeZone, unsubscribe: unsubscribeTokens(signingSecret) })
}
