import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { after, before, describe, it } from 'node:test'
import type { IncomingText } from '../../src/messaging/sms/gateway.js'
import { FileSmsGateway, incomingDir } from '../../src/messaging/sms/file-gateway.js'

const run = promisify(execFile)

describe('the file gateway without SMS_SMPP_URL (docs/api/messaging.md › Texts)', () => {
  let dataDir: string
  let smsDir: string
  let gateway: FileSmsGateway

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'sms-files-'))
    smsDir = join(dataDir, 'sms')
    gateway = new FileSmsGateway(smsDir, { pollMs: 60_000 })
  })
  after(async () => {
    await gateway.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('writes each text whole as a JSON file named by the id it resolves with', async () => {
    const text = 'Jonas wird Ihnen am Dienstag helfen. Antworten Sie NEIN 4821, wenn es nicht mehr nötig ist.'
    const outcome = await gateway.submit({ to: '+4915112345678', text })
    assert.ok(outcome.outcome === 'sent')
    const written = JSON.parse(await readFile(join(smsDir, `${outcome.messageId}.json`), 'utf8')) as Record<string, unknown>
    assert.deepEqual({ ...written, created_at: undefined }, { id: outcome.messageId, to: '+4915112345678', text, encoding: 'gsm', segments: 1, created_at: undefined })
    assert.equal((await readdir(smsDir)).filter((name) => name.startsWith('.')).length, 0)
    assert.deepEqual(await gateway.submit({ to: '+4915112345678', text: 'x'.repeat(307) }), { outcome: 'gone', reason: 'text too long (3 segments)' })
  })

  it('hands a text fed by npm run sms:receive to the handler, and removes it only after the handler resolved', async () => {
    const texts: IncomingText[] = []
    let fail = true
    gateway.listen({
      async receipt () {},
      async incoming (text) {
        if (fail) throw new Error('handler failed')
        texts.push(text)
      },
    })
    const env = { ...process.env, DATA_DIR: dataDir, SMS_SMPP_URL: '', SMS_DIR: '' }
    const { stdout } = await run('npm', ['run', '--silent', 'sms:receive', '--', '--from', '+4917000000001', '--text', 'YES 4821'], { env })
    assert.match(stdout, /text written/)

    await gateway.pollNow()
    assert.equal(texts.length, 0)
    assert.equal((await readdir(incomingDir(smsDir))).length, 1, 'kept after the handler threw')

    fail = false
    await gateway.pollNow()
    assert.deepEqual(texts.map((text) => [text.from, text.text]), [['+4917000000001', 'YES 4821']])
    assert.match(texts[0]!.gatewayId, /^file:\d+-[0-9a-f]{12}\.json$/)
    assert.deepEqual(await readdir(incomingDir(smsDir)), [])
  })

  it('refuses npm run sms:receive without a sender or a text', async () => {
    const env = { ...process.env, DATA_DIR: dataDir }
    await assert.rejects(run('npm', ['run', '--silent', 'sms:receive', '--', '--text', 'hi'], { env }), (error: { stderr: string }) => /--from needs/.test(error.stderr))
  })
})
