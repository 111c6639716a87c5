import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { ManualClock } from '../helpers/clock.js'
import { deliveriesOf, until, type DeliveryRow } from '../helpers/deliveries.js'
import { engines } from '../helpers/engines.js'
import { approvedRequest, REQUEST_INPUT } from '../helpers/lifecycle.js'
import { startSmppServer, type SmppTestServer } from '../helpers/smpp-server.js'
import { confirmPhone, nextTextTo, textsOn, textsTo } from '../helpers/texts.js'

/** docs/api/messaging.md › Texts: the sms channel of the outbox, through a real SMPP server over a socket. */

for (const engine of engines()) {
  describe(`texts (${engine})`, () => {
    let t: TestApp
    let smpp: SmppTestServer
    let moderator: Account
    const clock = new ManualClock(new Date('2026-12-02T12:00:00Z'))
    const lines: string[] = []

    before(async () => {
      smpp = await startSmppServer()
      t = await startApp(engine, { smsSmppUrl: smpp.url, smsFrom: '+4915199999999', timeZone: 'Europe/Berlin', logLevel: 'info' },
        { clock, deliveryTickMs: 25, logStream: { write: (line) => { lines.push(line) } } })
      moderator = await t.registerWithRole('moderator')
    })
    after(async () => {
      await t.close()
      await smpp.close()
    })

    const smsRows = async (account: Account) => (await deliveriesOf(t, account.id)).filter((row) => row.channel === 'sms' && row.account_message === null)
    const settled = async (account: Account, status: string): Promise<DeliveryRow> =>
      await until(async () => (await smsRows(account)).find((row) => row.status === status), 10_000, `a text ${status}`)

    it('texts are off until the person switches them on, even with a confirmed phone', async () => {
      const requester = await t.register()
      await confirmPhone(t, smpp, requester)
      const settings = await t.get('/users/me/notification-settings', requester.token)
      assert.equal(settings.body.sms.enabled, false)
      assert.ok(settings.body.sms.types.includes('response_accepted'))
      await approvedRequest(t, requester, moderator)
      await until(async () => (await deliveriesOf(t, requester.id)).some((row) => row.channel === 'email' && row.status === 'sent') ? true : undefined)
      assert.deepEqual(await smsRows(requester), [])
    })

    it('a notification is texted in English with the request\'s title, and its receipt moves it to delivered', async () => {
      const requester = await t.register()
      const e164 = await confirmPhone(t, smpp, requester)
      await textsOn(t, requester, ['request_approved'])
      await approvedRequest(t, requester, moderator)
      const text = await nextTextTo(smpp, e164, 1)
      assert.equal(text.text, `Your request "${REQUEST_INPUT.title}" is published; volunteers nearby are being told.`)
      assert.equal(text.sourceTon, 1)
      assert.equal(text.dataCoding, 0x00)
      assert.ok(!text.text.includes(REQUEST_INPUT.address))
      const sent = await settled(requester, 'sent')
      assert.equal(sent.attempts, 1)
      assert.equal(await smpp.sendReceipt(text.messageId, 'DELIVRD'), 0)
      await settled(requester, 'delivered')
      const listed = await t.get('/users/me/deliveries', requester.token)
      assert.deepEqual(listed.body.filter((d: { channel: string }) => d.channel === 'sms').map((d: { status: string, account_message: string | null }) => [d.account_message, d.status]),
        [[null, 'delivered'], ['verify_phone_code', 'sent']])
      // A repeated receipt changes nothing.
      assert.equal(await smpp.sendReceipt(text.messageId, 'UNDELIV'), 0)
      assert.equal((await smsRows(requester))[0]?.status, 'delivered')
    })

    it('in German, and a receipt that says UNDELIV makes it undeliverable with that as last_error', async () => {
      const requester = await t.register()
      await t.patch('/users/me', { locale: 'de' }, requester.token)
      const e164 = await confirmPhone(t, smpp, requester)
      await textsOn(t, requester, ['request_approved'])
      const created = await t.post('/requests', { ...REQUEST_INPUT, title: 'Einkauf für Frau Müller, Straße 5' }, requester.token)
      await t.post(`/moderation/requests/${created.body.id}/approve`, {}, moderator.token)
      const text = await nextTextTo(smpp, e164, 1)
      assert.equal(text.text, 'Ihre Anfrage "Einkauf für Frau Müller, Straße 5" ist veröffentlicht; Freiwillige in der Nähe werden benachrichtigt.')
      assert.equal(text.dataCoding, 0x00, 'ä, ö, ü and ß are in the GSM alphabet')
      assert.equal(text.segments, 1)
      await settled(requester, 'sent')
      await smpp.sendReceipt(text.messageId, 'UNDELIV', { tlvs: true })
      const row = await settled(requester, 'undeliverable')
      assert.equal(row.last_error, 'UNDELIV')
    })

    it('a long title is cut to keep the text within two segments; a title outside GSM makes it UCS-2', async () => {
      const requester = await t.register()
      const e164 = await confirmPhone(t, smpp, requester)
      await textsOn(t, requester, ['request_approved'])
      // The longest title (200 characters) fits whole in GSM's two segments (306 characters).
      const long = `Fahrt zur Dialyse ${'und zurück '.repeat(17)}`.slice(0, 200).trim()
      const created = await t.post('/requests', { ...REQUEST_INPUT, title: long }, requester.token)
      assert.equal(created.status, 201, created.text)
      await t.post(`/moderation/requests/${created.body.id}/approve`, {}, moderator.token)
      const text = await nextTextTo(smpp, e164, 1)
      assert.deepEqual([text.segments, text.dataCoding], [2, 0x00])
      assert.equal(text.text, `Your request "${long}" is published; volunteers nearby are being told.`)
      // In UCS-2 two segments hold 134 characters: the title is cut.
      const cyrillic = 'Покупки на неделю и аптека, '.repeat(6).trim()
      const other = await t.post('/requests', { ...REQUEST_INPUT, title: cyrillic }, requester.token)
      assert.equal(other.status, 201, other.text)
      await t.post(`/moderation/requests/${other.body.id}/approve`, {}, moderator.token)
      const ucs2 = await nextTextTo(smpp, e164, 2)
      assert.deepEqual([ucs2.segments, ucs2.dataCoding], [2, 0x08])
      assert.match(ucs2.text, /^Your request "Покупки на неделю и аптека, .*\.\.\." is published; volunteers nearby are being told\.$/)
      assert.ok(ucs2.text.length <= 134)
    })

    it('waits out the quiet hours', async () => {
      const requester = await t.register()
      const e164 = await confirmPhone(t, smpp, requester)
      await textsOn(t, requester, ['request_approved'])
      // 13:00 in Berlin now; quiet from 12:30 to 14:00.
      const quiet = await t.request('PUT', '/users/me/notification-settings', { body: { quiet_hours: { start: '12:30', end: '14:00' } }, token: requester.token })
      assert.equal(quiet.status, 200)
      await approvedRequest(t, requester, moderator)
      const [row] = await until(async () => { const rows = await smsRows(requester); return rows.length > 0 ? rows : undefined })
      assert.equal(row?.due_at.toISOString(), '2026-12-02T13:00:00.000Z')
      await new Promise((resolve) => setTimeout(resolve, 300))
      assert.equal(textsTo(smpp, e164).length, 1, 'only the code so far')
      clock.advance(60 * 60_000)
      await nextTextTo(smpp, e164, 1)
      clock.advance(-60 * 60_000)
    })

    it('budgets: a number\'s and the service\'s texts a day; beyond, dropped as daily limit, a code only by the number\'s', async () => {
      const requester = await t.register()
      const e164 = await confirmPhone(t, smpp, requester)
      await textsOn(t, requester, ['request_approved'])
      const day = '2026-12-02'
      await t.db.query('INSERT INTO sms_budget (day, number, texts) VALUES ($1, $2, 10) ON CONFLICT (day, number) DO UPDATE SET texts = 10', [day, e164])
      await approvedRequest(t, requester, moderator)
      const dropped = await settled(requester, 'dropped')
      assert.equal(dropped.last_error, 'daily limit')
      assert.deepEqual((await t.post('/users/me/phone/verify', {}, requester.token)).status, 202)
      const code = await until(async () => (await deliveriesOf(t, requester.id)).filter((row) => row.account_message === 'verify_phone_code').find((row) => row.status === 'dropped'))
      assert.equal(code.last_error, 'daily limit', 'the number\'s limit drops a code too')
      await t.db.query('DELETE FROM sms_budget WHERE number = $1', [e164])
      // The whole service's 500 used up: a notification's text is dropped, a code still goes.
      const [total] = await t.db.query<{ texts: number }>('SELECT texts FROM sms_budget WHERE day = $1 AND number = \'*\'', [day])
      await t.db.query('UPDATE sms_budget SET texts = 500 WHERE day = $1 AND number = \'*\'', [day])
      try {
        await approvedRequest(t, requester, moderator)
        await until(async () => (await smsRows(requester)).filter((row) => row.last_error === 'daily limit').length === 2 ? true : undefined)
        const before = textsTo(smpp, e164).length
        assert.equal((await t.post('/users/me/phone/verify', {}, requester.token)).status, 202)
        await nextTextTo(smpp, e164, before)
      } finally {
        await t.db.query('UPDATE sms_budget SET texts = $2 WHERE day = $1 AND number = \'*\'', [day, (total?.texts ?? 0) + 1])
      }
      // The next day in TIME_ZONE (Berlin midnight is 23:00 UTC) starts afresh.
      await t.db.query('INSERT INTO sms_budget (day, number, texts) VALUES ($1, $2, 10) ON CONFLICT (day, number) DO UPDATE SET texts = 10', [day, e164])
      clock.set(new Date('2026-12-02T23:30:00Z'))
      try {
        // Access tokens have run out meanwhile.
        for (const account of [requester, moderator]) account.token = (await t.post('/auth/login', { email: account.email, password: account.password })).body.access_token
        await approvedRequest(t, requester, moderator)
        await until(async () => (await smsRows(requester)).some((row) => row.status === 'sent') ? true : undefined)
      } finally {
        clock.set(new Date('2026-12-02T12:00:00Z'))
      }
    })

    it('/metrics counts texts and segments by type and status; no number, code or text is in any log line', async () => {
      const metrics = await t.get('/metrics')
      assert.match(metrics.text, /sms_texts\{type="request_approved",status="delivered"\} [1-9]/)
      assert.match(metrics.text, /sms_segments\{type="request_approved",status="sent"\} [1-9]/)
      assert.match(metrics.text, /sms_texts\{type="verify_phone_code",status="sent"\} [1-9]/)
      assert.match(metrics.text, /deliveries\{channel="sms",status="undeliverable"\} 1/)
      const log = lines.join('\n')
      for (const text of smpp.submitted) {
        assert.ok(!log.includes(text.to), 'no number in the log')
        assert.ok(!log.includes(text.text.slice(0, 20)), 'no text in the log')
        const code = /\b(\d{6})\b/.exec(text.text)?.[1]
        if (code !== undefined) assert.ok(!log.includes(code), 'no code in the log')
      }
    })
  })
}
