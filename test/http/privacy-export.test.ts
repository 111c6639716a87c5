import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'
import { approvedRequest, assignedRequest, REQUEST_INPUT } from '../helpers/lifecycle.js'
import { createRequest, requestInput } from '../helpers/requests.js'

/** privacy.md through HTTP: what a person exports of their own data. */

for (const engine of engines()) {
  describe(`GET /users/me/export (${engine})`, () => {
    let t: TestApp
    let moderator: Account
    before(async () => {
      t = await startApp(engine)
      moderator = await t.registerWithRole('moderator')
    })
    after(() => t.close())

    it('returns everything held about the caller as a download, and no other person\'s e-mail or contact data', async () => {
      const me = await t.register({ first_name: 'Erna', last_name: 'Export', phone: '+4930999888', address: 'Home street 5', city: 'Berlin', latitude: 1.5, longitude: 2.5 })
      const volunteer = await t.register({ phone: '+4930111222', address: 'Volunteer lane 1' })
      const other = await t.register()
      // My request, helped and rated; and my own offer of help on another's request, which rates me.
      const { requestId } = await assignedRequest(t, me, moderator, volunteer)
      assert.equal((await t.post(`/requests/${requestId}/complete`, { rating: 4, comment: 'kind' }, me.token)).status, 200)
      const theirs = await assignedRequest(t, other, moderator, me)
      assert.equal((await t.post(`/requests/${theirs.requestId}/complete`, { rating: 5 }, other.token)).status, 200)

      const res = await t.get('/users/me/export', me.token)
      assert.equal(res.status, 200)
      assert.equal(res.headers['content-disposition'], 'attachment; filename="my-data.json"')
      assert.match(String(res.headers['content-type']), /application\/json/)
      const data = res.body
      assert.deepEqual(Object.keys(data).sort(), ['access_records', 'acting_for', 'availability', 'concerns', 'deliveries', 'exported_at', 'notification_settings', 'notifications', 'profile', 'push_subscriptions', 'ratings_given', 'ratings_received', 'requests', 'responses', 'roles', 'series', 'texts', 'trusted_people', 'visits'])
      assert.equal(data.profile.email, me.email)
      assert.equal(data.profile.phone, '+4930999888')
      assert.equal(data.profile.address, 'Home street 5')
      assert.deepEqual([data.profile.latitude, data.profile.longitude], [1.5, 2.5])
      assert.deepEqual(data.roles, ['volunteer'])
      assert.equal(data.requests.length, 1)
      assert.equal(data.requests[0].id, requestId)
      assert.equal(data.requests[0].status, 'completed')
      assert.deepEqual([data.requests[0].latitude, data.requests[0].longitude], [REQUEST_INPUT.latitude, REQUEST_INPUT.longitude])
      assert.equal(data.requests[0].assigned_volunteer_id, volunteer.id)
      assert.deepEqual(data.responses.map((r: any) => [r.request_id, r.status]), [[theirs.requestId, 'accepted']])
      assert.deepEqual(data.ratings_given.map((r: any) => [r.request_id, r.volunteer_id, r.score, r.comment]), [[requestId, volunteer.id, 4, 'kind']])
      assert.deepEqual(data.ratings_received.map((r: any) => [r.request_id, r.rater_id, r.score]), [[theirs.requestId, other.id, 5]])
      for (const secret of [volunteer.email, other.email, '+4930111222', 'Volunteer lane 1']) {
        assert.ok(!res.text.includes(secret), `the export holds ${secret}`)
      }
    })

    it('holds the caller\'s notification settings and deliveries as their own endpoints show them (docs/api/messaging.md)', async () => {
      const person = await t.register()
      assert.equal((await t.get('/users/me/export', person.token)).body.notification_settings, null, 'nothing chosen yet: the defaults apply')
      const saved = await t.request('PUT', '/users/me/notification-settings', { body: { push: { enabled: false }, quiet_hours: { start: '21:30', end: '06:45' } }, token: person.token })
      assert.equal(saved.status, 200, saved.text)
      const data = (await t.get('/users/me/export', person.token)).body
      assert.deepEqual(data.notification_settings, saved.body)
      assert.deepEqual(data.deliveries, (await t.get('/users/me/deliveries?limit=100', person.token)).body)
    })

    it('holds the caller\'s availability and notifications as their own endpoints return them, and nobody else\'s', async () => {
      const me = await t.register()
      const other = await t.register()
      assert.equal((await t.get('/users/me/export', me.token)).body.availability, null, 'never saved: null')
      for (const [account, radius] of [[me, 2000], [other, 9000]] as const) {
        const put = await t.request('PUT', '/users/me/availability', { token: account.token, body: { radius_meters: radius, latitude: 1.25, longitude: 2.5 } })
        assert.equal(put.status, 200, put.text)
      }
      // Each gets request_approved for their own request; `other` also an offer of help on theirs.
      const mine = await approvedRequest(t, me, moderator)
      const theirs = await approvedRequest(t, other, moderator)
      assert.equal((await t.post(`/requests/${theirs}/responses`, { message: 'Me' }, me.token)).status, 201)

      const data = (await t.get('/users/me/export', me.token)).body
      assert.deepEqual(data.availability, (await t.get('/users/me/availability', me.token)).body)
      assert.equal(data.availability.radius_meters, 2000)
      const inbox = (await t.get('/notifications', me.token)).body
      assert.deepEqual(data.notifications, inbox)
      assert.deepEqual(data.notifications.map((n: any) => [n.type, n.request_id]), [['request_approved', mine]])
    })

    it('holds the contact data of the caller\'s own requests', async () => {
      const me = await t.register()
      const created = await createRequest(t, me.token, requestInput({ contact_phone: '+4930555444', contact_notes: 'Back door' }))
      const data = (await t.get('/users/me/export', me.token)).body
      assert.deepEqual(data.requests.map((r: any) => [r.id, r.contact_phone, r.contact_notes]), [[created.id, '+4930555444', 'Back door']])
    })

    it('needs a token', async () => {
      assert.equal((await t.get('/users/me/export')).status, 401)
    })
  })
}
