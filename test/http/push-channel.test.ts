import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import webpush from 'web-push'
import type { OutgoingDelivery } from '../../src/messaging/deliveries/channel.js'
import { PushChannel } from '../../src/messaging/push/push-channel.js'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { engines } from '../helpers/engines.js'
import { PushReceiver, type BrowserSubscription } from '../helpers/push-receiver.js'

/**
 * docs/api/messaging.md › Web Push, through a real push receiver: each payload decrypted with the subscription's own
 * keys (RFC 8291) and its VAPID signature checked (RFC 8292); 410 removes the subscription, 500 is tried
 * again; a disallowed endpoint is refused and never contacted.
 */

const IDENTITY = { ...webpush.generateVAPIDKeys(), subject: 'mailto:operator@example.org' }
const CONTACT = { contact_phone: '+491701234567', contact_notes: 'Ring twice, key under the mat', address: 'Hauptstraße 5' }

for (const engine of engines()) {
  describe(`push channel (${engine})`, () => {
    let t: TestApp
    let receiver: PushReceiver
    let channel: PushChannel
    const clock = new ManualClock()

    before(async () => {
      receiver = await PushReceiver.start(IDENTITY.publicKey)
      t = await startApp(engine, { pushEndpointHosts: ['localhost'] }, { clock, push: IDENTITY })
      channel = new PushChannel({ db: t.db, identity: IDENTITY, endpointHosts: ['localhost'], clock, agent: receiver.agent, timeoutMs: 2000 })
    })
    after(async () => {
      await channel.close()
      await t.close()
      await receiver.close()
    })

    /** A person with one device subscribed through the API; the row as the sending loop would read it. */
    async function device (): Promise<{ person: Account, browser: BrowserSubscription, subscription: NonNullable<OutgoingDelivery['subscription']> }> {
      const person = await t.register()
      const browser = receiver.subscribe()
      const res = await t.post('/users/me/push-subscriptions', browser, person.token)
      assertStatus(res, 201)
      const [row] = await t.db.query<{ id: number, endpoint: string, p256dh: string, auth: string }>('SELECT id, endpoint, p256dh, auth FROM push_subscriptions WHERE id = $1', [res.body.id])
      return { person, browser, subscription: row! }
    }
    const delivery = (userId: number, subscription: OutgoingDelivery['subscription'], over: Partial<OutgoingDelivery> = {}): OutgoingDelivery => ({
      id: 1,
      userId,
      locale: 'en',
      timeZone: 'UTC',
      notification: { id: 1, type: 'response_received', requestId: 42, requestTitle: 'Groceries for Mrs Weber', data: { response_id: 7, volunteer_name: 'Anna B.', message: 'On my way', ...CONTACT } },
      account: null,
      invitation: null,
      email: 'someone@example.org',
      subscription,
      attempt: 1,
      ...over,
    })
    const listed = async (person: Account) => (await t.get('/users/me/push-subscriptions', person.token)).body as Array<{ id: number, last_success_at: string | null }>

    it('sends the payload of docs/api/messaging.md, encrypted for the device and signed by the service; last_success_at is set', async () => {
      const { person, browser, subscription } = await device()
      clock.advance(60_000)
      assert.deepEqual(await channel.send(delivery(person.id, subscription)), { outcome: 'sent' })
      const [message] = receiver.messagesFor(browser.endpoint)
      assert.ok(message !== undefined)
      assert.deepEqual(message.payload, {
        type: 'response_received', request_id: 42, title: 'Groceries for Mrs Weber', body: 'A volunteer offered to help.', url: '/requests/42',
      })
      assert.equal(message.subject, IDENTITY.subject)
      assert.ok(message.ttl > 0)
      assert.equal(message.urgency, 'normal')
      // No contact data, address or e-mail, whatever the notification's data held.
      const text = JSON.stringify(message.payload)
      for (const secret of [...Object.values(CONTACT), 'someone@example.org', 'On my way', 'Anna']) assert.ok(!text.includes(secret), secret)
      assert.deepEqual((await listed(person)).map((s) => s.last_success_at), [clock.now().toISOString()])
    })

    it('in the recipient\'s language; alerts are urgent; a notification about no request opens the inbox', async () => {
      const { person, browser, subscription } = await device()
      const alert = { id: 2, type: 'request_alert' as const, requestId: 9, requestTitle: 'Einkauf', data: { title: 'Einkauf', distance_meters: 1200 } }
      assert.deepEqual(await channel.send(delivery(person.id, subscription, { locale: 'de', notification: alert })), { outcome: 'sent' })
      const concern = { id: 3, type: 'concern_resolved' as const, requestId: null, requestTitle: null, data: { concern_id: 1, outcome: 'no_action' } }
      assert.deepEqual(await channel.send(delivery(person.id, subscription, { locale: 'de', notification: concern })), { outcome: 'sent' })
      const [first, second] = receiver.messagesFor(browser.endpoint)
      assert.deepEqual(first?.payload, { type: 'request_alert', request_id: 9, title: 'Einkauf', body: 'Jemand in der Nähe braucht Hilfe (1,2 km entfernt). Können Sie helfen?', url: '/requests/9' })
      assert.equal(first?.urgency, 'high')
      assert.deepEqual(second?.payload, { type: 'concern_resolved', request_id: null, title: 'Nachbarschaftshilfe', body: 'Ihre Meldung wurde bearbeitet.', url: '/notifications' })
    })

    it('410 from the push service removes the subscription at once: gone', async () => {
      const { person, browser, subscription } = await device()
      receiver.answer(browser.endpoint, 410)
      assert.deepEqual(await channel.send(delivery(person.id, subscription)), { outcome: 'gone', reason: 'push service answered 410' })
      assert.deepEqual(await listed(person), [])
      assertError(await t.delete(`/users/me/push-subscriptions/${subscription.id}`, person.token), 404, 'subscription not found')
    })

    it('404 removes it too; 500 is tried again later and keeps it, the reason without the endpoint', async () => {
      const { person, browser, subscription } = await device()
      receiver.answer(browser.endpoint, 500)
      const failed = await channel.send(delivery(person.id, subscription))
      assert.deepEqual(failed, { outcome: 'retry', reason: 'push service answered 500' })
      assert.equal((await listed(person)).length, 1)
      receiver.answer(browser.endpoint, 201)
      assert.deepEqual(await channel.send(delivery(person.id, subscription)), { outcome: 'sent' })
      receiver.answer(browser.endpoint, 404)
      assert.deepEqual(await channel.send(delivery(person.id, subscription)), { outcome: 'gone', reason: 'push service answered 404' })
      assert.deepEqual(await listed(person), [])
    })

    it('an unreachable push service: retry, naming no address', async () => {
      const { person, subscription } = await device()
      const closed = { ...subscription, endpoint: 'https://localhost:1/push/abc' }
      const outcome = await channel.send(delivery(person.id, closed))
      assert.equal(outcome.outcome, 'retry')
      assert.match((outcome as { reason: string }).reason, /^push service unreachable( \([A-Z_]+\))?$/)
    })

    it('a disallowed endpoint is refused at subscribe and never contacted at send', async () => {
      const person = await t.register()
      const browser = receiver.subscribe()
      const elsewhere = { ...browser, endpoint: browser.endpoint.replace('https://localhost:', 'https://127.0.0.1:') }
      assertError(await t.post('/users/me/push-subscriptions', elsewhere, person.token), 400, 'push endpoint not allowed')
      // A row made under a wider PUSH_ENDPOINT_HOSTS than today's is not contacted either.
      const { subscription, browser: allowedOnce } = await device()
      const narrower = new PushChannel({ db: t.db, identity: IDENTITY, endpointHosts: ['fcm.googleapis.com'], clock, agent: receiver.agent })
      assert.deepEqual(await narrower.send(delivery(person.id, subscription)), { outcome: 'gone', reason: 'push endpoint not allowed' })
      assert.deepEqual(await channel.send(delivery(person.id, { ...subscription, endpoint: elsewhere.endpoint })), { outcome: 'gone', reason: 'push endpoint not allowed' })
      const paths = [browser.endpoint, allowedOnce.endpoint].map((endpoint) => new URL(endpoint).pathname)
      assert.deepEqual(receiver.requests.filter((request) => paths.includes(request.path)), [])
    })

    it('a delivery whose subscription was removed is gone without contacting anything', async () => {
      const before = receiver.requests.length
      assert.deepEqual(await channel.send(delivery(1, null)), { outcome: 'gone', reason: 'no push subscription' })
      assert.equal(receiver.requests.length, before)
    })

    it('the receiver really checks: a push signed by another key is refused (and so tried again)', async () => {
      const { person, browser, subscription } = await device()
      const impostor = new PushChannel({ db: t.db, identity: { ...webpush.generateVAPIDKeys(), subject: 'mailto:x@example.org' }, endpointHosts: ['localhost'], clock, agent: receiver.agent })
      assert.deepEqual(await impostor.send(delivery(person.id, subscription)), { outcome: 'retry', reason: 'push service answered 400' })
      const path = new URL(browser.endpoint).pathname
      assert.deepEqual(receiver.requests.filter((request) => request.path === path), [{ path, status: 400, problem: 'vapid key is not the service\'s' }])
      assert.deepEqual(receiver.messagesFor(browser.endpoint), [])
    })

    it('every other push the receiver saw passed its checks', () => {
      assert.deepEqual(receiver.requests.filter((request) => request.problem !== undefined && request.problem !== 'vapid key is not the service\'s'), [])
    })
  })
}
