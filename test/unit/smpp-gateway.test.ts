import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { IncomingText, Receipt, SmsHandlers } from '../../src/messaging/sms/gateway.js'
import { SmppGateway, type GatewayLog } from '../../src/messaging/sms/smpp-gateway.js'
import { eventually } from '../helpers/assert.js'
import { startSmppServer, type SmppTestServer } from '../helpers/smpp-server.js'

const TO = '+4915112345678'
const PASSWORD = 'secret12'

/** Every log line as text, to check that no number, text or password is ever in one. */
function capturingLog (): GatewayLog & { lines: string[] } {
  const lines: string[] = []
  return { lines, info: (fields, message) => { lines.push(`${message} ${JSON.stringify(fields)}`) }, warn: (fields, message) => { lines.push(`${message} ${JSON.stringify(fields)}`) } }
}

function recordingHandlers (options: { failIncoming?: number } = {}): SmsHandlers & { receipts: Receipt[], texts: IncomingText[] } {
  let failures = options.failIncoming ?? 0
  const receipts: Receipt[] = []
  const texts: IncomingText[] = []
  return {
    receipts,
    texts,
    async receipt (receipt) { receipts.push(receipt) },
    async incoming (text) {
      if (failures > 0) {
        failures -= 1
        throw new Error('handler failed')
      }
      texts.push(text)
    },
  }
}

function gatewayFor (server: SmppTestServer, log: GatewayLog, options: { url?: string, from?: string } = {}): SmppGateway {
  return new SmppGateway({ url: options.url ?? server.url, from: options.from ?? '+4930123456', log, timeoutMs: 400, enquireLinkMs: 100, minReconnectMs: 50, maxReconnectMs: 200 })
}

describe('the SMPP gateway (docs/api/messaging.md › Texts) against a real SMPP server', () => {
  let server: SmppTestServer
  let gateway: SmppGateway
  const log = capturingLog()
  const handlers = recordingHandlers({ failIncoming: 1 })

  before(async () => {
    server = await startSmppServer({ password: PASSWORD })
    gateway = gatewayFor(server, log)
    gateway.listen(handlers)
    await eventually(async () => gateway.isBound, 5000)
  })
  after(async () => {
    await gateway.close()
    await server.close()
  })

  it('binds as a transceiver with the right credentials, and is refused with wrong ones', async () => {
    assert.deepEqual(server.binds[0], { systemId: 'charity', accepted: true })
    const wrong = gatewayFor(server, capturingLog(), { url: server.url.replace(PASSWORD, 'wrong-password') })
    try {
      await eventually(async () => server.binds.some((bind) => !bind.accepted), 5000)
      assert.equal(wrong.isBound, false)
      assert.deepEqual(await wrong.submit({ to: TO, text: 'Hello' }), { outcome: 'retry', reason: 'gateway not bound' })
    } finally {
      await wrong.close()
    }
  })

  it('submits GSM texts in one and two segments with data_coding 0x00, joined at the server', async () => {
    const short = 'Jonas hilft Ihnen am Dienstag, 14:00. Grüße, Straße, café'
    const long = `${'Einkauf für Frau Müller: Brot, Äpfel, Käse. '.repeat(5)}€ [ok]`.slice(0, 290)
    const outcomes = [await gateway.submit({ to: TO, text: short }), await gateway.submit({ to: TO, text: long })]
    for (const outcome of outcomes) assert.equal(outcome.outcome, 'sent')
    const [first, second] = server.submitted.slice(-2)
    assert.deepEqual({ text: first!.text, dataCoding: first!.dataCoding, segments: first!.segments, to: first!.to, from: first!.from, ton: first!.sourceTon }, { text: short, dataCoding: 0, segments: 1, to: '4915112345678', from: '4930123456', ton: 1 })
    assert.deepEqual({ text: second!.text, dataCoding: second!.dataCoding, segments: second!.segments, registered: second!.registeredDelivery }, { text: long, dataCoding: 0, segments: 2, registered: 1 })
    assert.equal(outcomes[1]!.outcome === 'sent' && outcomes[1]!.messageId, second!.messageId)
  })

  it('submits UCS-2 texts in one and two segments with data_coding 0x08, and refuses three as gone', async () => {
    const short = 'Jonas will help you 🙂 on Tuesday'
    const long = 'Ваша заявка принята. Волонтёр придёт во вторник в 14:00 и поможет с покупками. Спасибо! 🙂'
    assert.equal((await gateway.submit({ to: TO, text: short })).outcome, 'sent')
    assert.equal((await gateway.submit({ to: TO, text: long })).outcome, 'sent')
    const [first, second] = server.submitted.slice(-2)
    assert.deepEqual([first!.text, first!.dataCoding, first!.segments], [short, 8, 1])
    assert.deepEqual([second!.text, second!.dataCoding, second!.segments], [long, 8, 2])
    assert.deepEqual(await gateway.submit({ to: TO, text: 'ж'.repeat(140) }), { outcome: 'gone', reason: 'text too long' })
  })

  it('sends an alphanumeric sender with TON 5', async () => {
    const named = gatewayFor(server, capturingLog(), { from: 'Nachbarn' })
    try {
      await eventually(async () => named.isBound, 5000)
      assert.equal((await named.submit({ to: TO, text: 'Hallo' })).outcome, 'sent')
      assert.deepEqual([server.submitted.at(-1)!.from, server.submitted.at(-1)!.sourceTon], ['Nachbarn', 5])
    } finally {
      await named.close()
    }
  })

  it('hands receipts from the receipt text and from TLVs to the handler', async () => {
    const outcome = await gateway.submit({ to: TO, text: 'Receipt please' })
    assert.ok(outcome.outcome === 'sent')
    assert.equal(await server.sendReceipt(outcome.messageId, 'DELIVRD'), 0)
    assert.equal(await server.sendReceipt(outcome.messageId, 'UNDELIV', { tlvs: true }), 0)
    assert.deepEqual(handlers.receipts.slice(-2), [
      { messageId: outcome.messageId, stat: 'DELIVRD', delivered: true },
      { messageId: outcome.messageId, stat: 'UNDELIV', delivered: false },
    ])
  })

  it('hands incoming texts over, repeated by the gateway when the handler threw, parts joined', async () => {
    // The handler throws once: the deliver_sm is answered with an error status, and the repeat is taken.
    assert.deepEqual(await server.sendIncoming({ from: '+4917000000001', text: 'STOP' }), [0x64])
    assert.deepEqual(await server.sendIncoming({ from: '+4917000000001', text: 'STOP' }), [0])
    const long = `YES 4821 ${'ich komme gern vorbei. '.repeat(8)}`
    assert.deepEqual(await server.sendIncoming({ from: '+4917000000002', text: long, parts: 2 }), [0, 0])
    assert.deepEqual(await server.sendIncoming({ from: '+4917000000003', text: 'JA 1234 😀', ucs2: true }), [0])
    assert.deepEqual(handlers.texts.map((text) => [text.from, text.text]), [['+4917000000001', 'STOP'], ['+4917000000002', long], ['+4917000000003', 'JA 1234 😀']])
    assert.match(handlers.texts[0]!.gatewayId, /^smpp:[0-9a-f]{32}$/)
  })

  it('keeps the bind alive with enquire_link', async () => {
    const before = server.counts.enquireLinks
    await eventually(async () => server.counts.enquireLinks >= before + 2, 5000)
  })

  it('resolves retry quickly while the gateway stalls, refuses binds or vanishes, and sends again once bound', async () => {
    server.delayMs = 2000
    let started = Date.now()
    assert.deepEqual(await gateway.submit({ to: TO, text: 'slow' }), { outcome: 'retry', reason: 'gateway timed out' })
    assert.ok(Date.now() - started < 1500)
    server.delayMs = 0
    // The keep-alive went unanswered during the stall or not: either way the gateway is bound again soon.
    await eventually(async () => gateway.isBound, 5000)

    server.refuseBinds = true
    server.vanish()
    await eventually(async () => server.binds.some((bind) => !bind.accepted && bind.systemId === 'charity'), 5000)
    started = Date.now()
    const outcomes = await Promise.all(Array.from({ length: 20 }, async () => await gateway.submit({ to: TO, text: 'while down' })))
    assert.ok(Date.now() - started < 100, `took ${Date.now() - started} ms`)
    for (const outcome of outcomes) assert.equal(outcome.outcome, 'retry')

    server.refuseBinds = false
    await eventually(async () => gateway.isBound, 5000)
    // Vanishing mid-batch: every submission in flight resolves retry, and the next batch after the new bind is sent.
    server.delayMs = 100
    const batch = Array.from({ length: 10 }, async () => await gateway.submit({ to: TO, text: 'batch' }))
    setTimeout(() => { server.vanish() }, 20)
    for (const outcome of await Promise.all(batch)) assert.equal(outcome.outcome, 'retry')
    server.delayMs = 0
    await eventually(async () => gateway.isBound, 5000)
    assert.equal((await gateway.submit({ to: TO, text: 'back again' })).outcome, 'sent')
  })

  it('maps a throttled answer to retry and an invalid destination to gone', async () => {
    server.submitStatus = 0x58
    assert.deepEqual(await gateway.submit({ to: TO, text: 'x' }), { outcome: 'retry', reason: 'gateway status 0x0058' })
    server.submitStatus = 0x0b
    assert.deepEqual(await gateway.submit({ to: TO, text: 'x' }), { outcome: 'gone', reason: 'gateway status 0x000b' })
    server.submitStatus = 0
  })

  it('never logs a number, a text or the password', () => {
    assert.ok(log.lines.some((line) => line.includes('SMPP gateway bound')))
    assert.ok(log.lines.some((line) => line.includes('not bound')))
    for (const line of log.lines) {
      for (const secret of [PASSWORD, '4915112345678', '491700000000', '4930123456', 'STOP', 'YES', 'Jonas', 'batch']) assert.ok(!line.includes(secret), line)
    }
  })
})
