import type { Agent } from 'node:https'
import webpush from 'web-push'
import type { Database } from '../../db/database.js'
import type { Clock } from '../../lib/clock.js'
import { allowedEndpointHost } from '../../lib/push-endpoints.js'
import type { VapidIdentity } from '../../lib/vapid.js'
import type { Channel, OutgoingDelivery, SendOutcome } from '../deliveries/channel.js'
import { fallbackTitle, pushText } from './push-texts.js'
import { deleteSubscription, recordSuccess } from './push.repo.js'

export interface PushChannelOptions {
  db: Database
  identity: VapidIdentity
  /** PUSH_ENDPOINT_HOSTS, checked again before each send: a row written under a wider list is never contacted. */
  endpointHosts: readonly string[]
  clock: Clock
  /** Tests pass one that trusts their receiver's self-signed certificate; otherwise Node's default CAs. */
  agent?: Agent | undefined
  /** How long a push service keeps an undelivered message for a device that is off (seconds). */
  ttlSeconds?: number
  /** Socket inactivity before a send is given up and retried later (ms). */
  timeoutMs?: number
}

/** What the service worker receives (docs/api/messaging.md › Deliveries and e-mail): never contact data or an address. */
export interface PushPayload {
  type: string
  request_id: number | null
  title: string
  body: string
  url: string
}

const DAY_SECONDS = 86_400

/**
 * Web Push (RFC 8030, payload encrypted by RFC 8291 aes128gcm, signed by VAPID, RFC 8292) to one
 * subscription per delivery. The sending loop calls it outside any transaction; it only records on
 * the subscription what the push service said (last success, or gone).
 */
export class PushChannel implements Channel {
  private readonly ttlSeconds: number
  private readonly timeoutMs: number

  constructor (private readonly options: PushChannelOptions) {
    this.ttlSeconds = options.ttlSeconds ?? DAY_SECONDS
    this.timeoutMs = options.timeoutMs ?? 10_000
  }

  async send (delivery: OutgoingDelivery): Promise<SendOutcome> {
    const { subscription, notification } = delivery
    // Removed since the delivery was written (the person, or a 410 for another delivery); account messages never go by push.
    if (subscription === null || notification === null) return { outcome: 'gone', reason: 'no push subscription' }
    if (allowedEndpointHost(subscription.endpoint, this.options.endpointHosts) === undefined) {
      return { outcome: 'gone', reason: 'push endpoint not allowed' }
    }
    const payload = pushPayload(delivery.locale, notification, delivery.timeZone)
    const { identity, agent } = this.options
    try {
      await webpush.sendNotification({ endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } }, JSON.stringify(payload), {
        vapidDetails: { subject: identity.subject, publicKey: identity.publicKey, privateKey: identity.privateKey },
        contentEncoding: 'aes128gcm',
        TTL: this.ttlSeconds,
        urgency: notification.type === 'request_alert' ? 'high' : 'normal',
        timeout: this.timeoutMs,
        ...(agent !== undefined ? { agent } : {}),
      })
    } catch (error) {
      return await this.failed(subscription.id, error)
    }
    // The push is out: a failure to stamp the row must not have it sent again (last_success_at is only shown to the owner).
    await recordSuccess(this.options.db, subscription.id, this.options.clock.now()).catch(() => {})
    return { outcome: 'sent' }
  }

  /** Reasons name the status or the kind of failure only: the endpoint's path is a capability and never goes into last_error. */
  private async failed (subscriptionId: number, error: unknown): Promise<SendOutcome> {
    const status = error instanceof webpush.WebPushError ? error.statusCode : undefined
    if (status === 404 || status === 410) {
      // Should the delete fail, the next push to it is answered 410 again and tries once more.
      await deleteSubscription(this.options.db, subscriptionId).catch(() => {})
      return { outcome: 'gone', reason: `push service answered ${status}` }
    }
    if (status !== undefined) return { outcome: 'retry', reason: `push service answered ${status}` }
    const code = (error as { code?: unknown } | null)?.code
    if ((error as Error | null)?.message === 'Socket timeout') return { outcome: 'retry', reason: 'push service timed out' }
    return { outcome: 'retry', reason: typeof code === 'string' && /^[A-Z_]+$/.test(code) ? `push service unreachable (${code})` : 'push service unreachable' }
  }

  async close (): Promise<void> {}
}

/** The payload of a notification's push: the request's title (else the app's name), a short text, and the app's path to open. */
export function pushPayload (locale: 'en' | 'de', notification: NonNullable<OutgoingDelivery['notification']>, timeZone: string): PushPayload {
  const requestId = notification.requestId
  return {
    type: notification.type,
    request_id: requestId,
    title: notification.requestTitle ?? fallbackTitle(locale),
    body: pushText(locale, notification.type, notification.data, timeZone),
    url: requestId === null ? '/notifications' : `/requests/${requestId}`,
  }
}
