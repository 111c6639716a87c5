import assert from 'node:assert/strict'
import { createServer, type Socket } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { sealerFor } from '../../src/lib/sealing.js'
import { unsubscribeTokens } from '../../src/lib/unsubscribe.js'
import { changesOn } from '../../src/areas.js'
import { startApp, TEST_SECRET, type Account, type TestApp } from '../helpers/app.js'
import { ManualClock } from '../helpers/clock.js'
import { deliveriesOf, until } from '../helpers/deliveries.js'
import { engines } from '../helpers/engines.js'
import { approvedRequest, REQUEST_INPUT } from '../helpers/lifecycle.js'
import { startSmtp, type TestSmtp } from '../helpers/smtp.js'

/** docs/api/messaging.md › Deliveries and e-mail: e-mails through a real SMTP server, the outbox's guarantees, account messages (docs/api/accounts.md › Getting back in). */

const PUBLIC_URL = 'https://help.example.org'

for (const engine of engines()) {
  describe(`deliveries by e-mail (${engine})`, () => {
    let t: TestApp
    let smtp: TestSmtp
    const clock = new ManualClock()
    let moderator: Account

    before(async () => {
      smtp = await startSmtp()
      t = await startApp(engine, { smtpUrl: smtp.url, publicUrl: PUBLIC_URL }, { clock, deliveryTickMs: 25 })
      moderator = await t.registerWithRole('moderator')
    })
    after(async () => {
      await t.close()
      await smtp.close()
    })

    it('an approved request is e-mailed to its requester in English, with its title, link and unsubscribe headers', async () => {
      const requester = await t.register()
      const requestId = await approvedRequest(t, requester, moderator)
      const mail = await smtp.nextTo(requester.email)
      assert.equal(mail.subject, `Your request is published: ${REQUEST_INPUT.title}`)
      assert.match(mail.text, new RegExp(`${PUBLIC_URL}/requests/${requestId}`))
      assert.match(mail.html, new RegExp(`href="${PUBLIC_URL}/requests/${requestId}"`))
      const unsubscribe = String(mail.header('List-Unsubscribe'))
      assert.match(unsubscribe, new RegExp(`^<${PUBLIC_URL}/api/v1/unsubscribe\\?token=${requester.id}\\.request_approved\\.[A-Za-z0-9_-]{43}>$`))
      assert.equal(mail.header('List-Unsubscribe-Post'), 'List-Unsubscribe=One-Click')
      assert.match(mail.text, /\/settings\/notifications/)
      assert.match(mail.text, /\/unsubscribe#token=/)
      assert.ok(!mail.raw.includes(REQUEST_INPUT.address), 'no address in any e-mail')
      const [row] = await until(async () => {
        const rows = await deliveriesOf(t, requester.id)
        return rows.every((r) => r.status === 'sent') ? rows : undefined
      })
      assert.equal(row?.channel, 'email')
      assert.equal(row?.attempts, 1)
      assert.equal(row?.type, 'request_approved')
    })

    it('a German speaker gets German, with every value HTML-escaped', async () => {
      const requester = await t.register()
      await t.db.query('UPDATE users SET locale = \'de\' WHERE id = $1', [requester.id])
      const created = await t.post('/requests', { ...REQUEST_INPUT, title: 'Einkauf <b>&</b> "Apotheke"' }, requester.token)
      assert.equal(created.status, 201)
      assert.equal((await t.post(`/moderation/requests/${created.body.id}/approve`, {}, moderator.token)).status, 200)
      const mail = await smtp.nextTo(requester.email)
      assert.equal(mail.subject, 'Ihre Anfrage ist veröffentlicht: Einkauf <b>&</b> "Apotheke"')
      assert.match(mail.html, /Einkauf &#60;b&#62;&#38;&#60;\/b&#62; &#34;Apotheke&#34;/)
      assert.ok(!mail.html.includes('<b>&</b>'))
      assert.match(mail.text, /Benachrichtigungseinstellungen/)
    })

    it('an account message is sent with its code in the link\'s fragment, and the code is cleared once sent', async () => {
      const person = await t.register()
      const sealed = sealerFor(TEST_SECRET).seal('493817')
      await changesOn(t.db, clock).run(person.id, async (_tx, change) => {
        change.record({ type: 'account_message', userId: person.id, message: 'sign_in_code', sealedCode: sealed })
      })
      const mail = await smtp.nextTo(person.email)
      assert.equal(mail.subject, 'Your sign-in code')
      assert.ok(!mail.subject.includes('493817'))
      assert.match(mail.text, new RegExp(`${PUBLIC_URL}/sign-in/code#email=${encodeURIComponent(person.email)}&code=493817`))
      assert.equal(mail.header('list-unsubscribe'), undefined, 'account messages have no unsubscribe')
      const rows = await until(async () => {
        const found = (await deliveriesOf(t, person.id)).filter((r) => r.account_message === 'sign_in_code')
        return found[0]?.status === 'sent' ? found : undefined
      })
      assert.equal(rows[0]?.secret, null)
    })

    it('nothing is written, or sent, for a change that rolled back', async () => {
      const person = await t.register()
      await assert.rejects(changesOn(t.db, clock).run(person.id, async (_tx, change) => {
        change.record({ type: 'account_message', userId: person.id, message: 'password_changed', sealedCode: null })
        change.notify({ userId: person.id, type: 'check_expiring', requestId: null, data: {} })
        throw new Error('rolled back')
      }), /rolled back/)
      // A later change's e-mail arrives, so the loop has run past where the rolled-back one would be.
      await changesOn(t.db, clock).run(person.id, async (_tx, change) => {
        change.record({ type: 'account_message', userId: person.id, message: 'email_verified', sealedCode: null })
      })
      const mail = await smtp.nextTo(person.email)
      assert.equal(mail.subject, 'Your e-mail address is confirmed')
      assert.deepEqual((await deliveriesOf(t, person.id)).map((r) => r.account_message), ['email_verified'])
      assert.equal(smtp.countTo(person.email), 1)
    })

    it('a refusing server is tried again later, and the message arrives when it accepts again', async () => {
      const requester = await t.register()
      smtp.refuse(451)
      try {
        await approvedRequest(t, requester, moderator)
        const [failed] = await until(async () => {
          const rows = await deliveriesOf(t, requester.id)
          return rows[0]?.last_error !== null && rows[0]?.last_error !== undefined ? rows : undefined
        })
        assert.equal(failed?.status, 'pending')
        assert.equal(failed?.attempts, 1)
        assert.equal(failed?.last_error, 'the mail server refused the message (451)')
        assert.equal(failed?.due_at.getTime(), clock.now().getTime() + 60_000)
      } finally {
        smtp.refuse(false)
      }
      assert.equal(smtp.countTo(requester.email), 0)
      clock.advance(60_000)
      await smtp.nextTo(requester.email)
      const [sent] = await until(async () => {
        const rows = await deliveriesOf(t, requester.id)
        return rows[0]?.status === 'sent' ? rows : undefined
      })
      assert.equal(sent?.attempts, 2)
    })

    it('one-click unsubscribe: the header\'s address with a form body and no sign-in stops that type\'s e-mails', async () => {
      const requester = await t.register()
      await approvedRequest(t, requester, moderator)
      const mail = await smtp.nextTo(requester.email)
      const url = new URL(String(mail.header('List-Unsubscribe')).slice(1, -1))
      assert.equal(url.pathname, '/api/v1/unsubscribe')
      // The footer's page link carries the same token, in the fragment.
      assert.ok(mail.text.includes(`${PUBLIC_URL}/unsubscribe#token=${url.searchParams.get('token')}`))
      const res = await t.request('POST', `/unsubscribe${url.search}`, { payload: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
      assert.equal(res.status, 200, res.text)
      assert.deepEqual(res.body, { message: 'unsubscribed' })
      // "whatever its body": a malformed or empty content type, JSON, and a body far past the API's 64 KiB.
      for (const [type, payload] of [['text', 'x'], ['', 'List-Unsubscribe=One-Click'], ['application/json', '{"not json'], ['application/x-www-form-urlencoded', 'x'.repeat(200_000)]] as const) {
        const again = await t.request('POST', `/unsubscribe${url.search}`, { payload, headers: { 'content-type': type } })
        assert.equal(again.status, 200, `${type}: ${again.text}`)
        assert.deepEqual(again.body, { message: 'unsubscribed' })
      }
      // Again, with any body at all: the same answer.
      for (const [type, payload] of [['application/json', '{not json'], ['text/plain', 'hello'], ['application/json', '']]) {
        const again = await t.request('POST', `/unsubscribe${url.search}`, { payload, headers: { 'content-type': type! } })
        assert.deepEqual([again.status, again.body], [200, { message: 'unsubscribed' }])
      }
      const settings = await t.get('/users/me/notification-settings', requester.token)
      assert.ok(!settings.body.email.types.includes('request_approved'))
      assert.ok(settings.body.email.types.includes('response_received'))
      const before = (await deliveriesOf(t, requester.id)).length
      await approvedRequest(t, requester, moderator)
      assert.equal((await deliveriesOf(t, requester.id)).length, before, 'no e-mail row for an unsubscribed type')
    })

    it('a wrong, altered or missing token is 400 \'invalid token\'', async () => {
      const person = await t.register()
      const valid = `${person.id}.request_approved.${'A'.repeat(43)}`
      for (const query of ['', '?token=', `?token=${valid}`, '?token=abc', `?token=${person.id}.sign_in_code.${'A'.repeat(43)}`, `?token=${'x'.repeat(300)}`]) {
        const res = await t.request('POST', `/unsubscribe${query}`, { payload: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
        assert.deepEqual([res.status, res.body], [400, { error: 'invalid token' }], query)
      }
    })

    it('/metrics counts deliveries by channel and status, and the oldest pending one\'s age', async () => {
      const res = await t.request('GET', '/metrics')
      assert.equal(res.status, 200)
      const sent = /^deliveries\{channel="email",status="sent"\} (\d+)$/m.exec(res.text)
      assert.ok(sent !== null && Number(sent[1]) >= 3, res.text.slice(0, 200))
      assert.match(res.text, /^deliveries\{channel="push",status="failed"\} 0$/m)
      assert.match(res.text, /^deliveries_oldest_pending_age_seconds \d+(\.\d+)?$/m)
    })

    it('erasure deletes the account\'s outbox, codes included, and its notification settings; an old unsubscribe link writes none back', async () => {
      const person = await t.register()
      const saved = await t.request('PUT', '/users/me/notification-settings', { body: { quiet_hours: { start: '22:00', end: '07:00' }, time_zone: 'Europe/Berlin' }, token: person.token })
      assert.equal(saved.status, 200, saved.text)
      smtp.refuse(451)
      try {
        await changesOn(t.db, clock).run(person.id, async (_tx, change) => {
          change.record({ type: 'account_message', userId: person.id, message: 'verify_email_code', sealedCode: sealerFor(TEST_SECRET).seal('555666') })
        })
        await until(async () => (await deliveriesOf(t, person.id))[0]?.attempts === 1 ? true : undefined)
        const erased = await t.request('DELETE', '/users/me', { body: { password: person.password }, token: person.token })
        assert.equal(erased.status, 200, erased.text)
        assert.deepEqual(await deliveriesOf(t, person.id), [])
        const settingsLeft = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM notification_settings WHERE user_id = $1', [person.id]))[0]?.n
        assert.equal(await settingsLeft(), 0)
        const token = unsubscribeTokens(TEST_SECRET).sign({ userId: person.id, type: 'request_approved' })
        const clicked = await t.request('POST', `/unsubscribe?token=${token}`, { payload: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
        assert.equal(clicked.status, 200, clicked.text)
        assert.equal(await settingsLeft(), 0)
      } finally {
        smtp.refuse(false)
      }
    })
  })

  describe(`a mail server that never answers (${engine})`, () => {
    // It takes the connection and says nothing: the sending loop waits for its greeting while the API goes on.
    const held: Socket[] = []
    const silent = createServer((socket) => { held.push(socket) })
    let t: TestApp
    let moderator: Account

    before(async () => {
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
      const { port } = silent.address() as { port: number }
      t = await startApp(engine, { smtpUrl: `smtp://127.0.0.1:${port}`, publicUrl: PUBLIC_URL }, { deliveryTickMs: 25 })
      moderator = await t.registerWithRole('moderator')
    })
    after(async () => {
      // Refuse new connections first, then hang up: the loop's send fails at once and the app closes.
      const closed = new Promise((resolve) => silent.close(resolve))
      for (const socket of held) socket.destroy()
      await t.close()
      await closed
    })

    it('the API answers while a sending is stuck: nothing of a request waits for the mail server', async () => {
      const requester = await t.register()
      await approvedRequest(t, requester, moderator)
      await until(async () => held.length > 0 ? true : undefined, 10_000, 'the sender to connect')
      // The e-mail is under way and the server has said nothing; every call below is answered all the same.
      const second = await approvedRequest(t, requester, moderator)
      assert.equal((await t.get(`/requests/${second}`, requester.token)).status, 200)
      const volunteer = await t.register()
      assert.equal((await t.post(`/requests/${second}/responses`, { message: 'I can help' }, volunteer.token)).status, 201)
      assert.ok((await deliveriesOf(t, requester.id)).every((row) => row.status === 'pending'), 'nothing was sent: the server never spoke')
    })
  })
}
