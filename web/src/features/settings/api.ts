import { api } from '../../api/client'
import { unwrap } from '../../api/errors'

/** docs/api/messaging.md › Deliveries and e-mail: the person's choices of channels, types, quiet hours and time zone. */
export interface ChannelChoice { enabled: boolean, types: string[] }
export interface NotificationSettings {
  email: ChannelChoice
  push: ChannelChoice
  /** Texts to the profile's phone (docs/api/messaging.md › Texts): off by default; they go only to a confirmed mobile number. */
  sms: ChannelChoice
  quiet_hours: { start: string, end: string } | null
  time_zone: string
}
export interface Device { id: number, created_at: string, last_success_at: string | null, endpoint_host: string }
export interface Delivery { notification_id: number | null, account_message?: string | null, channel: 'email' | 'push' | 'sms', status: 'pending' | 'sent' | 'failed' | 'dropped' | 'delivered' | 'undeliverable', attempts: number, last_error: string | null, sent_at: string | null }

export const SETTINGS_KEY = ['get', '/api/v1/users/me/notification-settings'] as const
export const DEVICES_KEY = ['get', '/api/v1/users/me/push-subscriptions'] as const
export const DELIVERIES_KEY = ['get', '/api/v1/users/me/deliveries'] as const

export const getSettings = async (signal?: AbortSignal): Promise<NotificationSettings> => await unwrap(api.GET('/api/v1/users/me/notification-settings', { signal }))
export const putSettings = async (body: Partial<NotificationSettings>): Promise<NotificationSettings> => await unwrap(api.PUT('/api/v1/users/me/notification-settings', { body }))

export const getPushKey = async () => await unwrap(api.GET('/api/v1/push/public-key'))
/** The browser's `PushSubscription.toJSON()`; its keys are checked by the service (400 'invalid push keys'). */
export const addDevice = async (subscription: PushSubscriptionJSON) => await unwrap(api.POST('/api/v1/users/me/push-subscriptions', {
  body: { endpoint: subscription.endpoint ?? '', keys: { p256dh: subscription.keys?.p256dh ?? '', auth: subscription.keys?.auth ?? '' } },
}))
export const listDevices = async (signal?: AbortSignal): Promise<Device[]> => await unwrap(api.GET('/api/v1/users/me/push-subscriptions', { signal }))
export const removeDevice = async (id: number) => { await unwrap(api.DELETE('/api/v1/users/me/push-subscriptions/{id}', { params: { path: { id } } })) }

export const listDeliveries = async (signal?: AbortSignal): Promise<Delivery[]> => await unwrap(api.GET('/api/v1/users/me/deliveries', { params: { query: { limit: '20' } }, signal }))

/** RFC 8058's one-click unsubscribe: no sign-in, the signed token says whose e-mails of which type stop. */
export const unsubscribe = async (token: string) => await unwrap(api.POST('/api/v1/unsubscribe', { params: { query: { token } } }))
