import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { CONSENT_WITHDRAWN } from '../../src/messaging/deliveries/client-texts.repo.js'
import { DAILY_LIMIT, NOT_MOBILE, STOPPED } from '../../src/messaging/sms/sms-channel.js'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { assertStatus } from '../helpers/assert.js'
import { clientRequest, clientTextRows, newClient, newCoordinator, type ClientRecord, type ClientTextRow } from '../helpers/clients.js'
import { ManualClock } from '../helpers/clock.js'
import { until } from '../helpers/deliveries.js'
import { engines } from '../helpers/engines.js'
import { startSmppServer, type SmppTestServer } from '../helpers/smpp-server.js'
import { nextTextTo, textsTo, uniqueMobile } from '../helpers/texts.js'

/**
 * docs/api/on-behalf.md › Texts to a client: the sms channel's rules for a client's number (STOP, the daily limit, a
 * mobile number), consent standing in for a confirmed phone; a withdrawn consent drops a text not yet sent, an
 * erasure takes it with it; whoever cancels, the client is told.
 */

const ZONE = 'Europe/Berlin'
const THROTTLED = 0x58

for (const engine of engines()) {
  describe(`the channel's rules for a client's texts (${engine})`, () => {
    const clock = new ManualClock()
    let t: TestApp
    let smpp: SmppTestServer
    let moderator: Account
    let coordinator: Account
    let volunteer: Account

    before(async () => {
      smpp = await startSmppServer()
      t = await startApp(engine, { smsSmppUrl: smpp.url, smsFrom: '+4915199999999', timeZone: ZONE }, { clock, deliveryTickMs: 25 })
      moderator = await t.registerWithRole('moderator')
      coordinator = await newCoordinator(t)
      volunteer = await t.register({ first_name: 'Vera' })
      // The volunteer's quiet hours are now: her own e-mails wait, a client's text on her notification does not, nor its retry.
      const local = (ms: number) => new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(clock.now().getTime() + ms))
      const quiet = await t.request('PUT', '/users/me/notification-settings', { body: { quiet_hours: { start: local(-3_600_000), end: local(3_600_000) } }, token: volunteer.token })
      assertStatus(quiet, 200)
    })
    after(async () => {
      await t.close()
      await smpp.close()
    })

    /** A client with `fields` who agreed to texts. */
    async function agreed (fields: Record<string, unknown>): Promise<ClientRecord> {
      const client = await newClient(t, coordinator, fields)
      assertStatus(await t.patch(`/clients/${client.id}`, { texts: { how: 'phone' } }, coordinator.token), 200)
      return client
    }

    /** The client's request accepted for the volunteer: one response_accepted text. */
    async function accepted (client: ClientRecord): Promise<number> {
      const id = await clientRequest(t, coordinator, moderator, client.id, { title: 'Shopping' })
      const offer = await t.post(`/requests/${id}/responses`, {}, volunteer.token)
      assertStatus(offer, 201)
      assertStatus(await t.post(`/requests/${id}/responses/${offer.body.id}/accept`, undefined, coordinator.token), 200)
      return id
    }

    const settled = async (client: ClientRecord, check: (row: ClientTextRow) => boolean, what: string): Promise<ClientTextRow> =>
      await until(async () => (await clientTextRows(t, client.id)).find(check), 10_000, what)

    it('consent stands in for a confirmed phone: STOP, the daily limit and a number that is not mobile drop the text', async () => {
      const stopped = await agreed({ phone: uniqueMobile() })
      assert.deepEqual(await smpp.sendIncoming({ from: stopped.phone!, text: 'STOP' }), [0])
      await until(async () => (await t.db.query('SELECT 1 FROM sms_numbers WHERE e164 = $1 AND stopped_at IS NOT NULL', [stopped.phone])).length > 0 ? true : undefined)
      await accepted(stopped)
      assert.equal((await settled(stopped, (row) => row.status === 'dropped', 'dropped')).last_error, STOPPED)

      const busy = await agreed({ phone: uniqueMobile() })
      const day = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(clock.now())
      await t.db.query('INSERT INTO sms_budget (day, number, texts) VALUES ($1, $2, 10)', [day, busy.phone])
      await accepted(busy)
      assert.equal((await settled(busy, (row) => row.status === 'dropped', 'dropped')).last_error, DAILY_LIMIT)

      const landline = await agreed({ phone: '+493012345678' })
      await accepted(landline)
      assert.equal((await settled(landline, (row) => row.status === 'dropped', 'dropped')).last_error, NOT_MOBILE)

      // Without a phone nothing is written.
      const noPhone = await agreed({})
      await accepted(noPhone)
      assert.deepEqual(await clientTextRows(t, noPhone.id), [])
      for (const client of [stopped, busy, landline]) assert.deepEqual(textsTo(smpp, client.phone!), [])
    })

    it('a consent withdrawn before the text went drops it with that reason; an erasure takes it with it', async () => {
      const client = await agreed({ phone: uniqueMobile() })
      const erased = await agreed({ phone: uniqueMobile() })
      smpp.submitStatus = THROTTLED
      try {
        await accepted(client)
        // The moderator cancels an approved request with an offer open: the client's text waits for its retry too.
        const open = await clientRequest(t, coordinator, moderator, erased.id, { title: 'Shopping' })
        assertStatus(await t.post(`/requests/${open}/responses`, {}, volunteer.token), 201)
        assertStatus(await t.post(`/requests/${open}/cancel`, {}, moderator.token), 200)
        for (const who of [client, erased]) await settled(who, (row) => row.status === 'pending' && row.attempts === 1 && row.last_error !== null, 'a retry')
      } finally {
        smpp.submitStatus = 0
      }
      assertStatus(await t.patch(`/clients/${client.id}`, { texts: null }, coordinator.token), 200)
      assertStatus(await t.delete(`/clients/${erased.id}`, coordinator.token), 200)
      assert.deepEqual(await clientTextRows(t, erased.id), [], 'the erased client\'s texts are gone')
      clock.advance(61_000)
      const dropped = await settled(client, (row) => row.status === 'dropped', 'dropped')
      assert.deepEqual([dropped.type, dropped.last_error], ['response_accepted', CONSENT_WITHDRAWN])
      await new Promise((resolve) => setTimeout(resolve, 200))
      assert.deepEqual(textsTo(smpp, client.phone!), [])
      assert.deepEqual(textsTo(smpp, erased.phone!), [])
    })

    it('whoever cancels: the creating coordinator too, while someone else is told (a volunteer who offered), whose quiet hours are not the client\'s', async () => {
      for (const account of [coordinator, moderator, volunteer]) account.token = (await t.post('/auth/login', { email: account.email, password: account.password })).body.access_token
      const client = await agreed({ phone: uniqueMobile() })
      const id = await clientRequest(t, coordinator, moderator, client.id, { title: 'Shopping' })
      assertStatus(await t.post(`/requests/${id}/responses`, {}, volunteer.token), 201)
      assertStatus(await t.post(`/requests/${id}/cancel`, {}, coordinator.token), 200)
      assert.equal((await nextTextTo(smpp, client.phone!)).text, 'Your request "Shopping" was cancelled.')
      const [row] = await clientTextRows(t, client.id)
      assert.deepEqual([row?.type, Number(row?.user_id)], ['request_cancelled', volunteer.id], 'it belongs to the volunteer\'s notification')
      const [own] = await t.db.query<{ due_at: Date }>(`SELECT d.due_at FROM deliveries d JOIN notifications n ON n.id = d.notification_id
        WHERE n.id = $1 AND d.client_id IS NULL AND d.channel = 'email'`, [row!.notification_id])
      assert.ok(own !== undefined && own.due_at.getTime() > clock.now().getTime(), 'her e-mail waits for the end of her quiet hours')
    })
  })
}
