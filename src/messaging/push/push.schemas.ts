import { Type, type Static } from 'typebox'
import { DateTime, Id, NullableDateTime } from '../../http/schemas.js'

export const ENDPOINT_NOT_ALLOWED = 'push endpoint not allowed'
export const INVALID_KEYS = 'invalid push keys'

export const PublicKey = Type.Object({ public_key: Type.String({ description: 'the VAPID public key (base64url): `applicationServerKey` of `pushManager.subscribe()`' }) })

/** The browser's `PushSubscription.toJSON()`; `expirationTime` and anything else it carries is ignored. */
export const NewSubscriptionInput = Type.Object({
  endpoint: Type.String({ maxLength: 2048, description: 'https: on a host allowed by PUSH_ENDPOINT_HOSTS' }),
  keys: Type.Object({
    p256dh: Type.String({ maxLength: 200, description: 'base64url of an uncompressed P-256 point (65 bytes)' }),
    auth: Type.String({ maxLength: 100, description: 'base64url of a 16-byte secret' }),
  }),
})
export type NewSubscriptionInput = Static<typeof NewSubscriptionInput>

/** Any malformed part of the body gets the spec's text for the part it is in. */
export const NEW_SUBSCRIPTION_MESSAGES = {
  endpoint: ENDPOINT_NOT_ALLOWED,
  keys: INVALID_KEYS,
  'keys.p256dh': INVALID_KEYS,
  'keys.auth': INVALID_KEYS,
}

export const CreatedSubscription = Type.Object({ id: Type.Integer(), created_at: DateTime })

export const PushSubscription = Type.Object({
  id: Type.Integer(),
  created_at: DateTime,
  last_success_at: Type.Unsafe<Date | string | null>({ ...NullableDateTime, description: 'when a push service last accepted a message for it; null: never yet' }),
  endpoint_host: Type.String({ description: 'the push service\'s host (the full endpoint is a capability and is never shown)' }),
})
export type PushSubscription = Static<typeof PushSubscription>

/** A row as the owner is shown it (the list, and their data export): the endpoint itself is a capability, so only its host. */
export function toPushSubscription (row: { id: number, endpoint: string, created_at: Date, last_success_at: Date | null }): PushSubscription {
  return { id: row.id, created_at: row.created_at, last_success_at: row.last_success_at, endpoint_host: new URL(row.endpoint).hostname }
}

export const SubscriptionParams = Type.Object({ id: Id })
export const SUBSCRIPTION_PARAM_MESSAGES = { id: 'invalid subscription id' }
