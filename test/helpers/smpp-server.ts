import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import smpp, { type PDU, type Session } from 'smpp'

/**
 * A real SMPP 3.4 server (the `smpp` package's server side) acting as an operator's gateway over a socket
 * (docs/api/messaging.md › Texts). It checks binds against `systemId`/`password`, acknowledges submit_sm with
 * message ids, records each text (parts joined by their concatenation header), answers enquire_link, and sends
 * receipts and incoming texts by deliver_sm. Switches: `refuseBinds`, `delayMs` (answer slowly), `submitStatus`
 * (answer with an error), `vanish()` (destroy every socket at once).
 */
export interface SubmittedText {
  to: string
  from: string
  sourceTon: number
  text: string
  dataCoding: number
  segments: number
  /** The id of the last part's submit_sm_resp: the one a receipt names. */
  messageId: string
  registeredDelivery: number
}

export interface SmppTestServer {
  /** smpp://systemId:password@127.0.0.1:port */
  url: string
  port: number
  readonly submitted: SubmittedText[]
  /** Every bind attempt, accepted or not. */
  readonly binds: Array<{ systemId: string, accepted: boolean }>
  readonly counts: { enquireLinks: number, submitSm: number }
  refuseBinds: boolean
  delayMs: number
  submitStatus: number
  /** Called with each text as it is taken, before its submit_sm_resp goes back (a test may kill the sender then). */
  onSubmit: ((text: SubmittedText) => void) | undefined
  /** Sessions currently bound. */
  boundSessions (): number
  /** A delivery receipt by deliver_sm on the most recently bound session still open; resolves with the client's deliver_sm_resp status. */
  sendReceipt (messageId: string, stat: string, options?: { tlvs?: boolean }): Promise<number>
  /** An incoming text (two concatenated parts when `parts` is 2); resolves with each part's deliver_sm_resp status. */
  sendIncoming (incoming: { from: string, text: string, to?: string, parts?: 1 | 2, ucs2?: boolean }): Promise<number[]>
  /** The same text handed to every bound session at once, as a gateway may to two instances; each session's status. */
  sendIncomingToEvery (incoming: { from: string, text: string }): Promise<number[]>
  /** Destroys every open socket, as a gateway crashing mid-batch would. */
  vanish (): void
  close (): Promise<void>
}

export async function startSmppServer (credentials: { systemId?: string, password?: string } = {}): Promise<SmppTestServer> {
  const systemId = credentials.systemId ?? 'charity'
  const password = credentials.password ?? 'secret12'
  const bound = new Set<Session>()
  const parts = new Map<string, Map<number, string>>()
  const state = {
    submitted: [] as SubmittedText[],
    binds: [] as Array<{ systemId: string, accepted: boolean }>,
    counts: { enquireLinks: 0, submitSm: 0 },
    refuseBinds: false,
    delayMs: 0,
    submitStatus: 0,
    onSubmit: undefined as ((text: SubmittedText) => void) | undefined,
  }

  const server = smpp.createServer({}, (session) => {
    session.on('error', () => {})
    session.on('close', () => { bound.delete(session) })
    session.on('bind_transceiver', (pdu: PDU) => {
      const accepted = !state.refuseBinds && pdu.system_id === systemId && pdu.password === password
      state.binds.push({ systemId: String(pdu.system_id), accepted })
      if (!accepted) {
        session.send(pdu.response({ command_status: state.refuseBinds ? smpp.ESME_RBINDFAIL : smpp.ESME_RINVPASWD }))
        return
      }
      bound.add(session)
      session.send(pdu.response({ system_id: 'test-smsc' }))
    })
    session.on('enquire_link', (pdu: PDU) => { state.counts.enquireLinks += 1; session.send(pdu.response()) })
    session.on('unbind', (pdu: PDU) => { session.send(pdu.response()); session.close() })
    session.on('submit_sm', (pdu: PDU) => {
      state.counts.submitSm += 1
      const answer = (): void => {
        if (state.submitStatus !== 0) {
          session.send(pdu.response({ command_status: state.submitStatus }))
          return
        }
        const messageId = randomBytes(8).toString('hex')
        record(pdu, messageId)
        session.send(pdu.response({ message_id: messageId }))
      }
      if (state.delayMs > 0) setTimeout(answer, state.delayMs)
      else answer()
    })
  })

  function record (pdu: PDU, messageId: string): void {
    const body = pdu.short_message as { udh?: Buffer[], message: string }
    const header = body.udh?.find((element) => element[0] === 0x00)
    const base = { to: String(pdu.destination_addr), from: String(pdu.source_addr), sourceTon: pdu.source_addr_ton as number, dataCoding: pdu.data_coding as number, registeredDelivery: pdu.registered_delivery as number }
    if (header === undefined) {
      taken({ ...base, text: body.message, segments: 1, messageId })
      return
    }
    const key = `${base.to}|${header[2]!}`
    const got = parts.get(key) ?? new Map<number, string>()
    got.set(header[4]!, body.message)
    parts.set(key, got)
    if (got.size < header[3]!) return
    parts.delete(key)
    const text = [...got.entries()].sort(([a], [b]) => a - b).map(([, piece]) => piece).join('')
    taken({ ...base, text, segments: header[3]!, messageId })
  }

  function taken (text: SubmittedText): void {
    state.submitted.push(text)
    state.onSubmit?.(text)
  }

  async function deliverTo (session: Session, fields: Record<string, unknown>): Promise<number> {
    return await new Promise<number>((resolve) => { session.deliver_sm(fields, (response) => { resolve(response.command_status) }) })
  }

  async function deliver (fields: Record<string, unknown>): Promise<number> {
    const session = [...bound].at(-1)
    if (session === undefined) throw new Error('no bound session to deliver to')
    return await deliverTo(session, fields)
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  let reference = 0

  return Object.assign(state, {
    url: `smpp://${systemId}:${password}@127.0.0.1:${port}`,
    port,
    boundSessions: () => bound.size,
    async sendReceipt (messageId: string, stat: string, options: { tlvs?: boolean } = {}): Promise<number> {
      const text = `id:${messageId} sub:001 dlvrd:${stat === 'DELIVRD' ? '001' : '000'} submit date:2612011200 done date:2612011201 stat:${stat} err:000 text:`
      const tlvs = options.tlvs === true ? { receipted_message_id: messageId, message_state: stat === 'DELIVRD' ? 2 : 5 } : {}
      return await deliver({ source_addr: '4915100000000', destination_addr: 'SERVICE', esm_class: 0x04, short_message: { message: text }, ...tlvs })
    },
    async sendIncoming (incoming: { from: string, text: string, to?: string, parts?: 1 | 2, ucs2?: boolean }): Promise<number[]> {
      const common = { source_addr: incoming.from.replace(/^\+/, ''), source_addr_ton: 1, source_addr_npi: 1, destination_addr: incoming.to ?? '4915199999999', data_coding: incoming.ucs2 === true ? 0x08 : 0x00 }
      if (incoming.parts !== 2) return [await deliver({ ...common, short_message: { message: incoming.text } })]
      reference = (reference + 1) % 256
      const half = Math.ceil([...incoming.text].length / 2)
      const pieces = [[...incoming.text].slice(0, half).join(''), [...incoming.text].slice(half).join('')]
      const statuses: number[] = []
      for (const [index, piece] of pieces.entries()) {
        statuses.push(await deliver({ ...common, esm_class: 0x40, short_message: { udh: Buffer.from([0x05, 0x00, 0x03, reference, 2, index + 1]), message: piece } }))
      }
      return statuses
    },
    async sendIncomingToEvery (incoming: { from: string, text: string }): Promise<number[]> {
      const fields = { source_addr: incoming.from.replace(/^\+/, ''), source_addr_ton: 1, source_addr_npi: 1, destination_addr: '4915199999999', data_coding: 0x00, short_message: { message: incoming.text } }
      return await Promise.all([...bound].map(async (session) => await deliverTo(session, fields)))
    },
    vanish (): void {
      for (const session of [...server.sessions]) session.destroy()
    },
    async close (): Promise<void> {
      for (const session of [...server.sessions]) session.destroy()
      await new Promise<void>((resolve) => server.close(() => { resolve() }))
    },
  })
}
