import { createECDH } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import webpush from 'web-push'
import { writeWholeFile } from './whole-file.js'

/** The service's Web Push identity (RFC 8292): who signs each push, and how a push service can reach the operator. */
export interface VapidIdentity {
  publicKey: string
  privateKey: string
  subject: string
}

export interface VapidSettings {
  vapid?: VapidIdentity | undefined
  databaseUrl?: string | undefined
  dataDir: string
  mailFrom: string
  publicUrl?: string | undefined
}

/** Why push is off, said once at start-up; undefined when it is on. */
export function pushOffReason (settings: VapidSettings): string | undefined {
  if (settings.vapid !== undefined || settings.databaseUrl === undefined) return undefined
  return 'Web Push is off: set VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT to send pushes with DATABASE_URL (every instance needs the same keys)\n'
}

/**
 * VAPID_* when set. Otherwise the embedded engine keeps a key pair generated on first start in
 * DATA_DIR/vapid.json (owner-only; the first writer wins), so subscriptions outlive a restart; with
 * DATABASE_URL there is no shared place to keep one, so push is off (undefined).
 */
export async function resolveVapid (settings: VapidSettings): Promise<VapidIdentity | undefined> {
  if (settings.vapid !== undefined) return settings.vapid
  if (settings.databaseUrl !== undefined) return undefined
  const file = join(settings.dataDir, 'vapid.json')
  const subject = vapidSubject(settings.mailFrom, settings.publicUrl)
  try {
    return { ...await readKeys(file), subject }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const keys = webpush.generateVAPIDKeys()
  try {
    await writeWholeFile(file, JSON.stringify({ publicKey: keys.publicKey, privateKey: keys.privateKey }) + '\n', { mode: 0o600, exclusive: true })
  } catch (error) {
    // Another process wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  return { ...await readKeys(file), subject }
}

/**
 * `mailto:` MAIL_FROM's address, unless that is a `localhost` one (the default, which reaches nobody)
 * and PUBLIC_URL is https: then the app's address. Push services use it only to contact the operator.
 */
export function vapidSubject (mailFrom: string, publicUrl: string | undefined): string {
  const address = /<([^<>\s]+@[^<>\s]+)>\s*$/.exec(mailFrom)?.[1] ?? mailFrom.trim()
  const local = /@localhost$/i.test(address)
  if (local && publicUrl?.startsWith('https://') === true) return new URL(publicUrl).origin
  return `mailto:${address}`
}

/** A damaged or edited file stops start-up: a key pair that does not match would make every push fail silently. */
async function readKeys (file: string): Promise<{ publicKey: string, privateKey: string }> {
  const text = await readFile(file, 'utf8')
  const damaged = new Error(`${file} does not hold a VAPID key pair; delete it to have a new one generated (every device must then allow alerts again)`)
  let keys: { publicKey?: unknown, privateKey?: unknown }
  try {
    keys = JSON.parse(text) as typeof keys
  } catch {
    throw damaged
  }
  const { publicKey, privateKey } = keys
  if (typeof publicKey !== 'string' || typeof privateKey !== 'string' || !/^[A-Za-z0-9_-]{87}$/.test(publicKey) || !/^[A-Za-z0-9_-]{43}$/.test(privateKey)) throw damaged
  if (!matches(publicKey, privateKey)) throw damaged
  return { publicKey, privateKey }
}

/** Whether the private key's public half is `publicKey` (ECDH derives the public point from the private key alone). */
function matches (publicKey: string, privateKey: string): boolean {
  try {
    const ecdh = createECDH('prime256v1')
    ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'))
    return ecdh.getPublicKey().equals(Buffer.from(publicKey, 'base64url'))
  } catch {
    return false
  }
}
