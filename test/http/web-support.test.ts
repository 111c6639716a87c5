import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, uniqueEmail, type Account, type TestApp } from '../helpers/app.js'
import { assertError } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'
import { approvedRequest, REQUEST_INPUT, respond } from '../helpers/lifecycle.js'

/*
 * The three reads the web app needs beyond interface 1.0.1 (docs/api.md › Beyond interface 1.0.1): own home
 * location, own responses ("my offers"), and the administrators' user search.
 */
for (const engine of engines()) {
  describe(`web app support: home location, own responses, user search (${engine})`, () => {
    let t: TestApp
    let moderator: Account
    before(async () => {
      t = await startApp(engine)
      moderator = await t.registerWithRole('moderator')
    })
    after(() => t.close())

    describe('GET /users/me/location', () => {
      it('is null and null until set, then the point set (from registration or the location call)', async () => {
        const user = await t.register()
        assert.deepEqual((await t.get('/users/me/location', user.token)).body, { latitude: null, longitude: null })
        const set = await t.post('/users/me/location', { latitude: 52.52, longitude: 13.405 }, user.token)
        assert.equal(set.status, 200, set.text)
        const res = await t.get('/users/me/location', user.token)
        assert.equal(res.status, 200)
        assert.deepEqual(res.body, { latitude: 52.52, longitude: 13.405 })
        const registered = await t.register({ latitude: -33.8688, longitude: 151.2093 })
        assert.deepEqual((await t.get('/users/me/location', registered.token)).body, { latitude: -33.8688, longitude: 151.2093 })
      })

      it('needs a token', async () => {
        assertError(await t.get('/users/me/location'), 401, 'unauthorized')
      })
    })

    describe('GET /responses/my', () => {
      it('lists only the caller\'s responses, newest first, with the request\'s title and current status', async () => {
        const requester = await t.register()
        const volunteer = await t.register({ first_name: 'Vera', last_name: 'Helper' })
        const other = await t.register()
        const first = await approvedRequest(t, requester, moderator)
        const second = await approvedRequest(t, requester, moderator)
        const firstResponse = await respond(t, first, volunteer)
        const secondResponse = await respond(t, second, volunteer)
        await respond(t, second, other)
        // The first is accepted: its request moves on, and the answer shows where it is now.
        assert.equal((await t.post(`/requests/${first}/responses/${firstResponse}/accept`, undefined, requester.token)).status, 200)

        const res = await t.get('/responses/my', volunteer.token)
        assert.equal(res.status, 200, res.text)
        assert.deepEqual(res.body.map((item: { id: number }) => item.id), [secondResponse, firstResponse])
        assert.deepEqual(Object.keys(res.body[0]).sort(), ['accepted_at', 'id', 'message', 'rejected_at', 'request_id', 'request_status',
          'request_title', 'responded_at', 'status', 'suitable', 'volunteer', 'volunteer_id', 'volunteer_name'])
        assert.deepEqual(res.body.map((item: Record<string, unknown>) => [item.request_id, item.status, item.request_status, item.request_title, item.volunteer_name]), [
          [second, 'pending', 'approved', REQUEST_INPUT.title, 'Vera Helper'],
          [first, 'accepted', 'in_progress', REQUEST_INPUT.title, 'Vera Helper'],
        ])
        // Paged like the other lists.
        assert.deepEqual((await t.get('/responses/my?limit=1&offset=1', volunteer.token)).body.map((item: { id: number }) => item.id), [firstResponse])
        assert.deepEqual((await t.get('/responses/my', requester.token)).body, [])
      })

      it('shows a withdrawn response as cancelled', async () => {
        const requester = await t.register()
        const volunteer = await t.register()
        const requestId = await approvedRequest(t, requester, moderator)
        const responseId = await respond(t, requestId, volunteer)
        assert.equal((await t.post(`/requests/${requestId}/responses/${responseId}/cancel`, undefined, volunteer.token)).status, 200)
        const [item] = (await t.get('/responses/my', volunteer.token)).body
        assert.equal(item.status, 'cancelled')
        assert.equal(item.request_status, 'approved')
      })
    })

    describe('GET /admin/users', () => {
      it('finds users by part of the e-mail or the name, any case, with flags and role ids', async () => {
        const marker = `zq${Date.now().toString(36)}`
        const alice = await t.register({ email: uniqueEmail(`${marker}.alice`), first_name: 'Alice', last_name: 'Findme' })
        const bob = await t.register({ first_name: 'Bob', last_name: `${marker}Smith` })
        await t.post(`/admin/users/${bob.id}/roles/2`, undefined, t.admin.token)
        await t.post(`/admin/users/${bob.id}/block`, undefined, t.admin.token)

        const res = await t.get(`/admin/users?q=${marker.toUpperCase()}`, t.admin.token)
        assert.equal(res.status, 200, res.text)
        assert.deepEqual(res.body, [
          { id: alice.id, email: alice.email, first_name: 'Alice', last_name: 'Findme', email_verified: false, is_verified: false, is_blocked: false, role_ids: [1] },
          { id: bob.id, email: bob.email, first_name: 'Bob', last_name: `${marker}Smith`, email_verified: false, is_verified: false, is_blocked: true, role_ids: [1, 2] },
        ])
        // First and last name together, as a person types them.
        assert.deepEqual((await t.get(`/admin/users?q=${encodeURIComponent('alice findme')}`, t.admin.token)).body.map((u: { id: number }) => u.id), [alice.id])
        assert.deepEqual((await t.get(`/admin/users?q=${marker}&limit=1&offset=1`, t.admin.token)).body.map((u: { id: number }) => u.id), [bob.id])
      })

      it('takes % and _ literally, and an empty or missing q lists everyone', async () => {
        assert.deepEqual((await t.get('/admin/users?q=%25', t.admin.token)).body, [])
        assert.deepEqual((await t.get('/admin/users?q=_', t.admin.token)).body, [])
        const all = await t.get('/admin/users?q=&limit=100', t.admin.token)
        assert.equal(all.status, 200)
        assert.ok(all.body.some((user: { id: number }) => user.id === t.admin.id))
        assert.deepEqual((await t.get('/admin/users?limit=100', t.admin.token)).body, all.body)
      })

      it('refuses everyone but admins, and a q longer than an e-mail address', async () => {
        assertError(await t.get('/admin/users', moderator.token), 403, 'admin role required')
        assertError(await t.get('/admin/users'), 401, 'unauthorized')
        assertError(await t.get(`/admin/users?q=${'a'.repeat(255)}`, t.admin.token), 400, 'q must be at most 254 characters long')
      })
    })
  })
}
