import type { Database } from '../../db/database.js'
import type { Clock } from '../../lib/clock.js'
import { badRequest, notFound } from '../../lib/errors.js'
import type { Principal } from '../../lib/principal.js'
import { allowedEndpointHost, pushKeys } from '../../lib/push-endpoints.js'
import type { VapidIdentity } from '../../lib/vapid.js'
import * as subscriptions from './push.repo.js'
import { ENDPOINT_NOT_ALLOWED, INVALID_KEYS, toPushSubscription, type NewSubscriptionInput, type PushSubscription } from './push.schemas.js'

export const PUSH_NOT_CONFIGURED = 'push is not configured'

/** docs/api/messaging.md › Web Push: the devices a person has allowed to receive alerts. */
export class PushService {
  constructor (
    private readonly db: Database,
    /** Undefined: push is off (DATABASE_URL without VAPID_*). */
    private readonly identity: VapidIdentity | undefined,
    private readonly endpointHosts: readonly string[],
    private readonly clock: Clock
  ) {}

  publicKey (): { public_key: string } {
    if (this.identity === undefined) throw notFound(PUSH_NOT_CONFIGURED)
    return { public_key: this.identity.publicKey }
  }

  async subscribe (user: Principal, input: NewSubscriptionInput): Promise<{ id: number, created_at: Date }> {
    if (this.identity === undefined) throw notFound(PUSH_NOT_CONFIGURED)
    if (allowedEndpointHost(input.endpoint, this.endpointHosts) === undefined) throw badRequest(ENDPOINT_NOT_ALLOWED)
    const keys = pushKeys(input.keys.p256dh, input.keys.auth)
    if (keys === undefined) throw badRequest(INVALID_KEYS)
    return await this.db.transaction((tx) => subscriptions.replaceSubscription(tx, { userId: user.id, endpoint: input.endpoint, ...keys, at: this.clock.now() }))
  }

  /** Newest first; the endpoint itself is a capability (whoever has it can push to the device), so only its host is shown. */
  async list (user: Principal): Promise<PushSubscription[]> {
    return (await subscriptions.listSubscriptions(this.db, user.id)).map(toPushSubscription)
  }

  async unsubscribe (user: Principal, id: number): Promise<void> {
    if (!await subscriptions.deleteOwnSubscription(this.db, user.id, id)) throw notFound('subscription not found')
  }
}
