import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto'

/** What an unsubscribe token names: whose e-mails of which type to stop. */
export interface UnsubscribeClaim { userId: number, type: string }

export interface UnsubscribeTokens {
  sign (claim: UnsubscribeClaim): string
  /** The claim of a token this key signed, or undefined for anything else. */
  verify (token: string): UnsubscribeClaim | undefined
}

/**
 * The token of an e-mail's unsubscribe link and `List-Unsubscribe` header (docs/api/messaging.md › Deliveries and e-mail, RFC 8058):
 * `<user id>.<type>.<HMAC-SHA256>`, under a key derived from the signing secret. It never expires, so a
 * message read a year later still unsubscribes; it does nothing but switch one type's e-mails off for
 * one person, so a leaked one can do no more than that.
 */
export function unsubscribeTokens (signingSecret: string): UnsubscribeTokens {
  const key = Buffer.from(hkdfSync('sha256', signingSecret, 'vcs', 'unsubscribe v1', 32))
  const mac = (userId: number, type: string) => createHmac('sha256', key).update(`${userId}.${type}`).digest()
  return {
    sign: ({ userId, type }) => `${userId}.${type}.${mac(userId, type).toString('base64url')}`,
    verify (token) {
      const match = /^([1-9][0-9]{0,15})\.([a-z_]{1,40})\.([A-Za-z0-9_-]{43})$/.exec(token)
      if (match === null) return undefined
      const userId = Number(match[1])
      const type = match[2]!
      const given = Buffer.from(match[3]!, 'base64url')
      return given.length === 32 && timingSafeEqual(given, mac(userId, type)) ? { userId, type } : undefined
    },
  }
}
