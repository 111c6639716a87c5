import { createHmac, hkdfSync } from 'node:crypto'

/**
 * The 4-digit codes of texts that take an answer (docs/api/messaging.md › Texts › Replies). A code is made from its
 * delivery's id and a salt under a key derived from the signing secret, so the same text sent again after a crash
 * carries the same code, and the database holds only a MAC of it: without the key, its 10,000 values cannot be
 * tried against what is stored. The number is in the MAC, so a code answers only from the phone it went to.
 */
export interface ReplyCodes {
  code (deliveryId: number, salt: number): string
  mac (e164: string, code: string): string
}

export function replyCodesFor (signingSecret: string): ReplyCodes {
  const key = Buffer.from(hkdfSync('sha256', signingSecret, 'vcs', 'reply codes v1', 32))
  const hmac = (text: string) => createHmac('sha256', key).update(text).digest()
  return {
    code: (deliveryId, salt) => String(hmac(`code:${deliveryId}:${salt}`).readUInt32BE(0) % 10_000).padStart(4, '0'),
    mac: (e164, code) => hmac(`mac:${e164}:${code}`).toString('base64url'),
  }
}
