import type { AddressInfo } from 'node:net'
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'

/** A message as the test SMTP server received it: the envelope's recipients, and the parsed message. */
export interface ReceivedMail {
  /** Envelope recipients (RCPT TO), lower case. */
  to: string[]
  subject: string
  text: string
  html: string
  /** A header's value as sent (unfolded), by case-insensitive name; undefined when absent. */
  header (name: string): string | undefined
  /** The whole message as received, for "this never appears anywhere" checks. */
  raw: string
}

/**
 * A real SMTP server for tests (docs/api/messaging.md › Deliveries and e-mail): smtp-server on a random local port, each message
 * parsed by mailparser. Point the app at it with `{ smtpUrl: smtp.url, publicUrl: ... }`.
 *
 *   const smtp = await startSmtp()
 *   const mail = await smtp.nextTo('a@example.org')   // waits (default 10 s) for the next message to it
 *   smtp.refuse(451)                                  // every new message is refused with 451 until refuse(false)
 *   await smtp.close()
 */
export interface TestSmtp {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  readonly url: string
  /** Every message received so far, in order. */
  readonly received: readonly ReceivedMail[]
  /** The next message to `address` not yet returned by nextTo; rejects after `timeoutMs`. */
  nextTo (address: string, timeoutMs?: number): Promise<ReceivedMail>
  /** How many messages `address` has received so far. */
  countTo (address: string): number
  /** Refuse every message with this SMTP reply code (e.g. 451: try later), or accept again with false. */
  refuse (code: number | false): void
  /**
   * Keep senders waiting: new messages (only those to `to`, when given) are read but not answered until
   * release() (a slow server, a sender caught mid-send).
   */
  hold (to?: string): void
  /** How many messages are held unanswered. */
  readonly heldCount: number
  /** Answers the held messages (counted as received) and stops holding; `discard`: forgets them unanswered instead. */
  release (discard?: boolean): void
  close (): Promise<void>
}

export async function startSmtp (): Promise<TestSmtp> {
  const received: ReceivedMail[] = []
  const unread = new Map<string, ReceivedMail[]>()
  const waiters = new Map<string, Array<(mail: ReceivedMail) => void>>()
  let refusing: number | false = false
  let held: Array<() => void> | undefined
  let holdOnlyTo: string | undefined

  const deliver = (mail: ReceivedMail) => {
    received.push(mail)
    for (const address of mail.to) {
      const waiting = waiters.get(address)?.shift()
      if (waiting !== undefined) waiting(mail)
      else unread.set(address, [...unread.get(address) ?? [], mail])
    }
  }

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onMailFrom (_address, _session, callback) {
      if (refusing === false) return callback()
      callback(Object.assign(new Error('try again later'), { responseCode: refusing }))
    },
    onData (stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks)
        simpleParser(raw).then((parsed) => {
          const mail: ReceivedMail = {
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            header: (name) => rawHeader(parsed, name),
            raw: raw.toString('utf8'),
          }
          const answer = () => { deliver(mail); callback() }
          if (held !== undefined && (holdOnlyTo === undefined || mail.to.includes(holdOnlyTo))) held.push(answer)
          else answer()
        }, callback)
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    nextTo (address, timeoutMs = 10_000) {
      const key = address.toLowerCase()
      const ready = unread.get(key)?.shift()
      if (ready !== undefined) return Promise.resolve(ready)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.set(key, (waiters.get(key) ?? []).filter((w) => w !== take))
          reject(new Error(`no e-mail to ${address} within ${timeoutMs} ms`))
        }, timeoutMs)
        const take = (mail: ReceivedMail) => { clearTimeout(timer); resolve(mail) }
        waiters.set(key, [...waiters.get(key) ?? [], take])
      })
    },
    countTo: (address) => received.filter((mail) => mail.to.includes(address.toLowerCase())).length,
    refuse (code) { refusing = code },
    hold (to) {
      held ??= []
      holdOnlyTo = to?.toLowerCase()
    },
    get heldCount () { return held?.length ?? 0 },
    release (discard = false) {
      const waiting = held ?? []
      held = undefined
      holdOnlyTo = undefined
      if (!discard) for (const answer of waiting) answer()
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

function rawHeader (parsed: ParsedMail, name: string): string | undefined {
  const line = parsed.headerLines.find((header) => header.key === name.toLowerCase())?.line
  return line?.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim()
}
