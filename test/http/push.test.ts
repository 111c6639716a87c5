import assert from 'node:assert/strict'
import { createECDH, randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import webpush from 'web-push'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { engines } from '../helpers/engines.js'

/** docs/api/messaging.md › Web Push: the public key and a person's devices, through HTTP on both engines. */

const keys = webpush.generateVAPIDKeys()
const IDENTITY = { ...keys, subject: 'mailto:operator@example.org' }
const HOSTS = ['localhost', '*.push.example.net']

/** A subscription as a browser makes it: its own P-256 point and 16-byte secret. */
function browserSubscription (endpoint = `https://localhost:8443/push/${randomBytes(12).toString('base64url')}`) {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  return { endpoint, expirationTime: null, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') } }
}

for (const engine of engines()) {
  describe(`push subscriptions (${engine})`, () => {
    let t: TestApp
    let off: TestApp
    const clock = new ManualClock()

    before(async () => {
      t = await startApp(engine, { pushEndpointHosts: HOSTS }, { clock, push: IDENTITY })
      off = await startApp(engine, { pushEndpointHosts: HOSTS })
    })
    after(async () => {
      await off.close()
      await t.close()
    })

    const subscribe = async (account: Account, body: unknown) => {
      clock.advance(1000)
      return await t.post('/users/me/push-subscriptions', body, account.token)
    }
    const list = async (account: Account) => {
      const res = await t.get('/users/me/push-subscriptions', account.token)
      assertStatus(res, 200)
      return res.body as Array<{ id: number, created_at: string, last_success_at: string | null, endpoint_host: string }>
    }
    const rows = (endpoint: string) => t.db.query<{ user_id: number, p256dh: string }>('SELECT user_id, p256dh FROM push_subscriptions WHERE endpoint = $1', [endpoint])

    it('GET /push/public-key: the VAPID public key with no sign-in; 404 when push is off', async () => {
      const res = await t.get('/push/public-key')
      assertStatus(res, 200)
      assert.deepEqual(res.body, { public_key: IDENTITY.publicKey })
      assertError(await off.get('/push/public-key'), 404, 'push is not configured')
    })

    it('POST: 201 {id, created_at}; listed by host, never the endpoint', async () => {
      const person = await t.register()
      const subscription = browserSubscription()
      const res = await subscribe(person, subscription)
      assertStatus(res, 201)
      assert.deepEqual(Object.keys(res.body).sort(), ['created_at', 'id'])
      assert.equal(res.body.created_at, clock.now().toISOString())
      const listed = await list(person)
      assert.deepEqual(listed, [{ id: res.body.id, created_at: res.body.created_at, last_success_at: null, endpoint_host: 'localhost' }])
      const listText = (await t.get('/users/me/push-subscriptions', person.token)).text
      assert.ok(!listText.includes(new URL(subscription.endpoint).pathname), 'the endpoint\'s path is never shown')
      assert.ok(!listText.includes(subscription.keys.auth))
      // Someone else sees none of it.
      assert.deepEqual(await list(await t.register()), [])
    })

    it('POST refuses what the spec refuses, with its texts', async () => {
      const person = await t.register()
      const good = browserSubscription()
      assertError(await t.post('/users/me/push-subscriptions', good), 401, 'unauthorized')
      for (const endpoint of [
        'http://localhost/push/x', 'https://evil.example.org/push/x', 'https://localhost.evil.example.org/x', 'https://push.example.net/x',
        'https://user:pw@localhost/x', 'not a url', '', 'https://127.0.0.1/push/x', `https://localhost/${'x'.repeat(2100)}`,
      ]) {
        assertError(await subscribe(person, { ...good, endpoint }), 400, 'push endpoint not allowed')
      }
      for (const body of [{ keys: good.keys }, { ...good, endpoint: 42 }]) {
        assertError(await subscribe(person, body), 400, 'push endpoint not allowed')
      }
      const shortPoint = Buffer.from(good.keys.p256dh, 'base64url').subarray(0, 64).toString('base64url')
      const compressed = createECDH('prime256v1')
      compressed.generateKeys()
      const offCurve = Buffer.alloc(65, 1)
      offCurve[0] = 4
      for (const bad of [
        { p256dh: shortPoint, auth: good.keys.auth },
        { p256dh: compressed.getPublicKey(null, 'compressed').toString('base64url'), auth: good.keys.auth },
        { p256dh: offCurve.toString('base64url'), auth: good.keys.auth },
        { p256dh: good.keys.p256dh.replace(/^./, '+'), auth: good.keys.auth },
        { p256dh: good.keys.p256dh, auth: randomBytes(15).toString('base64url') },
        { p256dh: good.keys.p256dh, auth: randomBytes(17).toString('base64url') },
        { p256dh: good.keys.p256dh, auth: 'not base64!' },
        { p256dh: good.keys.p256dh },
        { auth: good.keys.auth },
        { p256dh: 65, auth: good.keys.auth },
      ]) {
        assertError(await subscribe(person, { endpoint: good.endpoint, keys: bad }), 400, 'invalid push keys')
      }
      assertError(await subscribe(person, { endpoint: good.endpoint }), 400, 'invalid push keys')
      assertError(await subscribe(person, { endpoint: good.endpoint, keys: 'x' }), 400, 'invalid push keys')
      assertError(await subscribe(person, [good]), 400, 'invalid request body')
      assertError(await t.request('POST', '/users/me/push-subscriptions', { token: person.token, payload: '{', headers: { 'content-type': 'application/json' } }), 400, 'invalid request body')
      assert.deepEqual(await list(person), [])
      // A wildcard host takes any subdomain and any port; padded base64url (some clients add it) is accepted.
      const padded = { p256dh: good.keys.p256dh + '=', auth: good.keys.auth + '==' }
      assertStatus(await subscribe(person, { endpoint: 'https://eu.push.example.net:4443/p/1', keys: padded }), 201)
      assert.deepEqual((await list(person)).map((s) => s.endpoint_host), ['eu.push.example.net'])
      assert.equal((await t.db.query<{ auth: string }>('SELECT auth FROM push_subscriptions WHERE endpoint = $1', ['https://eu.push.example.net:4443/p/1']))[0]?.auth, good.keys.auth)
    })

    it('POST with push off: 404 push is not configured; GET and DELETE still answer', async () => {
      const person = await off.register()
      assertError(await off.post('/users/me/push-subscriptions', browserSubscription(), person.token), 404, 'push is not configured')
      assertStatus(await off.get('/users/me/push-subscriptions', person.token), 200)
      assertError(await off.delete('/users/me/push-subscriptions/1', person.token), 404, 'subscription not found')
    })

    it('the same endpoint again replaces its row, whoever sent it (201 each time, one row)', async () => {
      const first = await t.register()
      const second = await t.register()
      const subscription = browserSubscription()
      const a = await subscribe(first, subscription)
      assertStatus(a, 201)
      const renewed = { ...subscription, keys: browserSubscription().keys }
      const b = await subscribe(first, renewed)
      assertStatus(b, 201)
      assert.deepEqual((await rows(subscription.endpoint)).map((row) => row.p256dh), [renewed.keys.p256dh])
      assert.deepEqual((await list(first)).map((s) => s.id), [b.body.id])
      // The device now belongs to whoever signed in on it last.
      const c = await subscribe(second, subscription)
      assertStatus(c, 201)
      assert.deepEqual((await rows(subscription.endpoint)).map((row) => row.user_id), [second.id])
      assert.deepEqual(await list(first), [])
      assert.deepEqual((await list(second)).map((s) => s.id), [c.body.id])
    })

    it('at most 10 per person: the oldest is dropped', async () => {
      const person = await t.register()
      const ids: number[] = []
      for (let i = 0; i < 12; i++) {
        const res = await subscribe(person, browserSubscription())
        assertStatus(res, 201)
        ids.push(res.body.id)
      }
      assert.deepEqual((await list(person)).map((s) => s.id), ids.slice(2).reverse())
    })

    it('several subscribes of one person at once still keep at most 10', async () => {
      const person = await t.register()
      for (let i = 0; i < 9; i++) assertStatus(await subscribe(person, browserSubscription()), 201)
      const results = await Promise.all(Array.from({ length: 4 }, () => t.post('/users/me/push-subscriptions', browserSubscription(), person.token)))
      for (const res of results) assertStatus(res, 201)
      assert.equal((await list(person)).length, 10)
    })

    it('the data export lists the devices as the list does, never the endpoint or keys', async () => {
      const person = await t.register()
      const subscription = browserSubscription()
      assertStatus(await subscribe(person, subscription), 201)
      const exported = await t.get('/users/me/export', person.token)
      assertStatus(exported, 200)
      assert.deepEqual(exported.body.push_subscriptions, await list(person))
      for (const secret of [new URL(subscription.endpoint).pathname, subscription.keys.p256dh, subscription.keys.auth]) assert.ok(!exported.text.includes(secret))
    })

    it('erasing the account forgets its devices', async () => {
      const person = await t.register()
      const subscription = browserSubscription()
      assertStatus(await subscribe(person, subscription), 201)
      assertStatus(await t.request('DELETE', '/users/me', { token: person.token, body: { password: person.password } }), 200)
      assert.deepEqual(await rows(subscription.endpoint), [])
    })

    it('DELETE: 204 for one\'s own; someone else\'s or a missing one → 404; a bad id → 400', async () => {
      const owner = await t.register()
      const other = await t.register()
      const created = await subscribe(owner, browserSubscription())
      assertError(await t.delete(`/users/me/push-subscriptions/${created.body.id}`), 401, 'unauthorized')
      assertError(await t.delete(`/users/me/push-subscriptions/${created.body.id}`, other.token), 404, 'subscription not found')
      assert.equal((await list(owner)).length, 1)
      const res = await t.delete(`/users/me/push-subscriptions/${created.body.id}`, owner.token)
      assertStatus(res, 204)
      assert.equal(res.text, '')
      assert.deepEqual(await list(owner), [])
      assertError(await t.delete(`/users/me/push-subscriptions/${created.body.id}`, owner.token), 404, 'subscription not found')
      for (const id of ['abc', '0', '0x10', '99999999999999999999']) {
        assertError(await t.delete(`/users/me/push-subscriptions/${id}`, owner.token), 400, 'invalid subscription id')
      }
    })
  })
}
