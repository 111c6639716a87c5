import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import webpush from 'web-push'
import { retryWaitMs } from '../../src/messaging/deliveries/outbox-sender.js'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { assertStatus } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { deliveriesOf, until, type DeliveryRow } from '../helpers/deliveries.js'
import { engines } from '../helpers/engines.js'
import { approvedRequest, REQUEST_INPUT } from '../helpers/lifecycle.js'
import { PushReceiver, type BrowserSubscription } from '../helpers/push-receiver.js'

/**
 * docs/api/messaging.md › Web Push, end to end: a real notification becomes one push delivery per device, which the
 * sending loop hands to the push channel and a real receiver decrypts; a 410 removes the device and
 * drops the delivery; a failing push service is tried again.
 */

const IDENTITY = { ...webpush.generateVAPIDKeys(), subject: 'mailto:operator@example.org' }
const CONTACT = { contact_phone: '+491701234567', contact_notes: 'Ring twice, the key is under the mat' }

for (const engine of engines()) {
  describe(`push deliveries (${engine})`, () => {
    let t: TestApp
    let receiver: PushReceiver
    let mailDir: string
    let moderator: Account
    const clock = new ManualClock()

    before(async () => {
      receiver = await PushReceiver.start(IDENTITY.publicKey)
      mailDir = await mkdtemp(join(tmpdir(), 'push-deliveries-mail-'))
      t = await startApp(engine, { pushEndpointHosts: ['localhost'], mailDir }, { clock, push: IDENTITY, pushAgent: receiver.agent, deliveryTickMs: 25 })
      moderator = await t.registerWithRole('moderator')
    })
    after(async () => {
      await t.close()
      await receiver.close()
      await rm(mailDir, { recursive: true, force: true })
    })

    async function allowAlerts (person: Account): Promise<BrowserSubscription> {
      const browser = receiver.subscribe()
      assertStatus(await t.post('/users/me/push-subscriptions', browser, person.token), 201)
      return browser
    }
    const pushRows = async (person: Account) => (await deliveriesOf(t, person.id)).filter((row) => row.channel === 'push')
    /** The person's push deliveries once none is pending any more (or `pending` of them still are). */
    const settled = (person: Account, what: (rows: DeliveryRow[]) => boolean) =>
      until(async () => { const rows = await pushRows(person); return what(rows) ? rows : undefined }, 10_000, 'the push deliveries')

    it('an approved request reaches each of the requester\'s devices, decrypted by the device, with no contact data', async () => {
      const requester = await t.register()
      const phone = await allowAlerts(requester)
      const laptop = await allowAlerts(requester)
      const created = await t.post('/requests', { ...REQUEST_INPUT, ...CONTACT }, requester.token)
      assertStatus(created, 201)
      const requestId = created.body.id as number
      assertStatus(await t.post(`/moderation/requests/${requestId}/approve`, {}, moderator.token), 200)
      await receiver.waitForRequests(phone.endpoint, 1)
      await receiver.waitForRequests(laptop.endpoint, 1)
      for (const browser of [phone, laptop]) {
        const [message] = receiver.messagesFor(browser.endpoint)
        assert.deepEqual(message?.payload, {
          type: 'request_approved',
          request_id: requestId,
          title: REQUEST_INPUT.title,
          body: 'Your request was approved and volunteers nearby are being told.',
          url: `/requests/${requestId}`,
        })
        const text = JSON.stringify(message?.payload)
        for (const secret of [...Object.values(CONTACT), REQUEST_INPUT.address, requester.email]) assert.ok(!text.includes(secret), secret)
      }
      const rows = await settled(requester, (all) => all.length === 2 && all.every((row) => row.status === 'sent'))
      assert.deepEqual(rows.map((row) => [row.type, row.attempts, row.last_error]), [['request_approved', 1, null], ['request_approved', 1, null]])
      const devices = (await t.get('/users/me/push-subscriptions', requester.token)).body as Array<{ last_success_at: string | null }>
      assert.ok(devices.every((device) => device.last_success_at !== null))
    })

    it('an offer reaches the requester in their language without the volunteer\'s name or message', async () => {
      const requester = await t.register()
      await t.db.query('UPDATE users SET locale = \'de\' WHERE id = $1', [requester.id])
      const requestId = await approvedRequest(t, requester, moderator)
      const phone = await allowAlerts(requester)
      const volunteer = await t.register({ first_name: 'Annegret', last_name: 'Vogelsang' })
      assertStatus(await t.post(`/requests/${requestId}/responses`, { message: 'Call me on 0170 5555' }, volunteer.token), 201)
      await receiver.waitForRequests(phone.endpoint, 1)
      const [message] = receiver.messagesFor(phone.endpoint)
      assert.deepEqual(message?.payload, {
        type: 'response_received', request_id: requestId, title: REQUEST_INPUT.title, body: 'Eine Freiwillige oder ein Freiwilliger hat Hilfe angeboten.', url: `/requests/${requestId}`,
      })
      const text = JSON.stringify(message?.payload)
      for (const secret of ['Annegret', 'Vogelsang', '0170', volunteer.email]) assert.ok(!text.includes(secret), secret)
    })

    it('410: the device is removed at once and its delivery dropped; later notifications skip it', async () => {
      const requester = await t.register()
      const gone = await allowAlerts(requester)
      receiver.answer(gone.endpoint, 410)
      await approvedRequest(t, requester, moderator)
      const [row] = await settled(requester, (all) => all.length === 1 && all[0]!.status !== 'pending')
      assert.equal(row?.status, 'dropped')
      assert.equal(row?.last_error, 'push service answered 410')
      assert.deepEqual((await t.get('/users/me/push-subscriptions', requester.token)).body, [])
      await approvedRequest(t, requester, moderator)
      await until(async () => (await deliveriesOf(t, requester.id)).filter((r) => r.channel === 'email').length === 2 ? true : undefined)
      assert.equal((await pushRows(requester)).length, 1, 'no push row for a removed device')
      assert.equal(receiver.requests.filter((request) => request.path === new URL(gone.endpoint).pathname).length, 1)
    })

    it('a failing push service (500) is tried again later, and the push arrives once it is back', async () => {
      const requester = await t.register()
      const phone = await allowAlerts(requester)
      receiver.answer(phone.endpoint, 500)
      await approvedRequest(t, requester, moderator)
      await receiver.waitForRequests(phone.endpoint, 1)
      const [waiting] = await settled(requester, (all) => all[0]?.last_error !== null && all[0]?.last_error !== undefined)
      assert.equal(waiting?.status, 'pending')
      assert.equal(waiting?.attempts, 1)
      assert.equal(waiting?.last_error, 'push service answered 500')
      receiver.answer(phone.endpoint, 201)
      clock.advance(retryWaitMs(1) + 1000)
      const [sent] = await settled(requester, (all) => all[0]?.status === 'sent')
      assert.equal(sent?.attempts, 2)
      assert.equal(receiver.messagesFor(phone.endpoint).length, 1)
      assert.deepEqual(receiver.requests.filter((request) => request.problem !== undefined), [])
    })
  })
}
