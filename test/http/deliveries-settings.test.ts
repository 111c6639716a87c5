import { DEFAULT_SMS_TYPES } from '../../src/messaging/sms/sms-texts.js'
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { NOTIFICATION_TYPES, type NotificationType } from '../../src/events/notifications.js'
import type { Channel } from '../../src/messaging/deliveries/channel.js'
import { changesOn } from '../../src/areas.js'
import { buildApp } from '../../src/app.js'
import { ConfigError } from '../../src/config.js'
import { startApp, testConfig, TEST_SECRET, type Account, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { deliveriesOf } from '../helpers/deliveries.js'
import { engines } from '../helpers/engines.js'

/** docs/api/messaging.md › Deliveries and e-mail: the settings' shape, defaults and errors, and the outbox rows they lead to. */

// The requester's types, and an invitation to help someone (docs/api.md › Carers).
const DEFAULT_EMAIL = ['request_approved', 'request_rejected', 'response_received', 'response_withdrawn', 'response_accepted', 'request_cancelled', 'request_completed', 'trust_invitation', 'visit_not_started', 'visit_overdue', 'client_says_not_needed']
const DEPLOYMENT_ZONE = 'Europe/Lisbon'
const BASE = new Date('2026-06-10T12:00:00Z')

/**
 * Push is configured by handing the app a push channel (`PushChannel` in `push/push-channel.ts`); these
 * tests look at the outbox rows only, so this one is never asked to send (the sending loop is off).
 */
const unusedPush: Channel = { send: async () => { throw new Error('not sent in these tests') }, close: async () => {} }

for (const engine of engines()) {
  describe(`notification settings (${engine})`, () => {
    let t: TestApp
    const clock = new ManualClock(BASE)

    before(async () => {
      t = await startApp(engine, { timeZone: DEPLOYMENT_ZONE }, { clock, channels: { push: unusedPush } })
    })
    after(() => t.close())

    const put = (account: Account, body: unknown) => t.request('PUT', '/users/me/notification-settings', { body, token: account.token })
    /** Notifies `account` of `type` (about no request) through the dispatcher, as any change does. */
    const notify = (account: Account, type: NotificationType) => changesOn(t.db, clock, { timeZone: DEPLOYMENT_ZONE, push: true }).run(null, async (_tx, change) => {
      change.notify({ userId: account.id, type, requestId: null, data: {} })
    })
    const addSubscription = (account: Account, n: number) => t.db.query(
      'INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, created_at) VALUES ($1, $2, \'k\', \'a\', now())',
      [account.id, `https://fcm.googleapis.com/fcm/send/${account.id}-${n}`])

    it('the service refuses to start with a TIME_ZONE its database does not know (quiet hours are worked out there)', async () => {
      await assert.rejects(buildApp({ config: testConfig({ timeZone: 'Mars/Olympus_Mons' }), db: t.db, jwtSecret: TEST_SECRET, webRoot: false, deliveryTickMs: 0 }),
        (error: Error) => error instanceof ConfigError && error.message === 'TIME_ZONE must be an IANA time zone such as Europe/Berlin or UTC, got "Mars/Olympus_Mons" (the database does not know it)')
    })

    it('GET answers docs/api/messaging.md\'s defaults until the person changes something', async () => {
      const person = await t.register()
      assertError(await t.get('/users/me/notification-settings'), 401, 'unauthorized')
      const res = await t.get('/users/me/notification-settings', person.token)
      assertStatus(res, 200)
      assert.deepEqual(res.body, {
        email: { enabled: true, types: DEFAULT_EMAIL },
        push: { enabled: true, types: [...NOTIFICATION_TYPES] },
        sms: { enabled: false, types: [...DEFAULT_SMS_TYPES] },
        quiet_hours: null,
        time_zone: DEPLOYMENT_ZONE,
      })
    })

    it('PUT changes what it is given and keeps the rest', async () => {
      const person = await t.register()
      let res = await put(person, { email: { types: ['request_alert', 'request_approved', 'request_alert'] } })
      assertStatus(res, 200)
      assert.deepEqual(res.body.email, { enabled: true, types: ['request_alert', 'request_approved'] })
      res = await put(person, { push: { enabled: false }, quiet_hours: { start: '22:00', end: '07:00' }, time_zone: 'Europe/Berlin' })
      assertStatus(res, 200)
      assert.deepEqual(res.body, {
        email: { enabled: true, types: ['request_alert', 'request_approved'] },
        push: { enabled: false, types: [...NOTIFICATION_TYPES] },
        sms: { enabled: false, types: [...DEFAULT_SMS_TYPES] },
        quiet_hours: { start: '22:00', end: '07:00' },
        time_zone: 'Europe/Berlin',
      })
      assert.deepEqual((await t.get('/users/me/notification-settings', person.token)).body, res.body)
      res = await put(person, { quiet_hours: null, time_zone: null })
      assert.equal(res.body.quiet_hours, null)
      assert.equal(res.body.time_zone, DEPLOYMENT_ZONE)
      assert.deepEqual((await put(person, {})).body, res.body)
    })

    it('PUT refuses unknown types, bad times and unknown zones with docs/api/messaging.md\'s texts', async () => {
      const person = await t.register()
      for (const types of [['nope'], ['sign_in_code'], [3], [null], 'request_alert']) {
        assertError(await put(person, { email: { types } }), 400, 'invalid type')
        assertError(await put(person, { push: { types } }), 400, 'invalid type')
        assertError(await put(person, { sms: { types } }), 400, 'invalid type')
      }
      // Texts carry only the types that have a text (docs/api/messaging.md › Texts).
      assertError(await put(person, { sms: { types: ['check_expiring'] } }), 400, 'invalid type')
      assert.deepEqual((await put(person, { sms: { enabled: true, types: ['reminder', 'request_alert'] } })).body.sms, { enabled: true, types: ['request_alert', 'reminder'] })
      for (const quiet of [{ start: '7:00', end: '08:00' }, { start: '24:00', end: '07:00' }, { start: '22:00' }, { start: '22:00', end: '07:60' }, { start: 2200, end: '07:00' }, '22:00-07:00', { start: '22:00:00', end: '07:00' }]) {
        assertError(await put(person, { quiet_hours: quiet }), 400, 'invalid quiet_hours')
      }
      for (const zone of ['Mars/Olympus', '+01:00', 'Europe/Berlin; DROP TABLE users', 5, '']) {
        assertError(await put(person, { time_zone: zone }), 400, 'invalid time_zone')
      }
      assertError(await put(person, { email: { enabled: 'yes' } }), 400, 'email.enabled must be of type boolean')
      // Nothing was saved.
      assert.equal((await t.get('/users/me/notification-settings', person.token)).body.quiet_hours, null)
    })

    it('the defaults: e-mail for the requester\'s types and invitations only, push to every subscription for every type', async () => {
      const person = await t.register()
      await addSubscription(person, 1)
      await addSubscription(person, 2)
      for (const type of NOTIFICATION_TYPES) await notify(person, type)
      const rows = await deliveriesOf(t, person.id)
      assert.deepEqual(rows.filter((r) => r.channel === 'email').map((r) => r.type), DEFAULT_EMAIL)
      assert.deepEqual(rows.filter((r) => r.channel === 'push').map((r) => r.type), NOTIFICATION_TYPES.flatMap((type) => [type, type]))
      assert.ok(rows.every((r) => r.status === 'pending' && r.attempts === 0 && r.due_at.getTime() === clock.now().getTime()))
    })

    it('every preference: channels off, chosen types, no subscription no push', async () => {
      const emailOnly = await t.register()
      assertStatus(await put(emailOnly, { email: { types: ['request_alert'] }, push: { enabled: false, types: ['request_alert'] } }), 200)
      await addSubscription(emailOnly, 1)
      const pushOnly = await t.register()
      assertStatus(await put(pushOnly, { email: { enabled: false }, push: { types: ['response_received'] } }), 200)
      await addSubscription(pushOnly, 1)
      const noDevice = await t.register()
      for (const type of ['request_alert', 'response_received', 'request_approved'] as const) {
        for (const person of [emailOnly, pushOnly, noDevice]) await notify(person, type)
      }
      const kinds = async (person: Account) => (await deliveriesOf(t, person.id)).map((r) => `${r.channel}:${r.type}`)
      assert.deepEqual(await kinds(emailOnly), ['email:request_alert'])
      assert.deepEqual(await kinds(pushOnly), ['push:response_received'])
      assert.deepEqual(await kinds(noDevice), ['email:response_received', 'email:request_approved'])
    })

    it('without push configured no push row is written', async () => {
      const person = await t.register()
      await addSubscription(person, 1)
      await changesOn(t.db, clock, { timeZone: DEPLOYMENT_ZONE, push: false }).run(null, async (_tx, change) => {
        change.notify({ userId: person.id, type: 'request_approved', requestId: null, data: {} })
      })
      assert.deepEqual((await deliveriesOf(t, person.id)).map((r) => r.channel), ['email'])
    })

    it('a delivery inside quiet hours waits for their end in the recipient\'s zone, across daylight-saving changes', async () => {
      const person = await t.register()
      assertStatus(await put(person, { email: { types: ['request_alert'] }, push: { enabled: false }, quiet_hours: { start: '22:00', end: '07:00' }, time_zone: 'Europe/Berlin' }), 200)
      const dueAt = async (at: string): Promise<string> => {
        clock.set(new Date(at))
        await notify(person, 'request_alert')
        // Back to the day the access token was issued on, for the next PUT.
        clock.set(BASE)
        const rows = await deliveriesOf(t, person.id)
        return rows.at(-1)!.due_at.toISOString()
      }
      // 22:30 CET on the night clocks go forward (29 March 2026): 07:00 next morning is CEST, UTC+2.
      assert.equal(await dueAt('2026-03-28T21:30:00Z'), '2026-03-29T05:00:00.000Z')
      // 01:30 CET, the same night, before the change at 02:00.
      assert.equal(await dueAt('2026-03-29T00:30:00Z'), '2026-03-29T05:00:00.000Z')
      // 23:00 CEST on the night clocks go back (25 October 2026): 07:00 next morning is CET, UTC+1.
      assert.equal(await dueAt('2026-10-24T21:00:00Z'), '2026-10-25T06:00:00.000Z')
      // Outside the quiet hours: at once (12:00 CEST).
      assert.equal(await dueAt('2026-06-10T10:00:00Z'), '2026-06-10T10:00:00.000Z')
      // 06:59 CEST: one minute to wait.
      assert.equal(await dueAt('2026-06-10T04:59:00Z'), '2026-06-10T05:00:00.000Z')
      // A window within one day (13:00–15:00), and one that starts and ends at once (no window).
      assertStatus(await put(person, { quiet_hours: { start: '13:00', end: '15:00' } }), 200)
      assert.equal(await dueAt('2026-06-10T11:30:00Z'), '2026-06-10T13:00:00.000Z')
      assert.equal(await dueAt('2026-06-10T13:00:00Z'), '2026-06-10T13:00:00.000Z')
      assertStatus(await put(person, { quiet_hours: { start: '13:00', end: '13:00' } }), 200)
      assert.equal(await dueAt('2026-06-10T11:30:00Z'), '2026-06-10T11:30:00.000Z')
      // Without a zone of their own, the deployment's TIME_ZONE (Lisbon: UTC+1 in summer).
      assertStatus(await put(person, { quiet_hours: { start: '22:00', end: '07:00' }, time_zone: null }), 200)
      assert.equal(await dueAt('2026-06-10T22:00:00Z'), '2026-06-11T06:00:00.000Z')
    })

    it('UserProfile.locale: en by default, en or de, anything else 400 \'invalid locale\'', async () => {
      const person = await t.register()
      assert.equal((await t.get('/users/me', person.token)).body.locale, 'en')
      assertStatus(await t.patch('/users/me', { locale: 'de' }, person.token), 200)
      assert.equal((await t.get('/users/me', person.token)).body.locale, 'de')
      for (const locale of ['fr', 'DE', '', null, 1]) assertError(await t.patch('/users/me', { locale }, person.token), 400, 'invalid locale')
      assert.equal((await t.get('/users/me', person.token)).body.locale, 'de')
    })

    it('GET /users/me/deliveries lists the caller\'s own, newest first, a page at a time', async () => {
      const person = await t.register()
      const other = await t.register()
      for (const type of ['request_approved', 'request_rejected', 'request_cancelled'] as const) await notify(person, type)
      await notify(other, 'request_approved')
      assertError(await t.get('/users/me/deliveries'), 401, 'unauthorized')
      const res = await t.get('/users/me/deliveries', person.token)
      assertStatus(res, 200)
      assert.equal(res.body.length, 3)
      assert.deepEqual(Object.keys(res.body[0]).sort(), ['account_message', 'attempts', 'channel', 'created_at', 'last_error', 'notification_id', 'sent_at', 'status'])
      assert.deepEqual(res.body.map((d: any) => [d.channel, d.status, d.attempts, d.sent_at, d.last_error]), Array(3).fill(['email', 'pending', 0, null, null]))
      const ids = res.body.map((d: any) => d.notification_id)
      assert.deepEqual(ids, [...ids].sort((a: number, b: number) => b - a))
      const page = await t.get('/users/me/deliveries?limit=1&offset=1', person.token)
      assert.deepEqual(page.body.map((d: any) => d.notification_id), [ids[1]])
      assert.equal((await t.get('/users/me/deliveries?limit=x&offset=-1', person.token)).body.length, 3)
    })
  })
}
