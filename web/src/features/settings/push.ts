import { ApiError } from '../../api/errors'
import { addDevice, getPushKey } from './api'

/** Why this browser could not be signed up for alerts, each said plainly on the page (settings.push.cannot.*). */
export type PushProblem = 'unsupported' | 'not-configured' | 'denied' | 'dismissed' | 'no-worker' | 'subscribe-failed' | 'refused'

export class PushSetupError extends Error {
  constructor (readonly problem: PushProblem, readonly cause?: unknown) {
    super(problem)
    this.name = 'PushSetupError'
  }
}

/** Whether this browser has what Web Push needs at all (a service worker, PushManager, notifications). */
export function pushSupported (): boolean {
  return 'serviceWorker' in navigator && typeof window.PushManager === 'function' && typeof window.Notification === 'function'
}

/** A VAPID key as base64url (docs/api/messaging.md: GET /push/public-key) to the bytes PushManager wants. */
export function keyBytes (base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=')
  const text = atob(base64)
  const bytes = new Uint8Array(new ArrayBuffer(text.length))
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i)
  return bytes
}

function sameKey (subscription: PushSubscription, key: string): boolean {
  const used = subscription.options.applicationServerKey
  if (used === null) return false
  const wanted = keyBytes(key)
  const bytes = new Uint8Array(used)
  return bytes.length === wanted.length && bytes.every((byte, index) => byte === wanted[index])
}

/**
 * The app's service worker, active. main.tsx registers it after the page's load; a person quick to press the button
 * may get here first, so it is registered here too (the same script and scope: the browser keeps one). A worker
 * that is not active within 10 s (a build without one, such as Vite's dev server) counts as none.
 */
async function activeWorker (): Promise<ServiceWorkerRegistration> {
  try {
    const registration = await navigator.serviceWorker.getRegistration('/') ?? await navigator.serviceWorker.register('/sw.js', { scope: '/' })
    if (registration.active !== null) return registration
    return await Promise.race([
      navigator.serviceWorker.ready,
      new Promise<never>((_resolve, reject) => setTimeout(() => { reject(new Error('no active service worker')) }, 10_000)),
    ])
  } catch (error) {
    throw new PushSetupError('no-worker', error)
  }
}

/**
 * "Allow alerts on this device": asks the browser's permission, subscribes with the service's VAPID key and hands
 * the subscription to the service. The key is asked first, so that a service without push (404) says so before
 * the browser asks for a permission that could not be used.
 */
export async function allowAlertsHere (): Promise<void> {
  if (!pushSupported()) throw new PushSetupError('unsupported')
  let key: string
  try {
    key = (await getPushKey()).public_key
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw new PushSetupError('not-configured')
    throw error
  }
  const permission = await Notification.requestPermission()
  if (permission === 'denied') throw new PushSetupError('denied')
  if (permission !== 'granted') throw new PushSetupError('dismissed')
  const registration = await activeWorker()
  let subscription: PushSubscription
  try {
    // One made earlier here is sent again (the service keeps one row per endpoint); one made with another key (the
    // service's keys changed) must go before a new one can be made.
    const earlier = await registration.pushManager.getSubscription()
    if (earlier !== null && sameKey(earlier, key)) subscription = earlier
    else {
      await earlier?.unsubscribe()
      subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) })
    }
  } catch (error) {
    throw new PushSetupError('subscribe-failed', error)
  }
  try {
    await addDevice(subscription.toJSON())
  } catch (error) {
    // A subscription the service will not use is dropped, so the browser holds nothing that goes nowhere.
    await subscription.unsubscribe().catch(() => {})
    if (error instanceof ApiError && error.status === 404) throw new PushSetupError('not-configured')
    if (error instanceof ApiError && error.status === 400) throw new PushSetupError('refused', error)
    throw error
  }
}

/** The host of this browser's push subscription, if it holds one (to tell whether this device is on the list). */
export async function subscribedHostHere (): Promise<string | null> {
  if (!pushSupported()) return null
  const registration = await navigator.serviceWorker.getRegistration('/')
  const subscription = await registration?.pushManager.getSubscription()
  return subscription != null ? new URL(subscription.endpoint).host : null
}
