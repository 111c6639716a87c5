import smpp, { type PDU, type Session } from 'smpp'
import { smsShape } from '../../lib/sms-segments.js'
import type { OutgoingText, SmsGateway, SmsHandlers, SubmitOutcome } from './gateway.js'
import { MAX_SEGMENTS } from './file-gateway.js'
import { destinationAddress, incomingId, messageText, partOf, receiptOf, segmentsOf, senderOf, sourceAddress, type Address } from './smpp-pdus.js'

export interface GatewayLog {
  info (fields: Record<string, unknown>, message: string): void
  warn (fields: Record<string, unknown>, message: string): void
}

export interface SmppGatewayOptions {
  /** SMS_SMPP_URL: smpp://system_id:password@host:port, or ssmpp:// over TLS. */
  url: string
  /** SMS_FROM. */
  from: string
  log: GatewayLog
  /** How long a submit_sm (and a bind, an enquire_link) may take before it counts as lost: 5 s. */
  timeoutMs?: number
  /** The keep-alive interval: 30 s. */
  enquireLinkMs?: number
  /** The first wait before binding again, doubled each failure up to `maxReconnectMs` (1 s, 60 s). */
  minReconnectMs?: number
  maxReconnectMs?: number
  now?: () => Date
}

/** Permanent submit_sm errors: the text would never be taken (bad length, addresses); everything else is tried again. */
const PERMANENT = new Set([0x01, 0x0a, 0x0b, 0x33, 0x48, 0x49, 0x50, 0x51, 0x65])
/** The status a deliver_sm is answered with when the handler failed: a temporary error, so the gateway repeats it. */
const TEMPORARY_ERROR = 0x64
const PART_TTL_MS = 24 * 3600_000

/**
 * The SMPP 3.4 gateway (docs/api/messaging.md › Texts): one transceiver bind, kept alive by enquire_link and bound
 * again after a loss with growing waits. submit never waits for a bind: unbound, it resolves `retry` at once.
 * Log lines carry states and status codes only, never a number, a text or the password.
 */
export class SmppGateway implements SmsGateway {
  private session: Session | undefined
  private bound = false
  private closed = false
  private handlers: SmsHandlers | undefined
  private reconnectTimer: NodeJS.Timeout | undefined
  private keepAliveTimer: NodeJS.Timeout | undefined
  private failures = 0
  private reference = Math.floor(Math.random() * 256)
  private readonly pending = new Set<() => void>()
  private readonly parts = new Map<string, { texts: Map<number, string>, total: number, at: number }>()
  private firstTried: () => void = () => {}
  readonly started = new Promise<void>((resolve) => { this.firstTried = resolve })
  private readonly source: Address
  private readonly target: { protocol: string, host: string, port: string, systemId: string, password: string }

  constructor (private readonly options: SmppGatewayOptions) {
    const url = new URL(options.url)
    this.target = { protocol: url.protocol, host: url.hostname, port: url.port, systemId: decodeURIComponent(url.username), password: decodeURIComponent(url.password) }
    this.source = sourceAddress(options.from)
    this.connect()
  }

  /** Whether the transceiver bind is up now. */
  get isBound (): boolean {
    return this.bound
  }

  async submit (text: OutgoingText): Promise<SubmitOutcome> {
    const session = this.session
    if (!this.bound || session === undefined) return { outcome: 'retry', reason: 'gateway not bound' }
    if (smsShape(text.text).segments > MAX_SEGMENTS) return { outcome: 'gone', reason: 'text too long' }
    this.reference = (this.reference + 1) % 256
    const segments = segmentsOf(text.text, this.reference)
    const destination = destinationAddress(text.to)
    const outcomes = await Promise.all(segments.map(async (segment, index) => await this.submitPart(session, {
      source_addr: this.source.addr,
      source_addr_ton: this.source.ton,
      source_addr_npi: this.source.npi,
      destination_addr: destination.addr,
      dest_addr_ton: destination.ton,
      dest_addr_npi: destination.npi,
      esm_class: segment.esmClass,
      data_coding: segment.dataCoding,
      short_message: segment.shortMessage,
      // One receipt a text: the last part's, whose message id the delivery keeps.
      registered_delivery: index === segments.length - 1 ? 1 : 0,
    })))
    return outcomes.find((outcome) => outcome.outcome === 'gone') ?? outcomes.find((outcome) => outcome.outcome === 'retry') ?? outcomes[outcomes.length - 1]!
  }

  listen (handlers: SmsHandlers): void {
    this.handlers = handlers
  }

  async close (): Promise<void> {
    this.closed = true
    clearTimeout(this.reconnectTimer)
    clearInterval(this.keepAliveTimer)
    for (const cancel of [...this.pending]) cancel()
    const session = this.session
    this.session = undefined
    if (session === undefined) return
    await new Promise<void>((resolve) => {
      const done = setTimeout(() => { session.destroy(); resolve() }, 1000)
      if (this.bound && session.unbind({}, () => { clearTimeout(done); session.destroy(); resolve() })) return
      clearTimeout(done)
      session.destroy()
      resolve()
    })
    this.bound = false
  }

  private async submitPart (session: Session, fields: Record<string, unknown>): Promise<SubmitOutcome> {
    return await new Promise<SubmitOutcome>((resolve) => {
      const finish = (outcome: SubmitOutcome): void => {
        clearTimeout(timer)
        this.pending.delete(cancel)
        resolve(outcome)
      }
      const cancel = (): void => { finish({ outcome: 'retry', reason: 'gateway connection lost' }) }
      const timer = setTimeout(() => { finish({ outcome: 'retry', reason: 'gateway timed out' }) }, this.options.timeoutMs ?? 5000)
      this.pending.add(cancel)
      const written = session.submit_sm(fields, (response) => {
        const status = response.command_status
        if (status === 0) finish({ outcome: 'sent', messageId: String(response.message_id) })
        else finish({ outcome: PERMANENT.has(status) ? 'gone' : 'retry', reason: `gateway status 0x${status.toString(16).padStart(4, '0')}` })
      })
      if (!written) cancel()
    })
  }

  private connect (): void {
    if (this.closed) return
    const { protocol, host, port } = this.target
    const session = smpp.connect({ url: `${protocol}//${host}${port === '' ? '' : `:${port}`}` })
    this.session = session
    const bindTimer = setTimeout(() => { this.lost(session, 'bind timed out') }, (this.options.timeoutMs ?? 5000) * 2)
    session.on(protocol === 'ssmpp:' ? 'secureConnect' : 'connect', () => {
      session.bind_transceiver({ system_id: this.target.systemId, password: this.target.password, interface_version: 0x34 }, (response) => {
        clearTimeout(bindTimer)
        if (response.command_status !== 0) {
          this.lost(session, 'bind refused', response.command_status)
          return
        }
        this.bound = true
        this.failures = 0
        this.firstTried()
        this.options.log.info({ host: this.target.host }, 'SMPP gateway bound')
        this.keepAlive(session)
      })
    })
    session.on('enquire_link', (pdu: PDU) => { session.send(pdu.response()) })
    session.on('unbind', (pdu: PDU) => { session.send(pdu.response()); this.lost(session, 'gateway unbound') })
    session.on('deliver_sm', (pdu: PDU) => { this.delivered(session, pdu).catch(() => {}) })
    session.on('error', (error: NodeJS.ErrnoException) => { clearTimeout(bindTimer); this.lost(session, 'connection error', error.code) })
    session.on('close', () => { clearTimeout(bindTimer); this.lost(session, 'connection closed') })
  }

  private keepAlive (session: Session): void {
    clearInterval(this.keepAliveTimer)
    this.keepAliveTimer = setInterval(() => {
      const timer = setTimeout(() => { this.lost(session, 'keep-alive unanswered') }, this.options.timeoutMs ?? 5000)
      if (!session.enquire_link({}, () => { clearTimeout(timer) })) clearTimeout(timer)
    }, this.options.enquireLinkMs ?? 30_000)
    this.keepAliveTimer.unref()
  }

  /** The session is gone (or useless): everything waiting on it resolves `retry`, and a new bind follows after a growing wait. */
  private lost (session: Session, why: string, status?: number | string): void {
    if (this.session !== session) return
    this.firstTried()
    this.session = undefined
    this.bound = false
    clearInterval(this.keepAliveTimer)
    session.destroy()
    for (const cancel of [...this.pending]) cancel()
    if (this.closed) return
    const wait = Math.min((this.options.minReconnectMs ?? 1000) * 2 ** this.failures, this.options.maxReconnectMs ?? 60_000)
    this.failures += 1
    this.options.log.warn({ reason: why, status, retry_in_ms: wait }, 'SMPP gateway not bound')
    this.reconnectTimer = setTimeout(() => { this.connect() }, wait)
    this.reconnectTimer.unref()
  }

  /** A receipt or an incoming text: answered after the handler resolved, with a temporary error when it threw. */
  private async delivered (session: Session, pdu: PDU): Promise<void> {
    let status = 0
    try {
      if (this.handlers === undefined) throw new Error('no handlers yet')
      const receipt = receiptOf(pdu)
      if (receipt !== undefined) {
        await this.handlers.receipt({ messageId: receipt.messageId, stat: receipt.stat, delivered: receipt.stat === 'DELIVRD' })
      } else {
        const text = this.joined(pdu)
        if (text !== undefined) {
          const from = senderOf(pdu)
          const receivedAt = this.options.now?.() ?? new Date()
          await this.handlers.incoming({ from, text: text.text, gatewayId: incomingId(from, String(pdu.destination_addr), text.text, receivedAt), receivedAt })
          text.done()
        }
      }
    } catch {
      status = TEMPORARY_ERROR
    }
    session.send(pdu.response({ command_status: status }))
  }

  /** The whole text once every part is in (parts are answered as they come and kept until the handler took the whole). */
  private joined (pdu: PDU): { text: string, done: () => void } | undefined {
    const part = partOf(pdu)
    const text = messageText(pdu)
    if (part === undefined) return { text, done: () => {} }
    const now = Date.now()
    for (const [key, entry] of this.parts) if (now - entry.at > PART_TTL_MS) this.parts.delete(key)
    const key = `${String(pdu.source_addr)}|${part.reference}|${part.total}`
    const entry = this.parts.get(key) ?? { texts: new Map<number, string>(), total: part.total, at: now }
    entry.texts.set(part.index, text)
    this.parts.set(key, entry)
    if (entry.texts.size < entry.total) return undefined
    const whole = [...entry.texts.entries()].sort(([a], [b]) => a - b).map(([, piece]) => piece).join('')
    return { text: whole, done: () => { this.parts.delete(key) } }
  }
}
