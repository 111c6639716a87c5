import { createPublicKey } from 'node:crypto'

/**
 * What docs/api/messaging.md › Deliveries and e-mail allows a push subscription to be (checked when it is made and again before each
 * send): an https: endpoint on a host of PUSH_ENDPOINT_HOSTS, and keys a browser could have made.
 * Nothing else is ever contacted, so no caller can make the service send requests where they choose.
 */

/** `fcm.googleapis.com` matches itself only; `*.notify.windows.com` any subdomain of notify.windows.com (not itself). Any port. */
export function hostAllowed (host: string, patterns: readonly string[]): boolean {
  const name = host.toLowerCase()
  return patterns.some((pattern) => {
    const wanted = pattern.toLowerCase()
    return wanted.startsWith('*.') ? name.endsWith(wanted.slice(1)) : name === wanted
  })
}

/** The endpoint's host name when it may be contacted, else undefined (not a URL, not https:, credentials in it, another host). */
export function allowedEndpointHost (endpoint: string, patterns: readonly string[]): string | undefined {
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    return undefined
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return undefined
  return hostAllowed(url.hostname, patterns) ? url.hostname : undefined
}

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/

/** base64url (padding tolerated, as some clients add it) decoded; undefined when it is not that. */
function base64url (text: string): Buffer | undefined {
  if (!BASE64URL.test(text)) return undefined
  return Buffer.from(text.replace(/=+$/, ''), 'base64url')
}

/**
 * The subscription's keys, normalised to unpadded base64url, when p256dh is an uncompressed P-256
 * point on the curve (65 bytes, 0x04 first) and auth a 16-byte secret; undefined otherwise.
 */
export function pushKeys (p256dh: string, auth: string): { p256dh: string, auth: string } | undefined {
  const point = base64url(p256dh)
  const secret = base64url(auth)
  if (point?.length !== 65 || point[0] !== 0x04 || secret?.length !== 16) return undefined
  try {
    // Throws when the point is not on the curve: such a key could never encrypt a message.
    createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' })
  } catch {
    return undefined
  }
  return { p256dh: point.toString('base64url'), auth: secret.toString('base64url') }
}
