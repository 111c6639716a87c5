import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { changesOn } from '../../src/areas.js'
import { loadConfig } from '../../src/config.js'
import { ScheduleJobs } from '../../src/regular-help/schedule/schedule-jobs.js'
import { AlertService } from '../../src/help/alerts/alerts.service.js'
import { newPlace, TEST_ALERTS, volunteerAt, type Place } from '../helpers/alerts.js'
import { startApp, startSecondInstance, TEST_SECRET, type Account, type TestApp } from '../helpers/app.js'
import { assertStatus } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { until } from '../helpers/deliveries.js'
import { engines } from '../helpers/engines.js'
import { requestInput } from '../helpers/requests.js'
import { clientRequest, newClient, newCoordinator } from '../helpers/clients.js'
import { startSmppServer, type SmppTestServer } from '../helpers/smpp-server.js'
import { confirmPhone, nextTextTo, textsOn, textsTo, uniqueMobile } from '../helpers/texts.js'

/**
 * docs/api/messaging.md › Texts › Replies: YES, OK and NO with the code of the text they answer, through a real SMPP
 * server over a socket, acting through the API's own rules, once, with the history saying it came by text.
 */

const HOUR_MS = 3_600_000

for (const engine of engines()) {
  describe(`replies with a code (${engine})`, () => {
    const clock = new ManualClock()
    let t: TestApp
    let smpp: SmppTestServer
    let rounds: AlertService
    let jobs: ScheduleJobs
    const lines: string[] = []

    before(async () => {
      smpp = await startSmppServer()
      t = await startApp(engine, { smsSmppUrl: smpp.url, smsFrom: '+4915199999999', alerts: TEST_ALERTS, timeZone: 'Europe/Berlin', logLevel: 'info' },
        { clock, alertTickMs: 0, deliveryTickMs: 25, logStream: { write: (line) => { lines.push(line) } } })
      // The rounds and the schedule's jobs run by the test, on the app's clock, writing texts as the app's own do.
      const changes = changesOn(t.db, clock, { timeZone: 'Europe/Berlin', sms: true })
      rounds = new AlertService(changes, TEST_ALERTS, clock, 'fair')
      jobs = new ScheduleJobs(changes, loadConfig({ JWT_SECRET: TEST_SECRET }).schedule, clock)
    })
    after(async () => {
      await t.close()
      await smpp.close()
    })

    /** Access tokens live 15 minutes of the moved clock: each call signs in again at its time. */
    async function token (account: Account): Promise<string> {
      const login = await t.post('/auth/login', { email: account.email, password: account.password })
      assertStatus(login, 200)
      return login.body.access_token
    }

    /** A volunteer on duty 500 m from `place` whose confirmed phone gets `types` by text. */
    async function textedVolunteer (place: Place, types: string[], locale?: 'de'): Promise<{ account: Account, e164: string }> {
      const account = await volunteerAt(t, place, 500)
      if (locale !== undefined) assertStatus(await t.patch('/users/me', { locale }, account.token), 200)
      const e164 = await confirmPhone(t, smpp, account)
      await textsOn(t, account, types)
      return { account, e164 }
    }

    async function approved (requester: Account, place: Place, fields: Record<string, unknown> = {}): Promise<number> {
      const created = await t.post('/requests', requestInput({ ...place, title: 'Lift to the eye doctor', ...fields }), await token(requester))
      assertStatus(created, 201)
      assertStatus(await t.post(`/moderation/requests/${created.body.id}/approve`, {}, await token(t.admin)), 200)
      return created.body.id
    }

    /** The text after the first `skip` to the number, and the code it asks to reply with. */
    async function codedText (e164: string, skip: number): Promise<{ text: string, code: string }> {
      const { text } = await nextTextTo(smpp, e164, skip)
      const code = /\b(?:YES|JA|OK|NO|NEIN) (\d{4})\b/.exec(text)?.[1]
      assert.ok(code !== undefined, `a code in: ${text}`)
      return { text, code }
    }

    /** A volunteer with texts on for alerts, a request 500 m away, its first round, and the alert's text (after `before` texts). */
    async function alertedVolunteer () {
      const place = newPlace()
      const { account: volunteer, e164 } = await textedVolunteer(place, ['request_alert'])
      const requester = await t.register()
      const id = await approved(requester, place)
      const before = textsTo(smpp, e164).length
      await rounds.runDue(1000)
      return { volunteer, e164, requester, id, before, alert: await codedText(e164, before) }
    }

    const responsesOf = async (requester: Account, id: number) =>
      (await t.get<Array<{ volunteer_id: number, status: string }>>(`/requests/${id}/responses`, await token(requester))).body
    const historyOf = async (requester: Account, id: number) =>
      (await t.get<Array<{ action: string, actor: { id: number } | null, details: Record<string, unknown> }>>(`/requests/${id}/history`, await token(requester))).body
    /** Lets the sending loop run long enough to have sent anything due. */
    const settle = async () => { await new Promise((resolve) => setTimeout(resolve, 300)) }

    it('YES with the alert\'s code makes the offer once, says so, and the history says it came by text', async () => {
      clock.set(new Date())
      const { volunteer, e164, requester, id, before, alert } = await alertedVolunteer()
      assert.match(alert.text, /^Help needed nearby \(0\.5 km away\): "Lift to the eye doctor"\. Can you help\? Reply YES \d{4} to offer help\.$/)

      // A forged reply: the right code from another number changes nothing.
      await smpp.sendIncoming({ from: uniqueMobile(), text: `YES ${alert.code}` })
      // A wrong code neither: it is a text not understood (one sorry a day, and the texts inbox).
      const wrong = `YES ${alert.code === '0000' ? '0001' : '0000'}`
      await smpp.sendIncoming({ from: e164, text: wrong })
      assert.equal((await nextTextTo(smpp, e164, before + 1)).text, 'Sorry, we did not understand. Reply HELP for help.')
      const inbox = await t.get<Array<{ text: string }>>('/sms/inbox', await token(t.admin))
      assert.ok(inbox.body.some((item) => item.text === wrong))
      await smpp.sendIncoming({ from: e164, text: `yes ${alert.code}!` })
      const answer = await nextTextTo(smpp, e164, before + 2)
      assert.equal(answer.text, 'Thank you! Your offer to help with "Lift to the eye doctor" is sent. We will text you when it is accepted.')
      // The same text handed over again, and the code used again: one offer.
      await smpp.sendIncoming({ from: e164, text: `yes ${alert.code}!` })
      await smpp.sendIncoming({ from: e164, text: `YES ${alert.code}` })
      await settle()
      assert.deepEqual((await responsesOf(requester, id)).map((r) => [r.volunteer_id, r.status]), [[volunteer.id, 'pending']])
      // The used code's reply is in the texts inbox, naming the request it was about; the wrong one names none.
      const items = (await t.get<Array<{ text: string, request_id: number | null }>>('/sms/inbox', await token(t.admin))).body
      assert.deepEqual(items.filter((item) => item.text === `YES ${alert.code}` || item.text === wrong).map((item) => [item.text, item.request_id]), [[`YES ${alert.code}`, id], [wrong, null]])
      const made = (await historyOf(requester, id)).filter((entry) => entry.action === 'offer_made')
      assert.deepEqual(made.map((entry) => [entry.actor?.id, entry.details.via]), [[volunteer.id, 'sms']])
      const answers = (await t.get<Array<{ account_message: string | null, status: string }>>('/users/me/deliveries', await token(volunteer))).body
        .filter((d) => d.account_message === 'sms_answer')
      assert.deepEqual(answers.map((d) => d.status), ['sent'], 'one answer')
    })

    it('JA in German; someone else already helping is said in the answer, and nothing changes', async () => {
      clock.set(new Date())
      const place = newPlace()
      const [first, second] = [await textedVolunteer(place, ['request_alert']), await textedVolunteer(place, ['request_alert'], 'de')]
      const requester = await t.register()
      const id = await approved(requester, place, { title: 'Fahrt zur Dialyse' })
      const alerted = textsTo(smpp, second.e164).length
      await rounds.runDue(1000)
      const german = await codedText(second.e164, alerted)
      assert.match(german.text, /^Hilfe in der Nähe gesucht \(0,5 km entfernt\): "Fahrt zur Dialyse"\. Können Sie helfen\? Antworten Sie JA \d{4}, um Hilfe anzubieten\.$/)
      const offer = await t.post(`/requests/${id}/responses`, {}, await token(first.account))
      assertStatus(offer, 201)
      assertStatus(await t.post(`/requests/${id}/responses/${offer.body.id}/accept`, undefined, await token(requester)), 200)
      const before = textsTo(smpp, second.e164).length
      await smpp.sendIncoming({ from: second.e164, text: `Ja ${german.code}` })
      assert.equal((await nextTextTo(smpp, second.e164, before)).text, '"Fahrt zur Dialyse" ist nicht mehr offen: Jemand hilft schon, oder die Anfrage ist beendet.')
      assert.deepEqual((await responsesOf(requester, id)).map((r) => r.volunteer_id), [first.account.id])
    })

    it('after five wrong codes in a day no code from the number acts, the right one included, until the next day', async () => {
      clock.set(new Date('2026-12-03T09:00:00Z'))
      const { e164, requester, id, before, alert } = await alertedVolunteer()
      const wrong = (n: number) => String((Number(alert.code) + 1 + n) % 10_000).padStart(4, '0')
      for (let n = 0; n < 5; n++) await smpp.sendIncoming({ from: e164, text: `YES ${wrong(n)}` })
      await smpp.sendIncoming({ from: e164, text: `YES ${alert.code}` })
      await nextTextTo(smpp, e164, before + 1)
      await settle()
      assert.deepEqual(await responsesOf(requester, id), [], 'the sixth try, right as it is, acts on nothing')
      clock.advance(24 * HOUR_MS)
      await smpp.sendIncoming({ from: e164, text: `Yes ${alert.code}` })
      await until(async () => (await responsesOf(requester, id)).length === 1 ? true : undefined, 10_000, 'the offer the next day')
    })

    it('a code older than 48 hours acts on nothing', async () => {
      clock.set(new Date())
      const place = newPlace()
      const { e164 } = await textedVolunteer(place, ['request_alert'])
      const requester = await t.register()
      const id = await approved(requester, place, { urgency: 'low' })
      const alerted = textsTo(smpp, e164).length
      await rounds.runDue(1000)
      const alert = await codedText(e164, alerted)
      clock.advance(48 * HOUR_MS + 60_000)
      const before = textsTo(smpp, e164).length
      await smpp.sendIncoming({ from: e164, text: `YES ${alert.code}` })
      assert.equal((await nextTextTo(smpp, e164, before)).text, 'Sorry, we did not understand. Reply HELP for help.')
      assert.deepEqual(await responsesOf(requester, id), [])
    })

    it('OK confirms the visit the text asked about; NO cancels the requester\'s own request', async () => {
      clock.set(new Date())
      const place = newPlace()
      const { account: volunteer, e164 } = await textedVolunteer(place, ['confirm_needed'])
      const requester = await t.register()
      const requesterPhone = await confirmPhone(t, smpp, requester)
      await textsOn(t, requester, ['volunteer_confirmed'])
      const start = new Date(clock.now().getTime() + 30 * HOUR_MS)
      const id = await approved(requester, place, { window_start: start.toISOString(), window_end: new Date(start.getTime() + HOUR_MS).toISOString() })
      const offer = await t.post(`/requests/${id}/responses`, {}, await token(volunteer))
      assertStatus(await t.post(`/requests/${id}/responses/${offer.body.id}/accept`, undefined, await token(requester)), 200)
      clock.advance(7 * HOUR_MS)
      const asked = textsTo(smpp, e164).length
      await jobs.runOnce()
      const ask = await codedText(e164, asked)
      assert.match(ask.text, /^Please confirm you will help with "Lift to the eye doctor" on .+\. Reply OK \d{4} to confirm\.$/)
      const other = (code: string) => String((Number(code) + 1) % 10_000).padStart(4, '0')
      // A wrong code confirms nothing.
      await smpp.sendIncoming({ from: e164, text: `OK ${other(ask.code)}` })
      await nextTextTo(smpp, e164, asked + 1)
      assert.equal((await t.get(`/requests/${id}`, await token(requester))).body.confirmed_at, null)
      await smpp.sendIncoming({ from: e164, text: `OK ${ask.code}` })
      await until(async () => (await t.get(`/requests/${id}`, await token(requester))).body.confirmed_at !== null ? true : undefined, 10_000, 'confirmed')
      // Used, it is a text not understood, naming the request in the inbox: confirmed once.
      await smpp.sendIncoming({ from: e164, text: `OK ${ask.code}.` })
      const usedInInbox = async () => (await t.get<Array<{ text: string, request_id: number | null }>>('/sms/inbox', await token(t.admin))).body
        .some((item) => item.text === `OK ${ask.code}.` && item.request_id === id)
      await until(async () => await usedInInbox() ? true : undefined, 10_000, 'the used OK in the inbox')
      assert.deepEqual((await historyOf(requester, id)).filter((e) => e.action === 'confirmed').map((e) => [e.actor?.id, e.details.via]), [[volunteer.id, 'sms']])

      // The requester is told by text that her volunteer confirmed, with a code to say it is no longer needed.
      const told = await codedText(requesterPhone, 1)
      assert.match(told.text, /^Your volunteer confirmed "Lift to the eye doctor" for .+\. Reply NO \d{4} if it is no longer needed\.$/)
      // A wrong NO code, and YES with the NO code, are no answer to it: not understood (one sorry that day).
      await smpp.sendIncoming({ from: requesterPhone, text: `NO ${other(told.code)}` })
      await smpp.sendIncoming({ from: requesterPhone, text: `YES ${told.code}` })
      assert.equal((await nextTextTo(smpp, requesterPhone, 2)).text, 'Sorry, we did not understand. Reply HELP for help.')
      assert.equal((await t.get(`/requests/${id}`, await token(requester))).body.status, 'in_progress')
      await smpp.sendIncoming({ from: requesterPhone, text: `NO ${told.code}` })
      await until(async () => (await t.get(`/requests/${id}`, await token(requester))).body.status === 'cancelled' ? true : undefined, 10_000, 'cancelled')
      const cancelled = (await historyOf(requester, id)).filter((e) => e.action === 'cancelled')
      assert.deepEqual(cancelled.map((e) => [e.actor?.id, e.details]), [[requester.id, { reason: 'requester', via: 'sms' }]])
      assert.equal((await nextTextTo(smpp, requesterPhone, 3)).text, '"Lift to the eye doctor" is cancelled. Thank you for letting us know.')
      // Used: nothing more, and no second answer.
      await smpp.sendIncoming({ from: requesterPhone, text: `NO ${told.code}` })
      await settle()
      assert.equal(textsTo(smpp, requesterPhone).length, 4)
      assert.equal((await historyOf(requester, id)).filter((e) => e.action === 'cancelled').length, 1)
    })

    it('a client\'s NO tells each coordinator of the request to check with the client, and cancels nothing', async () => {
      clock.set(new Date())
      const [coordinator, second, volunteer] = [await newCoordinator(t), await newCoordinator(t), await t.register({ first_name: 'Vera' })]
      for (const account of [coordinator, second, volunteer]) account.token = await token(account)
      const client = await newClient(t, coordinator, { phone: uniqueMobile() })
      assertStatus(await t.patch(`/clients/${client.id}`, { texts: { how: 'phone' } }, coordinator.token), 200)
      const id = await clientRequest(t, coordinator, t.admin, client.id, { title: 'Shopping for Erna' })
      const offer = await t.post(`/requests/${id}/responses`, {}, volunteer.token)
      assertStatus(await t.post(`/requests/${id}/responses/${offer.body.id}/accept`, undefined, second.token), 200)
      const accepted = await codedText(client.phone!, 0)
      assert.match(accepted.text, /^Vera will help you with "Shopping for Erna"\. Reply NO \d{4} if it is no longer needed\.$/)
      // From another number the code is nothing; from the client's, it is heard once.
      await smpp.sendIncoming({ from: uniqueMobile(), text: `NO ${accepted.code}` })
      await smpp.sendIncoming({ from: client.phone!, text: `no ${accepted.code}` })
      const told = async (account: Account) => (await t.get<Array<{ type: string, request_id: number }>>('/notifications?limit=100', await token(account))).body
        .filter((n) => n.type === 'client_says_not_needed' && n.request_id === id)
      await until(async () => (await told(second)).length === 1 ? true : undefined, 10_000, 'the coordinators told')
      assert.equal((await told(coordinator)).length, 1)
      assert.equal((await t.get(`/requests/${id}`, await token(coordinator))).body.status, 'in_progress', 'nothing cancelled')
      // Again: the code is used, so it is a text not understood, in the inbox for the client, naming the request.
      await smpp.sendIncoming({ from: client.phone!, text: `NO ${accepted.code}` })
      const inInbox = async () => (await t.get<Array<{ text: string, request_id: number | null }>>('/sms/inbox', await token(coordinator))).body
        .some((item) => item.text === `NO ${accepted.code}` && item.request_id === id)
      await until(async () => await inInbox() ? true : undefined, 10_000, 'in the inbox')
      assert.equal((await told(coordinator)).length, 1, 'told once')
      assert.equal(textsTo(smpp, client.phone!).length, 1, 'a client gets no answer')
    })

    it('the same YES handed to two instances at once makes one offer and one answer', { skip: engine !== 'postgres' && 'two instances need PostgreSQL' }, async () => {
      clock.set(new Date())
      const second = await startSecondInstance(t, { smsSmppUrl: smpp.url, smsFrom: '+4915199999999', alerts: TEST_ALERTS, timeZone: 'Europe/Berlin' }, { clock, alertTickMs: 0, deliveryTickMs: 25 })
      try {
        // Its background work, the gateway's bind among it, starts once it is ready.
        await second.app.ready()
        await until(async () => smpp.boundSessions() === 2 ? true : undefined, 10_000, 'both instances bound')
        const { volunteer, e164, requester, id, before, alert } = await alertedVolunteer()
        assert.deepEqual(await smpp.sendIncomingToEvery({ from: e164, text: `YES ${alert.code}` }), [0, 0], 'both instances took it')
        await nextTextTo(smpp, e164, before + 1)
        await settle()
        assert.deepEqual((await responsesOf(requester, id)).map((r) => r.volunteer_id), [volunteer.id])
        assert.equal(textsTo(smpp, e164).length, before + 2, 'one answer')
      } finally {
        await second.close()
      }
    })

    it('no code, number or text of a reply in the log', () => {
      const log = lines.join('\n')
      assert.ok(lines.length > 0)
      assert.doesNotMatch(log, /\+?49151\d{8}/)
      assert.doesNotMatch(log, /\b(YES|JA|OK|NO) \d{4}\b/i)
    })
  })
}
