import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, type TestApp } from '../helpers/app.js'
import { ManualClock } from '../helpers/clock.js'
import { deliveriesOf, until } from '../helpers/deliveries.js'
import { engines } from '../helpers/engines.js'
import { startSmppServer, type SmppTestServer } from '../helpers/smpp-server.js'
import { codeIn, confirmPhone, nextTextTo, textsTo, uniqueMobile } from '../helpers/texts.js'

/** docs/api/messaging.md › Texts: a person's phone gets texts only once confirmed by a code texted to it, and never once stopped. */

for (const engine of engines()) {
  describe(`confirming a phone for texts (${engine})`, () => {
    let t: TestApp
    let smpp: SmppTestServer
    const clock = new ManualClock()
    const lines: string[] = []

    before(async () => {
      smpp = await startSmppServer()
      t = await startApp(engine, { smsSmppUrl: smpp.url, smsFrom: 'Nachbarn', logLevel: 'info' }, { clock, deliveryTickMs: 25, logStream: { write: (line) => { lines.push(line) } } })
    })
    after(async () => {
      await t.close()
      await smpp.close()
    })

    it('texts a code that confirms the number, once; GET /users/me/phone says what it can get', async () => {
      const person = await t.register()
      const e164 = uniqueMobile()
      assert.deepEqual((await t.get('/users/me/phone', person.token)).body, { phone: null, verified: false, stopped: false, can_receive_texts: false })
      assert.equal((await t.patch('/users/me', { phone: e164.slice(3) }, person.token)).status, 200, 'written without +49: SMS_DEFAULT_COUNTRY')
      assert.deepEqual((await t.get('/users/me/phone', person.token)).body, { phone: e164, verified: false, stopped: false, can_receive_texts: false })
      const asked = await t.post('/users/me/phone/verify', {}, person.token)
      assert.equal(asked.status, 202)
      assert.deepEqual(asked.body, { message: 'we have sent a code to your phone' })
      const text = await nextTextTo(smpp, e164)
      assert.equal(text.dataCoding, 0x00)
      assert.equal(text.segments, 1)
      assert.equal(text.from, 'Nachbarn')
      assert.equal(text.registeredDelivery, 1)
      const code = codeIn(text)
      const wrong = code === '000000' ? '111111' : '000000'
      assert.deepEqual((await t.post('/users/me/phone/verify/confirm', { code: wrong }, person.token)).body, { error: 'invalid or expired code' })
      const confirmed = await t.post('/users/me/phone/verify/confirm', { code }, person.token)
      assert.equal(confirmed.status, 200)
      assert.deepEqual(confirmed.body, { phone: e164, verified: true })
      assert.deepEqual((await t.get('/users/me/phone', person.token)).body, { phone: e164, verified: true, stopped: false, can_receive_texts: true })
      const again = await t.post('/users/me/phone/verify/confirm', { code }, person.token)
      assert.deepEqual([again.status, again.body], [400, { error: 'invalid or expired code' }], 'single use')
      const [row] = (await deliveriesOf(t, person.id)).filter((d) => d.account_message === 'verify_phone_code')
      assert.equal(row?.channel, 'sms')
      await until(async () => (await deliveriesOf(t, person.id))[0]?.secret === null ? true : undefined)
      // Neither the code, nor the number, nor the words of the text are in any log line.
      const log = lines.join('\n')
      for (const secret of [code, e164, e164.slice(1), e164.slice(3), 'Your code']) assert.ok(!log.includes(secret), `no "${secret}" in the log`)
    })

    it('a code is valid 30 minutes, and five wrong tries void it', async () => {
      const person = await t.register()
      const e164 = uniqueMobile()
      await t.patch('/users/me', { phone: e164 }, person.token)
      await t.post('/users/me/phone/verify', {}, person.token)
      const late = codeIn(await nextTextTo(smpp, e164))
      clock.advance(31 * 60_000)
      // The access token has run out too: signed in again.
      person.token = (await t.post('/auth/login', { email: person.email, password: person.password })).body.access_token
      assert.deepEqual((await t.post('/users/me/phone/verify/confirm', { code: late }, person.token)).body, { error: 'invalid or expired code' })
      await t.post('/users/me/phone/verify', {}, person.token)
      const code = codeIn(await nextTextTo(smpp, e164, 1))
      const wrong = code === '000000' ? '111111' : '000000'
      for (let i = 0; i < 5; i++) assert.equal((await t.post('/users/me/phone/verify/confirm', { code: wrong }, person.token)).status, 400)
      assert.equal((await t.post('/users/me/phone/verify/confirm', { code }, person.token)).status, 400, 'void after five wrong tries')
      assert.equal((await t.get('/users/me/phone', person.token)).body.verified, false)
    })

    it('changing the profile\'s phone makes it unconfirmed, and voids a code sent to the old one', async () => {
      const person = await t.register()
      const first = await confirmPhone(t, smpp, person)
      await t.post('/users/me/phone/verify', {}, person.token)
      const code = codeIn(await nextTextTo(smpp, first, 1))
      const second = uniqueMobile()
      assert.equal((await t.patch('/users/me', { phone: second }, person.token)).status, 200)
      assert.deepEqual((await t.get('/users/me/phone', person.token)).body, { phone: second, verified: false, stopped: false, can_receive_texts: false })
      assert.equal((await t.post('/users/me/phone/verify/confirm', { code }, person.token)).status, 400, 'the old number\'s code confirms nothing')
      assert.equal((await t.patch('/users/me', { bio: 'unchanged phone' }, person.token)).status, 200)
      await confirmPhone(t, smpp, person, second)
      assert.equal((await t.patch('/users/me', { phone: second }, person.token)).status, 200)
      assert.equal((await t.get('/users/me/phone', person.token)).body.verified, true, 'the same number written again stays confirmed')
    })

    it('no phone, a landline, or a stopped number: 400, and nothing is texted', async () => {
      const person = await t.register()
      assert.deepEqual((await t.post('/users/me/phone/verify', {}, person.token)).body, { error: 'no phone number' })
      await t.patch('/users/me', { phone: '+493012345678' }, person.token)
      const landline = await t.post('/users/me/phone/verify', {}, person.token)
      assert.deepEqual([landline.status, landline.body], [400, { error: 'not a mobile number' }])
      assert.equal((await t.get('/users/me/phone', person.token)).body.can_receive_texts, false)
      const e164 = await confirmPhone(t, smpp, person)
      // A STOP reply's mark (replies are read by the gateway's handler; here it is set as that would).
      await t.db.query('INSERT INTO sms_numbers (e164, stopped_at, updated_at) VALUES ($1, now(), now())', [e164])
      assert.deepEqual((await t.get('/users/me/phone', person.token)).body, { phone: e164, verified: true, stopped: true, can_receive_texts: false })
      const stopped = 'texts are stopped for this number: reply START first'
      const sent = textsTo(smpp, e164).length
      const asked = await t.post('/users/me/phone/verify', {}, person.token)
      assert.deepEqual([asked.status, asked.body], [400, { error: stopped }])
      const tried = await t.post('/users/me/phone/verify/confirm', { code: '123456' }, person.token)
      assert.deepEqual([tried.status, tried.body], [400, { error: stopped }])
      await new Promise((resolve) => setTimeout(resolve, 200))
      assert.equal(textsTo(smpp, e164).length, sent)
    })
  })
}
