// The bench's mail server (the deliveries scenario): smtp-server on a local port, taking every message and
// noting when it arrived and which request it is about, without parsing more than that, so the sink costs
// the load generator little. It can hold the senders at MAIL FROM, as a slow or absent server would.
import { simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export interface Arrival {
  /** Date.now() when the message's data had come in (ms, fractional). */
  at: number
  /** The request the message links to (its `/requests/{id}` link), or undefined. */
  requestId: number | undefined
}

export interface SmtpSink {
  readonly arrivals: readonly Arrival[]
  /** Keep every new message waiting at MAIL FROM until release(). */
  hold (): void
  release (): void
  /** Resolves once `count` messages about the given requests have arrived, or after `timeoutMs`. */
  waitFor (ids: ReadonlySet<number>, timeoutMs: number): Promise<Map<number, number>>
  close (): Promise<void>
}

const now = () => performance.timeOrigin + performance.now()

/** The request id of a message's link, from the raw text (quoted-printable soft breaks removed first). */
async function requestIdOf (raw: Buffer): Promise<number | undefined> {
  const text = raw.toString('latin1').replace(/=\r?\n/g, '')
  const found = /\/requests\/(\d+)/.exec(text)?.[1]
  if (found !== undefined) return Number(found)
  // Encoded otherwise (base64): parse it properly.
  const parsed = await simpleParser(raw)
  const link = /\/requests\/(\d+)/.exec(parsed.text ?? '')?.[1]
  return link === undefined ? undefined : Number(link)
}

export async function startSmtpSink (port: number): Promise<SmtpSink> {
  const arrivals: Arrival[] = []
  const byRequest = new Map<number, number>()
  let held: Array<() => void> | undefined
  let notify: (() => void) | undefined

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    maxClients: 100,
    onMailFrom (_address, _session, callback) {
      if (held === undefined) callback()
      else held.push(() => callback())
    },
    onData (stream, _session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        const at = now()
        requestIdOf(Buffer.concat(chunks)).then((requestId) => {
          arrivals.push({ at, requestId })
          if (requestId !== undefined && !byRequest.has(requestId)) byRequest.set(requestId, at)
          notify?.()
          callback()
        }, callback)
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })

  return {
    arrivals,
    hold () { held ??= [] },
    release () {
      const waiting = held ?? []
      held = undefined
      for (const go of waiting) go()
    },
    async waitFor (ids, timeoutMs) {
      const deadline = Date.now() + timeoutMs
      const done = () => [...ids].every((id) => byRequest.has(id))
      while (!done() && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          notify = resolve
          setTimeout(resolve, 250)
        })
      }
      return new Map([...ids].flatMap((id) => {
        const at = byRequest.get(id)
        return at === undefined ? [] : [[id, at] as [number, number]]
      }))
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
