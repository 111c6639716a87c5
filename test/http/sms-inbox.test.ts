import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { RetentionJob } from '../../src/data-protection/privacy/retention.js'
import { addToInbox } from '../../src/messaging/sms/sms-inbox.repo.js'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { ManualClock, DAY_MS } from '../helpers/clock.js'
import { engines } from '../helpers/engines.js'
import { createRequest } from '../helpers/requests.js'
import { startSmppServer, type SmppTestServer } from '../helpers/smpp-server.js'
import { confirmPhone, nextTextTo, textsTo, uniqueMobile } from '../helpers/texts.js'

/**
 * docs/api/messaging.md › Texts › The inbox: texts the service did not understand, sent through a real SMPP server over
 * a socket; the answer read from what the server was given to send.
 */

const SORRY = 'Sorry, we did not understand. Reply HELP for help.'
const HELP = 'Nachbarschaftshilfe: https://hilfe.example.org Reply STOP to stop texts.'

interface Item { id: number, received_at: string, from: string, text: string, request_id: number | null, handled_by: number | null }

for (const engine of engines()) {
  describe(`the texts inbox (${engine})`, () => {
    let t: TestApp
    let smpp: SmppTestServer
    let coordinator: Account
    let moderator: Account
    const clock = new ManualClock(new Date('2026-12-07T09:00:00Z'))
    const lines: string[] = []

    before(async () => {
      smpp = await startSmppServer()
      t = await startApp(engine, { smsSmppUrl: smpp.url, smsFrom: '+4915199999999', mailFrom: 'Nachbarschaftshilfe <hilfe@example.org>', publicUrl: 'https://hilfe.example.org', logLevel: 'info' },
        { deliveryTickMs: 25, clock, logStream: { write: (line) => { lines.push(line) } } })
      coordinator = await t.registerWithRole('coordinator')
      moderator = await t.registerWithRole('moderator')
    })
    after(async () => {
      await t.close()
      await smpp.close()
    })

    /** Moves the clock; the staff sign in again, as their access tokens ran out by it. */
    async function advance (ms: number): Promise<void> {
      clock.advance(ms)
      for (const account of [coordinator, moderator, t.admin]) {
        const res = await t.post('/auth/login', { email: account.email, password: account.password })
        assert.equal(res.status, 200, res.text)
        account.token = res.body.access_token
      }
    }

    /** The texts `account` sees, newest first (all of them: the list is short here). */
    const inboxOf = async (account: Account, query = 'limit=100'): Promise<Item[]> => {
      const res = await t.get(`/sms/inbox?${query}`, account.token)
      assert.equal(res.status, 200, res.text)
      return res.body
    }
    const textsIn = (items: Item[], ...words: string[]) => items.filter((item) => words.includes(item.text))
    /** A text from `from`, taken by the service once the gateway's deliver_sm is answered. */
    const send = async (from: string, text: string) => assert.deepEqual(await smpp.sendIncoming({ from, text }), [0])
    const stored = async (text: string) => Number((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM sms_inbox WHERE text = $1', [text]))[0]!.n)
    const unknownCount = async () => Number(/^sms_texts_from_unknown_numbers (\d+)$/m.exec((await t.request('GET', '/metrics')).text)?.[1])

    /** A client with `phone` (as the record holds it) who agreed to texts. */
    async function clientWithTexts (phone: string, first = 'Erna', last = 'Schmidt'): Promise<number> {
      const res = await t.post('/clients', { first_name: first, last_name: last, phone, consent: { how: 'phone' } }, coordinator.token)
      assert.equal(res.status, 201, res.text)
      // direct write: a client's consent to texts is recorded by a route not built yet; this is the column it sets.
      await t.db.query('UPDATE clients SET texts_how = \'phone\', texts_recorded_by = $2, texts_recorded_at = now() WHERE id = $1', [res.body.id, coordinator.id])
      return res.body.id
    }

    it('a text no keyword matches, or a wrong code, from a confirmed number goes to the inbox, with one "sorry" a day', async () => {
      const person = await t.register({ first_name: 'Rosa', last_name: 'Texter' })
      const e164 = await confirmPhone(t, smpp, person)
      const sent = textsTo(smpp, e164).length
      await send(e164, 'Can someone call me back?')
      assert.equal((await nextTextTo(smpp, e164, sent)).text, SORRY)
      // YES, OK and NO with a code are not read yet: every code is a wrong one, and no second "sorry" today.
      await send(e164, 'YES 4821')
      await send(e164, 'HELP')
      await nextTextTo(smpp, e164, sent + 1)
      assert.deepEqual(textsTo(smpp, e164).slice(sent).map((text) => text.text), [SORRY, HELP])

      const mine = textsIn(await inboxOf(moderator), 'Can someone call me back?', 'YES 4821', 'HELP')
      assert.deepEqual(mine.map(({ from, text, request_id: request, handled_by: handler }) => ({ from, text, request, handler })), [
        { from: 'Rosa Texter', text: 'YES 4821', request: null, handler: null },
        { from: 'Rosa Texter', text: 'Can someone call me back?', request: null, handler: null },
      ])
      assert.equal(mine[0]!.received_at, clock.now().toISOString())
      const answers = (await t.get('/users/me/deliveries', person.token)).body.filter((d: { account_message: string | null }) => d.account_message === 'sms_sorry')
      assert.deepEqual(answers.map((d: { channel: string, status: string }) => [d.channel, d.status]), [['sms', 'sent']])

      // The next day (in TIME_ZONE), another.
      await advance(DAY_MS)
      await send(e164, 'Still there?')
      assert.equal((await nextTextTo(smpp, e164, sent + 2)).text, SORRY)
      assert.equal(textsIn(await inboxOf(moderator), 'Still there?').length, 1)
    })

    it('answers "sorry" in the person\'s language, and the same text handed over twice is stored once', async () => {
      const person = await t.register({ first_name: 'Jonas', last_name: 'Weber' })
      await t.patch('/users/me', { locale: 'de' }, person.token)
      const e164 = await confirmPhone(t, smpp, person)
      const sent = textsTo(smpp, e164).length
      await send(e164, 'Wann kommt jemand?')
      await send(e164, 'Wann kommt jemand?')
      assert.equal((await nextTextTo(smpp, e164, sent)).text, 'Entschuldigung, wir haben Sie nicht verstanden. Antworten Sie HILFE für Hilfe.')
      assert.equal(await stored('Wann kommt jemand?'), 1)
    })

    it('a number nobody confirmed gets nothing back, and its text is counted, not stored', async () => {
      const stranger = uniqueMobile()
      const before = await unknownCount()
      await send(stranger, 'Who is this?')
      await send(stranger, 'NO 1234')
      assert.equal(await unknownCount(), before + 2)
      assert.equal(await stored('Who is this?') + await stored('NO 1234'), 0)
      // A number given on a profile but never confirmed is nobody's either.
      const unconfirmed = await t.register()
      const number = uniqueMobile()
      assert.equal((await t.patch('/users/me', { phone: number }, unconfirmed.token)).status, 200)
      await send(number, 'Hello from an unconfirmed phone')
      assert.equal(await unknownCount(), before + 3)
      assert.equal(await stored('Hello from an unconfirmed phone'), 0)
      await send(uniqueMobile(), 'HELP')
      assert.deepEqual([...textsTo(smpp, stranger), ...textsTo(smpp, number)], [])
    })

    it('a client who agreed to texts: the text goes to the inbox under the client\'s name, matched in the record\'s national form, and nothing goes back', async () => {
      const e164 = uniqueMobile()
      // 15112345678 is +4915112345678 to a service in Germany (SMS_DEFAULT_COUNTRY).
      const clientId = await clientWithTexts(e164.slice(3))
      await send(e164, 'Bitte rufen Sie mich an')
      const [item] = textsIn(await inboxOf(coordinator), 'Bitte rufen Sie mich an')
      assert.deepEqual([item?.from, item?.request_id, item?.handled_by], ['Erna Schmidt', null, null])
      assert.deepEqual(textsTo(smpp, e164), [])
      // A client without consent to texts is nobody's number.
      const other = uniqueMobile()
      const res = await t.post('/clients', { first_name: 'Otto', last_name: 'Ohne', phone: other, consent: { how: 'phone' } }, coordinator.token)
      assert.equal(res.status, 201)
      await send(other, 'Hallo?')
      assert.equal(await stored('Hallo?'), 0)
      // Erasing the client takes their texts with them.
      assert.equal((await t.delete(`/clients/${clientId}`, coordinator.token)).status, 200)
      assert.equal(await stored('Bitte rufen Sie mich an'), 0)
    })

    it('coordinators see the clients\' texts only, moderators and admins every text; anyone else 403', async () => {
      const person = await t.register({ first_name: 'Paula', last_name: 'Person' })
      await send(await confirmPhone(t, smpp, person), 'A person writes')
      const e164 = uniqueMobile()
      await clientWithTexts(e164, 'Karl', 'Klient')
      await send(e164, 'A client writes')
      for (const [who, account, expected] of [['coordinator', coordinator, ['A client writes']], ['moderator', moderator, ['A client writes', 'A person writes']], ['admin', t.admin, ['A client writes', 'A person writes']]] as const) {
        assert.deepEqual(textsIn(await inboxOf(account), 'A person writes', 'A client writes').map((item) => item.text), expected, who)
      }
      assert.ok((await inboxOf(coordinator)).every((item) => item.from !== 'Paula Person' && item.from !== 'Rosa Texter'))
      for (const account of [person, await t.register(), await t.registerWithRole('manager')]) {
        assert.deepEqual([(await t.get('/sms/inbox', account.token)).body, (await t.post('/sms/inbox/1/handled', undefined, account.token)).status], [{ error: 'coordinator role required' }, 403])
      }
      assert.equal((await t.get('/sms/inbox')).status, 401)
    })

    it('"dealt with": the caller becomes the handler, a second mark keeps the first; unseen or unknown texts are not found', async () => {
      const e164 = uniqueMobile()
      await clientWithTexts(e164, 'Hanna', 'Handled')
      await send(e164, 'Please deal with me')
      const [item] = textsIn(await inboxOf(coordinator), 'Please deal with me')
      const first = await t.post(`/sms/inbox/${item!.id}/handled`, undefined, coordinator.token)
      assert.equal(first.status, 200, first.text)
      assert.deepEqual(first.body, { ...item, handled_by: coordinator.id })
      const again = await t.post(`/sms/inbox/${item!.id}/handled`, undefined, moderator.token)
      assert.deepEqual([again.status, again.body.handled_by], [200, coordinator.id])
      assert.equal(textsIn(await inboxOf(moderator), 'Please deal with me')[0]!.handled_by, coordinator.id)

      // A person's text is no coordinator's to see: not found, and left as it was.
      const [personal] = textsIn(await inboxOf(moderator), 'A person writes')
      assert.deepEqual((await t.post(`/sms/inbox/${personal!.id}/handled`, undefined, coordinator.token)).body, { error: 'text not found' })
      assert.equal(textsIn(await inboxOf(moderator), 'A person writes')[0]!.handled_by, null)
      assert.deepEqual((await t.post('/sms/inbox/999999999/handled', undefined, moderator.token)).body, { error: 'text not found' })
      const bad = await t.post('/sms/inbox/abc/handled', undefined, moderator.token)
      assert.deepEqual([bad.status, bad.body], [400, { error: 'invalid text id' }])
    })

    it('names the request a text was about, when its code named one', async () => {
      const person = await t.register({ first_name: 'Rita', last_name: 'Request' })
      const request = await createRequest(t, person.token)
      // As the answers with codes will, once they are read: straight through the repo that replies.ts calls.
      await t.db.transaction((tx) => addToInbox(tx, { userId: person.id, clientId: null, text: 'OK 9999', requestId: request.id, at: clock.now() }))
      assert.equal(textsIn(await inboxOf(moderator), 'OK 9999')[0]!.request_id, request.id)
    })

    it('pages newest first; a bad limit or offset means its default (20, 0), never a 400', async () => {
      const e164 = uniqueMobile()
      await clientWithTexts(e164, 'Paul', 'Pages')
      for (let n = 1; n <= 22; n += 1) {
        clock.advance(1000)
        await send(e164, `page text ${n}`)
      }
      const all = await inboxOf(moderator)
      assert.ok(all.length >= 22)
      assert.deepEqual(all.slice(0, 3).map((item) => item.text), ['page text 22', 'page text 21', 'page text 20'])
      const ids = async (query: string) => (await inboxOf(moderator, query)).map((item) => item.id)
      const first = all.slice(0, 20).map((item) => item.id)
      assert.deepEqual(await ids(''), first)
      for (const query of ['limit=0', 'limit=101', 'limit=abc', 'limit=-1', 'limit=2.5', 'limit=1&limit=2', 'offset=-1', 'offset=x']) assert.deepEqual(await ids(query), first, query)
      assert.deepEqual(await ids('limit=2&offset=1'), all.slice(1, 3).map((item) => item.id))
      assert.deepEqual(await ids('limit=100&offset=1000'), [])
    })

    it('the export holds a person\'s own texts; erasure deletes them', async () => {
      const person = await t.register({ first_name: 'Ella', last_name: 'Erased' })
      await send(await confirmPhone(t, smpp, person), 'My own text')
      const exported = (await t.get('/users/me/export', person.token)).body.texts
      assert.deepEqual(exported.map(({ text, request_id: request, handled_at: handled }: Record<string, unknown>) => ({ text, request, handled })), [{ text: 'My own text', request: null, handled: null }])
      assert.equal((await t.request('DELETE', '/users/me', { body: { password: person.password }, token: person.token })).status, 200)
      assert.equal(await stored('My own text'), 0)
    })

    it('retention deletes texts older than NOTIFICATION_RETENTION_DAYS with the notifications, and keeps younger ones', async () => {
      const e164 = uniqueMobile()
      await clientWithTexts(e164, 'Rudi', 'Retention')
      await send(e164, 'old text')
      await advance(60 * DAY_MS)
      await send(e164, 'young text')
      await advance(31 * DAY_MS)
      const lines: string[] = []
      const log = { info: (_fields: unknown, message: string) => lines.push(message), error: (_fields: unknown, message: string) => lines.push(message) }
      await new RetentionJob(t.db, { retentionDays: 0, notificationRetentionDays: 90, mapGridMeters: 300 }, log, clock).runOnce()
      assert.deepEqual(textsIn(await inboxOf(moderator), 'old text', 'young text').map((item) => item.text), ['young text'])
      assert.match(lines.join('\n'), /^retention: deleted \d+ old texts of the inbox$/m)
      assert.equal(await stored('page text 1'), 0, 'every text of the days before went too')
    })

    it('no number and no text of an incoming text in the log', () => {
      const log = lines.join('\n')
      assert.ok(lines.length > 0)
      assert.doesNotMatch(log, /\+?49151\d{8}/)
      assert.doesNotMatch(log, /Can someone call|YES 4821|Who is this|Bitte rufen|A person writes|page text|My own text|Wann kommt/)
    })
  })
}
