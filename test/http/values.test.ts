import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, uniqueEmail, type Account, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'
import { requestInput } from '../helpers/requests.js'

/**
 * One check for each kind of value (src/lib/values.ts, src/lib/email.ts): every operation that takes a time
 * zone, a locale, a phone number or an e-mail address accepts and refuses the same ones, with the same text.
 */

const ZONES_TAKEN = ['Europe/Berlin', 'UTC', 'Etc/UTC', 'US/Eastern', 'Asia/Kolkata', 'America/Argentina/Buenos_Aires', 'Etc/GMT+1']
const ZONES_REFUSED = ['europe/berlin', 'utc', 'EUROPE/BERLIN', 'us/eastern', '+01:00', 'UTC+1', 'Europe/Atlantis', 'Berlin', '', ' Europe/Berlin', 'x'.repeat(65)]
const PHONES_TAKEN = ['+491701234567', '491701234567', '+12', '123456789012345']
const PHONES_REFUSED = ['+49 170 1234567', '0170123', '+0123', '1', '+1234567890123456', '+49-170', '', 'phone']
const EMAILS_REFUSED = ['a@b', 'a b@c.org', 'a..b@c.org', '@example.org', 'a@-b.org', `${'x'.repeat(243)}@example.org`, 'ä@b.org']

const series = (zone: string) => ({
  template: requestInput({ title: 'Lift to the clinic' }), days: ['tue'], start_time: '07:30', duration_minutes: 60, starts_on: '2027-03-16', time_zone: zone,
})

for (const engine of engines()) {
  describe(`one check for each kind of value (${engine})`, () => {
    let t: TestApp
    let user: Account
    let coordinator: Account
    let clientId: number
    before(async () => {
      t = await startApp(engine)
      user = await t.register()
      coordinator = await t.register()
      assertStatus(await t.post(`/admin/users/${coordinator.id}/roles/4`, undefined, t.admin.token), 200)
      const client = await t.post('/clients', { first_name: 'Erna', last_name: 'Schmidt', consent: { how: 'phone' } }, coordinator.token)
      assertStatus(client, 201)
      clientId = client.body.id as number
    })
    after(() => t.close())

    const settings = (zone: string) => t.request('PUT', '/users/me/notification-settings', { body: { time_zone: zone }, token: user.token })

    it('time zones: a series and the notification settings take the same names, as the database spells them, and store them as sent', async () => {
      for (const zone of ZONES_TAKEN) {
        const created = await t.post('/request-series', series(zone), user.token)
        assertStatus(created, 201)
        assert.equal(created.body.time_zone, zone)
        const saved = await settings(zone)
        assertStatus(saved, 200)
        assert.equal(saved.body.time_zone, zone)
      }
      for (const zone of ZONES_REFUSED) {
        assertError(await t.post('/request-series', series(zone), user.token), 400, 'invalid time_zone')
        assertError(await settings(zone), 400, 'invalid time_zone')
      }
    })

    it('locales: en and de only, in that spelling', async () => {
      for (const locale of ['en', 'de']) assertStatus(await t.patch('/users/me', { locale }, user.token), 200)
      for (const locale of ['DE', 'de-DE', 'fr', '', 'en ']) assertError(await t.patch('/users/me', { locale }, user.token), 400, 'invalid locale')
    })

    it('phone numbers: registering, a profile and a client take the same ones', async () => {
      for (const phone of PHONES_TAKEN) {
        assertStatus(await t.post('/auth/register', { email: uniqueEmail(), password: 'long enough 1', first_name: 'A', last_name: 'B', phone }), 201)
        assertStatus(await t.patch('/users/me', { phone }, user.token), 200)
        assertStatus(await t.patch(`/clients/${clientId}`, { phone }, coordinator.token), 200)
      }
      for (const phone of PHONES_REFUSED) {
        assertError(await t.post('/auth/register', { email: uniqueEmail(), password: 'long enough 1', first_name: 'A', last_name: 'B', phone }), 400, 'invalid phone')
        assertError(await t.patch('/users/me', { phone }, user.token), 400, 'invalid phone')
        assertError(await t.patch(`/clients/${clientId}`, { phone }, coordinator.token), 400, 'invalid phone')
      }
    })

    it('e-mail addresses: registering, signing in, asking for a code and inviting a carer refuse the same ones', async () => {
      const taken = [`${'x'.repeat(242)}@example.org`, ` ${uniqueEmail()} `, uniqueEmail().toUpperCase()]
      for (const email of taken) {
        assertStatus(await t.post('/auth/register', { email, password: 'long enough 1', first_name: 'A', last_name: 'B' }), 201)
        assertStatus(await t.post('/users/me/trusted-people', { email, can: ['follow'] }, user.token), 201)
      }
      for (const email of EMAILS_REFUSED) {
        assertError(await t.post('/auth/register', { email, password: 'long enough 1', first_name: 'A', last_name: 'B' }), 400, 'invalid email')
        assertError(await t.post('/auth/login', { email, password: 'long enough 1' }), 400, 'invalid email')
        assertError(await t.post('/auth/code', { email }), 400, 'invalid email')
        assertError(await t.post('/users/me/trusted-people', { email, can: ['follow'] }, user.token), 400, 'invalid email')
      }
    })
  })
}
