import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { until } from '../helpers/deliveries.js'
import { engines } from '../helpers/engines.js'
import { startSmppServer, type SmppTestServer } from '../helpers/smpp-server.js'
import { codeIn, confirmPhone, nextTextTo, textsTo, uniqueMobile } from '../helpers/texts.js'

/** docs/api/messaging.md › Texts › Replies: STOP, START and HELP, sent as texts through a real SMPP server over a socket. */

for (const engine of engines()) {
  describe(`replies to texts (${engine})`, () => {
    let t: TestApp
    let smpp: SmppTestServer
    const lines: string[] = []

    before(async () => {
      smpp = await startSmppServer()
      t = await startApp(engine, { smsSmppUrl: smpp.url, smsFrom: '+4915199999999', mailFrom: 'Nachbarschaftshilfe <hilfe@example.org>', publicUrl: 'https://hilfe.example.org', logLevel: 'info' },
        { deliveryTickMs: 25, logStream: { write: (line) => { lines.push(line) } } })
    })
    after(async () => {
      await t.close()
      await smpp.close()
    })

    const phoneOf = async (account: Account) => (await t.get('/users/me/phone', account.token)).body
    /** The answer texted back after the first `before` texts to the number. */
    const answerTo = async (e164: string, before: number) => (await nextTextTo(smpp, e164, before)).text

    it('STOP stops texts to the number at once, with one last text saying how to undo it; START undoes it', async () => {
      const person = await t.register()
      const e164 = await confirmPhone(t, smpp, person)
      const sent = textsTo(smpp, e164).length
      const started = Date.now()
      assert.deepEqual(await smpp.sendIncoming({ from: e164, text: 'STOP' }), [0])
      assert.equal(await answerTo(e164, sent), 'You will get no more texts from Nachbarschaftshilfe. Reply START to get them again.')
      await until(async () => (await phoneOf(person)).stopped === true ? true : undefined, 5_000, 'the number stopped')
      assert.ok(Date.now() - started < 5_000, 'honoured within 5 s')
      assert.deepEqual(await phoneOf(person), { phone: e164, verified: true, stopped: true, can_receive_texts: false })
      // Nothing more goes to it, a code neither.
      const verify = await t.post('/users/me/phone/verify', {}, person.token)
      assert.deepEqual([verify.status, verify.body.error], [400, 'texts are stopped for this number: reply START first'])

      assert.deepEqual(await smpp.sendIncoming({ from: e164, text: 'start' }), [0])
      assert.equal(await answerTo(e164, sent + 1), 'Texts from Nachbarschaftshilfe are on again. Reply STOP to stop them, HELP for help.')
      assert.equal((await phoneOf(person)).can_receive_texts, true)
      assert.equal((await t.post('/users/me/phone/verify', {}, person.token)).status, 202)
      assert.match(codeIn(await nextTextTo(smpp, e164, sent + 2)), /^\d{6}$/)
      const answers = (await t.get('/users/me/deliveries', person.token)).body
        .filter((d: { account_message: string | null }) => d.account_message === 'sms_stopped' || d.account_message === 'sms_started')
      assert.deepEqual(answers.map((d: { channel: string, status: string }) => [d.channel, d.status]), [['sms', 'sent'], ['sms', 'sent']])
    })

    it('reads the German words, any case, with spaces and punctuation around them, and answers in the person\'s language', async () => {
      const person = await t.register()
      await t.patch('/users/me', { locale: 'de' }, person.token)
      const e164 = await confirmPhone(t, smpp, person)
      const sent = textsTo(smpp, e164).length
      await smpp.sendIncoming({ from: e164, text: '  Hilfe! ' })
      assert.equal(await answerTo(e164, sent), 'Nachbarschaftshilfe: https://hilfe.example.org Antworten Sie STOPP, um keine SMS mehr zu erhalten.')
      await smpp.sendIncoming({ from: e164, text: 'stopp.' })
      assert.equal(await answerTo(e164, sent + 1), 'Sie erhalten keine SMS mehr von Nachbarschaftshilfe. Antworten Sie START, um sie wieder zu erhalten.')
      assert.equal((await phoneOf(person)).stopped, true)
    })

    it('matches a number the profile holds in national form, and acts once on a text the gateway hands over twice', async () => {
      const person = await t.register()
      const e164 = uniqueMobile()
      // 15112345678 is +4915112345678 to a service in Germany (SMS_DEFAULT_COUNTRY).
      assert.equal((await t.patch('/users/me', { phone: e164.slice(3) }, person.token)).status, 200)
      assert.equal((await t.post('/users/me/phone/verify', {}, person.token)).status, 202)
      const code = codeIn(await nextTextTo(smpp, e164))
      assert.equal((await t.post('/users/me/phone/verify/confirm', { code }, person.token)).status, 200)
      const sent = textsTo(smpp, e164).length
      await smpp.sendIncoming({ from: e164, text: 'HELP' })
      assert.equal(await answerTo(e164, sent), 'Nachbarschaftshilfe: https://hilfe.example.org Reply STOP to stop texts.')
      // The same text from the same number on the same day is one text to the service.
      await smpp.sendIncoming({ from: e164, text: 'HELP' })
      await smpp.sendIncoming({ from: e164, text: 'STOP' })
      await nextTextTo(smpp, e164, sent + 1)
      assert.deepEqual(textsTo(smpp, e164).slice(sent).map((text) => text.text.split(' ')[0]), ['Nachbarschaftshilfe:', 'You'])
    })

    it('a number nobody confirmed gets no answer, but its STOP holds for whoever adds it later; other texts change nothing', async () => {
      const stranger = uniqueMobile()
      await smpp.sendIncoming({ from: stranger, text: 'HELP' })
      await smpp.sendIncoming({ from: stranger, text: 'YES 1234' })
      await smpp.sendIncoming({ from: stranger, text: 'STOP' })
      const person = await t.register()
      assert.equal((await t.patch('/users/me', { phone: stranger }, person.token)).status, 200)
      await until(async () => (await phoneOf(person)).stopped === true ? true : undefined, 5_000, 'the number stopped')
      assert.equal((await t.post('/users/me/phone/verify', {}, person.token)).status, 400)
      assert.deepEqual(textsTo(smpp, stranger), [])
    })

    it('no number and no text of a reply in the log', () => {
      const log = lines.join('\n')
      assert.ok(lines.length > 0)
      assert.doesNotMatch(log, /\+?49151\d{8}/)
      assert.doesNotMatch(log, /Hilfe!|stopp\.|YES 1234/)
    })
  })
}
