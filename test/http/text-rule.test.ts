import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'
import { requestInput } from '../helpers/requests.js'

/**
 * What the database cannot store as sent is refused at the edge with 400 `invalid <field>`, the same for
 * every route and part (docs/api.md › Everywhere), and dates outside 1900-2100 as their field's malformed date.
 */

/** Texts that are easy to get wrong on the way in or out; each must come back as it was sent, on every engine. */
export const TRICKY = [
  '\ufeffErna', 'Erna\ufeff', '\u200bZero width', 'Cafe\u0301 combining', 'Ｆｕｌｌ width', '𝔘𝔫𝔦 🧑‍🦽 pair', '\u202eRTL override',
  'line\r\nbreak\n', '\ttab  and  spaces ', 'sep\u2028\u2029', 'back\\slash \'quote" %s $1', '\ufffe\uffff nonchar', '\u0001\u001f\u007f controls',
  '\u00a0no-break\u00a0', 'İstanbul ß ǅ',
]

const series = (title: string) => ({
  template: requestInput({ title }), days: ['tue'], start_time: '07:30', duration_minutes: 60, starts_on: '2027-03-16',
})

for (const engine of engines()) {
  describe(`texts the database cannot store, and dates out of range (${engine})`, () => {
    let t: TestApp
    let user: Account
    let coordinator: Account
    before(async () => {
      t = await startApp(engine)
      user = await t.register()
      coordinator = await t.register()
      assertStatus(await t.post(`/admin/users/${coordinator.id}/roles/4`, undefined, t.admin.token), 200)
    })
    after(() => t.close())

    it('a NUL in a query is 400 naming the parameter, not the database\'s 500 (GET /clients?q=%00)', async () => {
      assertError(await t.get('/clients?q=%00', coordinator.token), 400, 'invalid q')
      assertError(await t.get('/clients?q=Erna%00Schmidt', coordinator.token), 400, 'invalid q')
      assertError(await t.get('/admin/users?q=%00', t.admin.token), 400, 'invalid q')
      assertStatus(await t.get('/clients?q=Erna', coordinator.token), 200)
    })

    it('a lone surrogate in a nested field is 400 naming it, not a 500 (POST /request-series)', async () => {
      assertError(await t.post('/request-series', series('bad \ud800 half'), user.token), 400, 'invalid template.title')
      assertError(await t.post('/request-series', series('bad \udfff half'), user.token), 400, 'invalid template.title')
      assertStatus(await t.post('/request-series', series('good 𝔘 pair'), user.token), 201)
    })

    it('a lone surrogate is never stored as U+FFFD: 400 for every text field, and nothing changes', async () => {
      for (const field of ['first_name', 'last_name', 'bio', 'address', 'city']) {
        assertError(await t.patch('/users/me', { [field]: 'half \udbff here' }, user.token), 400, `invalid ${field}`)
      }
      for (const field of ['title', 'description', 'address', 'city', 'contact_notes']) {
        assertError(await t.post('/requests', requestInput({ [field]: 'half \ud800 here' }), user.token), 400, `invalid ${field}`)
      }
      assertError(await t.post('/clients', { first_name: 'Erna', last_name: 'S\ud800', consent: { how: 'phone' } }, coordinator.token), 400, 'invalid last_name')
      assertError(await t.post('/clients', { first_name: 'Erna', last_name: 'S', consent: { how: 'phone\u0000' } }, coordinator.token), 400, 'invalid consent')
      const me = await t.get('/users/me', user.token)
      assert.equal(me.body.first_name, 'Test')
      assert.ok(!JSON.stringify(me.body).includes('\ufffd'))
    })

    it('the rule comes before every other check: a NUL beside a missing field still names the NUL\'s field', async () => {
      assertError(await t.post('/requests', { title: 'x\u0000' }, user.token), 400, 'invalid title')
      assertError(await t.post('/auth/login', { email: 'a\u0000@b.org', password: 'whatever' }), 400, 'invalid email')
      assertError(await t.request('PUT', '/users/me/notification-settings', { body: { email: { types: ['request_alert', 'x\u0000'] } }, token: user.token }), 400, 'invalid type')
    })

    it('a NUL in a path segment is 400 too, with the route\'s own text where it has one; undeclared and fallback query parameters stay ignored', async () => {
      assertError(await t.get('/users/1%00', user.token), 400, 'invalid user id')
      // A parameter the route does not take is ignored, as is one whose bad values mean its default (interface: limit, offset).
      assertStatus(await t.get('/clients?q%00=x', coordinator.token), 200)
      assertStatus(await t.get('/clients?limit=%00&offset=1%00', coordinator.token), 200)
      assertStatus(await t.get('/notifications?limit=%00&before=%00&unread_only=%00', user.token), 200)
    })

    it('dates outside 1900-2100 are refused as their field\'s malformed date (GET /reports/summary?to=0000-01-01 was a 500)', async () => {
      assertError(await t.get('/reports/summary?to=0000-01-01', t.admin.token), 400, 'invalid to')
      assertError(await t.get('/reports/summary?from=1899-12-31&to=1900-06-30', t.admin.token), 400, 'invalid from')
      assertError(await t.get('/reports/summary?to=2101-01-01', t.admin.token), 400, 'invalid to')
      assertError(await t.get('/reports/requests.csv?from=0001-01-01&to=0001-12-31', t.admin.token), 400, 'invalid from')
      assertStatus(await t.get('/reports/summary?from=1900-01-01&to=1900-12-31', t.admin.token), 200)
      assertStatus(await t.get('/reports/summary?from=2100-01-01&to=2100-12-31', t.admin.token), 200)
      assertError(await t.post('/request-series', { ...series('A series far off'), starts_on: '2101-01-05' }, user.token), 400, 'invalid starts_on')
      assertError(await t.post('/request-series', { ...series('A series far off'), ends_on: '0000-01-01' }, user.token), 400, 'invalid ends_on')
      assertError(await t.post('/requests', requestInput({ desired_completion_date: '2101-01-01T00:00:00Z' }), user.token), 400, 'desired_completion_date must be a valid date-time')
      assertError(await t.post('/requests', requestInput({ window_start: '0000-01-01T00:00:00Z', window_end: '0000-01-01T01:00:00Z' }), user.token), 400, 'window_start must be a valid date-time')
    })

    it('stores and gives back every tricky text exactly as sent: profiles, requests, clients (a leading U+FEFF included)', async () => {
      for (const text of TRICKY) {
        const profile = { first_name: text, last_name: text, bio: text, address: text, city: text }
        assertStatus(await t.patch('/users/me', profile, user.token), 200)
        const me = await t.get('/users/me', user.token)
        for (const [field, value] of Object.entries(profile)) assert.equal(me.body[field], value, `${field} ${JSON.stringify(text)}`)

        const fields = { title: `${text} title`, description: `${text} description`, address: text, city: text, contact_phone: text, contact_notes: text }
        const created = await t.post('/requests', requestInput(fields), user.token)
        assertStatus(created, 201)
        const read = await t.get(`/requests/${created.body.id as number}`, user.token)
        for (const [field, value] of Object.entries(fields)) assert.equal(read.body[field], value, `request ${field} ${JSON.stringify(text)}`)

        const record = { first_name: text, last_name: text, address: text, city: text, needs: text }
        const client = await t.post('/clients', { ...record, consent: { how: 'phone' } }, coordinator.token)
        assertStatus(client, 201)
        const stored = await t.get(`/clients/${client.body.id as number}`, coordinator.token)
        for (const [field, value] of Object.entries(record)) assert.equal(stored.body[field], value, `client ${field} ${JSON.stringify(text)}`)
      }
    })

    it('a leading U+FEFF survives the database\'s own reading too (not only the service\'s answers)', async () => {
      const rows = await t.db.query<{ text: string, list: string[] }>('SELECT $1::text AS text, ARRAY[$1::text] AS list', ['\ufeffErna'])
      assert.equal(rows[0]?.text, '\ufeffErna')
      assert.deepEqual(rows[0]?.list, ['\ufeffErna'])
    })
  })
}
