import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

/**
 * Seals short secrets (a sign-in code waiting in the deliveries outbox, docs/api/accounts.md › Getting back in) with AES-256-GCM
 * under a key derived from the signing secret, so the database never holds a code in clear: a copy of
 * it (a backup, a replica) without the secret reveals nothing. Every instance shares the secret, so any
 * of them can open what another sealed.
 */
export interface Sealer {
  seal (plain: string): string
  /** The plain text, or undefined when `sealed` was not made with this key or was altered. */
  open (sealed: string): string | undefined
}

const IV_BYTES = 12
const TAG_BYTES = 16

export function sealerFor (signingSecret: string): Sealer {
  const key = Buffer.from(hkdfSync('sha256', signingSecret, 'vcs', 'sealed secrets v1', 32))
  return {
    seal (plain) {
      const iv = randomBytes(IV_BYTES)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')
    },
    open (sealed) {
      const bytes = Buffer.from(sealed, 'base64url')
      if (bytes.length < IV_BYTES + TAG_BYTES) return undefined
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES))
        decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
        return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8')
      } catch {
        return undefined
      }
    },
  }
}
