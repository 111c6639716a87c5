import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import nodemailer from 'nodemailer'
import { writeWholeFile } from '../../lib/whole-file.js'
import type { Channel, OutgoingDelivery, SendOutcome } from './channel.js'
import { composeEmail, type LinkSettings } from './email-templates.js'

export interface EmailChannelOptions {
  /** SMTP_URL; unset: every message is written to `mailDir` instead. */
  smtpUrl: string | undefined
  mailDir: string
  from: string
  links: LinkSettings
  log: { info (fields: Record<string, unknown>, message: string): void }
}

/** Each step of the server's; the sending loop renews its lease meanwhile (leases.ts), so no other instance sends it too. */
const SMTP_TIMEOUT_MS = 30_000
/**
 * Messages in flight to the mail server at once. Each message waits on a few round trips (MAIL, RCPT,
 * DATA), so the sending loop is bound by them rather than by CPU: 10 drained a backlog about 1.6 times
 * as fast as nodemailer's default 5 (docs/performance.md, Deliveries), well under common servers' limits.
 */
const SMTP_CONNECTIONS = 10

/**
 * The e-mail channel (docs/api/messaging.md › Deliveries and e-mail): SMTP through a pool of connections when SMTP_URL is set, else each
 * message as an `.eml` file in MAIL_DIR (which counts as sent), logged by subject and recipient id only.
 * A failure's reason names the server's answer code or the network error, never the message or address.
 */
export function emailChannel (options: EmailChannelOptions): Channel {
  if (options.smtpUrl !== undefined) {
    const transport = nodemailer.createTransport({
      pool: true, url: options.smtpUrl, maxConnections: SMTP_CONNECTIONS, connectionTimeout: SMTP_TIMEOUT_MS, greetingTimeout: SMTP_TIMEOUT_MS, socketTimeout: SMTP_TIMEOUT_MS,
    })
    return {
      async send (delivery) {
        try {
          await transport.sendMail(message(delivery, options))
          return { outcome: 'sent' }
        } catch (error) {
          return { outcome: 'retry', reason: failureReason(error) }
        }
      },
      async close () { transport.close() },
    }
  }
  const files = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
  let folderReady: Promise<unknown> | undefined
  return {
    async send (delivery): Promise<SendOutcome> {
      const mail = message(delivery, options)
      const info = await files.sendMail(mail)
      try {
        folderReady ??= mkdir(options.mailDir, { recursive: true, mode: 0o700 })
        await folderReady
        // Whole or not at all: a crash mid-write leaves no truncated message beside the good copy of a later try.
        await writeWholeFile(join(options.mailDir, `delivery-${delivery.id}-${delivery.attempt}.eml`), info.message as Buffer, { mode: 0o600 })
      } catch (error) {
        folderReady = undefined
        return { outcome: 'retry', reason: `cannot write to MAIL_DIR (${(error as NodeJS.ErrnoException).code ?? 'error'})` }
      }
      options.log.info({ deliveryId: delivery.id, userId: delivery.userId, subject: mail.subject }, 'e-mail written to MAIL_DIR')
      return { outcome: 'sent' }
    },
    async close () {},
  }
}

function message (delivery: OutgoingDelivery, options: EmailChannelOptions) {
  const email = composeEmail(delivery, options.links)
  return { from: options.from, to: delivery.email, subject: email.subject, text: email.text, html: email.html, headers: email.headers }
}

/** The server's reply code or the network error's code: enough to act on, and free of addresses and content. */
function failureReason (error: unknown): string {
  const { responseCode, code } = error as { responseCode?: unknown, code?: unknown }
  if (typeof responseCode === 'number') return `the mail server refused the message (${responseCode})`
  if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return `the mail server could not be reached (${code})`
  return 'the mail server could not be reached'
}
