import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { changesOn } from '../../src/areas.js'
import { loadConfig } from '../../src/config.js'
import { whenText } from '../../src/lib/when.js'
import { ScheduleJobs } from '../../src/regular-help/schedule/schedule-jobs.js'
import { startApp, TEST_SECRET, type Account, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { clientRequest, clientTextRows, newClient, newCoordinator, type ClientRecord } from '../helpers/clients.js'
import { ManualClock } from '../helpers/clock.js'
import { until } from '../helpers/deliveries.js'
import { engines } from '../helpers/engines.js'
import { startSmppServer, type SmppTestServer } from '../helpers/smpp-server.js'
import { textsTo, uniqueMobile } from '../helpers/texts.js'

/**
 * docs/api/on-behalf.md › Texts to a client, through HTTP and a real SMPP server: the consent a coordinator records and
 * withdraws, and the six texts a client with it gets, in their language and TIME_ZONE, once however many are told.
 */

const HOUR_MS = 3_600_000
const ZONE = 'Europe/Berlin'
const SETTINGS = loadConfig({ JWT_SECRET: TEST_SECRET }).schedule
const TITLE = 'Lift to the doctor'

for (const engine of engines()) {
  describe(`texts to coordinators' clients (${engine})`, () => {
    const clock = new ManualClock()
    let t: TestApp
    let smpp: SmppTestServer
    let jobs: ScheduleJobs
    let moderator: Account
    let coordinator: Account
    let volunteer: Account
    const lines: string[] = []

    before(async () => {
      clock.set(new Date())
      smpp = await startSmppServer()
      t = await startApp(engine, { smsSmppUrl: smpp.url, smsFrom: '+4915199999999', timeZone: ZONE, logLevel: 'info' },
        // No alert rounds: one holding a request's row would make the schedule job skip it (SKIP LOCKED) until a next run that never comes.
        { clock, deliveryTickMs: 25, alertTickMs: 0, logStream: { write: (line) => { lines.push(line) } } })
      jobs = new ScheduleJobs(changesOn(t.db, clock, { timeZone: ZONE, sms: true }), SETTINGS, clock)
      moderator = await t.registerWithRole('moderator')
      coordinator = await newCoordinator(t)
      volunteer = await t.register({ first_name: 'Vera' })
    })
    after(async () => {
      await t.close()
      await smpp.close()
    })

    /** Tokens live 15 minutes of the moved clock: each step signs in again at its time. */
    async function signIn (...accounts: Account[]): Promise<void> {
      for (const account of accounts) {
        const login = await t.post('/auth/login', { email: account.email, password: account.password })
        assertStatus(login, 200)
        account.token = login.body.access_token
      }
    }

    it('records the consent to texts with who and when, sets their language, withdraws it; bad values are 400 and change nothing', async () => {
      await signIn(coordinator, moderator)
      const client = await newClient(t, coordinator, { phone: uniqueMobile() })
      assert.deepEqual([client.texts, client.locale], [null, 'en'], 'no texts until a coordinator records the consent')
      const second = await newCoordinator(t)
      const recorded = await t.patch(`/clients/${client.id}`, { texts: { how: 'phone' } }, coordinator.token)
      assertStatus(recorded, 200)
      assert.deepEqual(recorded.body.texts, { how: 'phone', recorded_by: coordinator.id, recorded_at: clock.now().toISOString() })
      clock.advance(60_000)
      const again = await t.patch(`/clients/${client.id}`, { texts: { how: 'written' }, locale: 'de' }, second.token)
      assertStatus(again, 200)
      assert.deepEqual([again.body.texts, again.body.locale], [{ how: 'written', recorded_by: second.id, recorded_at: clock.now().toISOString() }, 'de'])
      assert.deepEqual(again.body.consent.recorded_by, coordinator.id, 'the consent to be recorded is another, and stays')
      const other = await t.patch(`/clients/${client.id}`, { needs: 'a walker' }, coordinator.token)
      assert.deepEqual([other.body.texts.how, other.body.locale], ['written', 'de'], 'a PATCH without them leaves them')
      for (const [body, text] of [
        [{ texts: { how: 'fax' } }, 'invalid texts'], [{ texts: {} }, 'invalid texts'], [{ texts: 'phone' }, 'invalid texts'],
        [{ texts: { how: 'phone' }, locale: 'fr' }, 'invalid locale'], [{ locale: null }, 'invalid locale'],
      ] as const) assertError(await t.patch(`/clients/${client.id}`, body, coordinator.token), 400, text)
      assertError(await t.patch(`/clients/${client.id}`, { texts: null }, moderator.token), 403, 'coordinator role required')
      const read = await t.get(`/clients/${client.id}`, moderator.token)
      assert.deepEqual([read.body.texts.how, read.body.locale], ['written', 'de'])
      const withdrawn = await t.patch(`/clients/${client.id}`, { texts: null }, coordinator.token)
      assertStatus(withdrawn, 200)
      assert.deepEqual([withdrawn.body.texts, withdrawn.body.updated_at], [null, clock.now().toISOString()])
      const listed = await t.get(`/clients?q=${client.first_name}`, coordinator.token)
      assert.deepEqual(listed.body.map((c: ClientRecord) => [c.id, c.texts, c.locale]), [[client.id, null, 'de']])
    })

    it('a client who agreed is texted each of the six in their language, naming the day and time in TIME_ZONE; one who did not, nothing', async () => {
      clock.set(new Date())
      await signIn(coordinator, moderator, volunteer)
      const english = await newClient(t, coordinator, { phone: uniqueMobile() })
      const german = await newClient(t, coordinator, { phone: uniqueMobile() })
      const without = await newClient(t, coordinator, { phone: uniqueMobile() })
      assertStatus(await t.patch(`/clients/${english.id}`, { texts: { how: 'in_person' } }, coordinator.token), 200)
      assertStatus(await t.patch(`/clients/${german.id}`, { texts: { how: 'phone' }, locale: 'de' }, coordinator.token), 200)
      // A second coordinator acts on every request, so two coordinators are told of each: still one text.
      const second = await newCoordinator(t)
      const start = new Date(clock.now().getTime() + 30 * HOUR_MS)
      const window = { window_start: start.toISOString(), window_end: new Date(start.getTime() + HOUR_MS).toISOString() }
      const scenes = new Map<number, { a: number, b: number, c: number, d: number }>()
      for (const client of [english, german, without]) {
        const a = await clientRequest(t, coordinator, moderator, client.id, { ...window, title: TITLE })
        const b = await clientRequest(t, coordinator, moderator, client.id, { ...window, title: TITLE })
        const c = await clientRequest(t, coordinator, moderator, client.id, { title: TITLE })
        for (const id of [a, b]) {
          const offer = await t.post(`/requests/${id}/responses`, {}, volunteer.token)
          assertStatus(offer, 201)
          assertStatus(await t.post(`/requests/${id}/responses/${offer.body.id}/accept`, undefined, second.token), 200)
        }
        assertStatus(await t.post(`/requests/${a}/confirm`, undefined, volunteer.token), 200)
        // d expires with the volunteer's offer open: she is told request_cancelled, the client nothing.
        const d = await clientRequest(t, coordinator, moderator, client.id, { ...window, title: TITLE })
        assertStatus(await t.post(`/requests/${d}/responses`, {}, volunteer.token), 201)
        scenes.set(client.id, { a, b, c, d })
      }
      // The volunteer is asked to confirm b, the deadline passes unconfirmed, and a moderator cancels it; two hours before a,
      // the reminder; then c goes stale and d expires.
      clock.advance(6 * HOUR_MS + 60_000)
      await jobs.runOnce()
      clock.advance(12 * HOUR_MS)
      await jobs.runOnce()
      await signIn(moderator, coordinator, second)
      for (const client of [english, german, without]) assertStatus(await t.post(`/requests/${scenes.get(client.id)!.b}/cancel`, {}, moderator.token), 200)
      clock.advance(10 * HOUR_MS)
      await jobs.runOnce()
      clock.advance(15 * 24 * HOUR_MS)
      await jobs.runOnce()

      const when = (locale: 'en' | 'de') => whenText(start.toISOString(), locale, ZONE)!
      const expected = {
        en: [
          `Vera will help you with "${TITLE}" on ${when('en')}.`,
          `Vera will help you with "${TITLE}" on ${when('en')}.`,
          `Your volunteer confirmed they will help with "${TITLE}" on ${when('en')}.`,
          `Your volunteer did not confirm "${TITLE}" on ${when('en')}; we are looking for someone else.`,
          `Your request "${TITLE}" on ${when('en')} was cancelled.`,
          `Reminder: your volunteer will help you with "${TITLE}" on ${when('en')}.`,
          `Is "${TITLE}" still needed? Please let us know.`,
        ],
        de: [
          `Vera hilft Ihnen bei "${TITLE}" am ${when('de')}.`,
          `Vera hilft Ihnen bei "${TITLE}" am ${when('de')}.`,
          `Ihre Hilfe bei "${TITLE}" am ${when('de')} ist bestätigt.`,
          `Ihre Hilfe hat "${TITLE}" am ${when('de')} nicht bestätigt; wir suchen jemand anderen.`,
          `Ihre Anfrage "${TITLE}" am ${when('de')} wurde abgesagt.`,
          `Erinnerung: Sie bekommen Hilfe bei "${TITLE}" am ${when('de')}.`,
          `Wird "${TITLE}" noch gebraucht? Bitte sagen Sie uns Bescheid.`,
        ],
      }
      for (const [client, locale] of [[english, 'en'], [german, 'de']] as const) {
        const texts = await until(async () => { const sent = textsTo(smpp, client.phone!); return sent.length >= 7 ? sent : undefined }, 10_000, `${locale} texts`)
        // Each about a request still open ends with the code of a NO (docs/api/messaging.md › Texts › Replies with a code); the cancellation none.
        const ending = locale === 'en' ? / Reply NO \d{4} if it is no longer needed\.$/ : / Antworten Sie NEIN \d{4}, wenn es nicht mehr gebraucht wird\.$/
        assert.deepEqual(texts.map((text) => text.text.replace(ending, '')).sort(), [...expected[locale]].sort())
        // (b's come as it is cancelled, so whether they still carry one depends on when each leaves; a stays open throughout.)
        const [cancelled, reminder] = [expected[locale][4]!, expected[locale][5]!]
        assert.ok(texts.some((text) => text.text === cancelled), 'the cancellation carries no code')
        assert.ok(texts.some((text) => text.text.startsWith(reminder.slice(0, -1)) && ending.test(text.text)), 'the reminder carries one')
        assert.ok(texts.every((text) => text.segments <= 2 && text.dataCoding === 0x00))
        const rows = await until(async () => { const all = await clientTextRows(t, client.id); return all.every((row) => row.status === 'sent') ? all : undefined })
        const { a, b, c, d } = scenes.get(client.id)!
        const [expired] = await t.db.query<{ cancel_reason: string, told: number }>(`SELECT r.cancel_reason,
          (SELECT count(*)::int FROM notifications n WHERE n.request_id = r.id AND n.type = 'request_cancelled') AS told FROM requests r WHERE r.id = $1`, [d])
        assert.deepEqual(expired, { cancel_reason: 'expired', told: 1 })
        assert.deepEqual(rows.map((row) => [row.type, Number(row.request_id)]).sort(), [
          ['response_accepted', a], ['response_accepted', b], ['volunteer_confirmed', a], ['confirmation_missed', b],
          ['request_cancelled', b], ['reminder', a], ['still_needed', c],
        ].sort(), 'one text per type and request, whoever else was told')
        // Each belongs to the creating coordinator's notification, but for the acceptance, which tells only the volunteer.
        assert.deepEqual(rows.map((row) => [row.type, Number(row.user_id)]).sort(), rows.map((row) => [row.type, row.type === 'response_accepted' ? volunteer.id : coordinator.id]).sort())
        assert.equal(await smpp.sendReceipt(texts[0]!.messageId, 'DELIVRD'), 0)
      }
      assert.deepEqual(textsTo(smpp, without.phone!), [], 'no consent, no texts')
      // The coordinators' list says which client got a text about what, and how it went.
      await signIn(coordinator)
      const listed = (await t.get<Array<{ id: number, client_texts: Array<{ type: string, status: string, at: string }> }>>('/requests/coordinated?limit=100', coordinator.token)).body
      const textsOf = (id: number) => listed.find((item) => item.id === id)!.client_texts
      const { a: englishA } = scenes.get(english.id)!
      assert.deepEqual(textsOf(englishA).map((text) => text.type), ['response_accepted', 'volunteer_confirmed', 'reminder'])
      assert.ok(textsOf(englishA).every((text) => ['sent', 'delivered'].includes(text.status) && !Number.isNaN(Date.parse(text.at)) && text.at.endsWith('Z')))
      assert.deepEqual(textsOf(scenes.get(without.id)!.a), [])
      assert.deepEqual(await clientTextRows(t, without.id), [])
      await until(async () => (await clientTextRows(t, english.id)).some((row) => row.status === 'delivered') ? true : undefined, 10_000, 'the receipt')

      // The coordinators' own deliveries are those of a client without consent: e-mail by their settings, no texts.
      const own = async (clientId: number) => (await t.db.query<{ type: string, channel: string, user_id: number }>(`
        SELECT n.type, d.channel, d.user_id FROM deliveries d JOIN notifications n ON n.id = d.notification_id JOIN requests r ON r.id = n.request_id
        WHERE r.client_id = $1 AND d.client_id IS NULL ORDER BY 1, 2, 3`, [clientId])).map((row) => [row.type, row.channel, Number(row.user_id)])
      assert.deepEqual(await own(english.id), await own(without.id))
      assert.ok((await own(english.id)).some(([type, channel, user]) => type === 'request_cancelled' && channel === 'email' && user === second.id))
      for (const account of [coordinator, volunteer]) {
        await signIn(account)
        const listed = await t.get('/users/me/deliveries?limit=100', account.token)
        assert.ok(listed.body.every((d: { channel: string }) => d.channel !== 'sms'), 'a client\'s text is not in the list of whose notification it belongs to')
        const exported = await t.get('/users/me/export', account.token)
        assert.ok(exported.body.deliveries.every((d: { channel: string }) => d.channel !== 'sms'), 'nor in their export')
      }
      const log = lines.join('\n')
      for (const text of smpp.submitted) {
        assert.ok(!log.includes(text.to), 'no number in the log')
        assert.ok(!log.includes(text.text.slice(0, 24)), 'no text in the log')
      }
    })
  })
}
