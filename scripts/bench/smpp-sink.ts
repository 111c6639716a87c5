// The operator's side of the SMPP benches (bench-sms.ts, bench-sms-latency.ts): the `smpp` package's server, which binds
// anyone, answers keep-alives and acknowledges every submit_sm after handing it to `onSubmit`.
import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import smpp, { type PDU } from 'smpp'

/** Listens on a free port of 127.0.0.1; `close` ends its sessions and stops it. */
export async function startSmppSink (onSubmit: (pdu: PDU) => void): Promise<{ port: number, close: () => void }> {
  const server = smpp.createServer({}, (session) => {
    session.on('error', () => {})
    session.on('bind_transceiver', (pdu: PDU) => { session.send(pdu.response()) })
    session.on('enquire_link', (pdu: PDU) => { session.send(pdu.response()) })
    session.on('unbind', (pdu: PDU) => { session.send(pdu.response()); session.close() })
    session.on('submit_sm', (pdu: PDU) => {
      onSubmit(pdu)
      session.send(pdu.response({ message_id: randomBytes(8).toString('hex') }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  // Closing ends its sessions first: the server waits for open ones otherwise.
  return { port: (server.address() as AddressInfo).port, close: () => { for (const session of server.sessions) session.destroy(); server.close() } }
}
