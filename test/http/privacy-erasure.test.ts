import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { gridPoint } from '../../src/lib/grid.js'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'
import { approvedRequest, assignedRequest, REQUEST_INPUT } from '../helpers/lifecycle.js'
import { createRequest } from '../helpers/requests.js'

/** privacy.md through HTTP: erasing one's own account, also while accepting an offer at the same moment. */

/** A DELETE without any body. */
const NO_BODY = Symbol('no body')

const exact = (lat: number, lon: number) => ({ latitude: lat, longitude: lon, precision_meters: 0 })

for (const engine of engines()) {
  describe(`DELETE /users/me racing an accept (${engine})`, () => {
    let t: TestApp
    let moderator: Account
    before(async () => {
      t = await startApp(engine)
      moderator = await t.registerWithRole('moderator')
    })
    after(() => t.close())

    it('a requester erasing while accepting a response: either erased with the request cancelled, or refused with it in progress', async () => {
      const outcomes = new Set<string>()
      for (let round = 0; round < 8; round++) {
        const requester = await t.register()
        const volunteer = await t.register()
        const requestId = await approvedRequest(t, requester, moderator)
        const response = await t.post(`/requests/${requestId}/responses`, { message: 'I can' }, volunteer.token)
        const [erased, accepted] = await Promise.all([
          t.request('DELETE', '/users/me', { token: requester.token, body: { password: requester.password } }),
          t.post(`/requests/${requestId}/responses/${response.body.id}/accept`, undefined, requester.token),
        ])
        const detail = (await t.get(`/requests/${requestId}`, moderator.token)).body
        const responses = (await t.get(`/requests/${requestId}/responses`, moderator.token)).body.map((r: any) => r.status)
        if (erased.status === 200) {
          assert.equal(detail.status, 'cancelled')
          assert.deepEqual(responses, ['cancelled'])
          outcomes.add('erased')
        } else {
          assert.deepEqual([erased.status, erased.body], [400, { error: 'finish or cancel your open requests first' }])
          assert.equal(accepted.status, 200)
          assert.equal(detail.status, 'in_progress')
          assert.deepEqual(responses, ['accepted'])
          outcomes.add('refused')
        }
      }
      assert.ok(outcomes.size >= 1)
    })

    it('a volunteer erasing while being accepted: either erased with the offer withdrawn, or refused as the assigned volunteer', async () => {
      for (let round = 0; round < 8; round++) {
        const requester = await t.register()
        const volunteer = await t.register()
        const requestId = await approvedRequest(t, requester, moderator)
        const response = await t.post(`/requests/${requestId}/responses`, { message: 'I can' }, volunteer.token)
        const [erased] = await Promise.all([
          t.request('DELETE', '/users/me', { token: volunteer.token, body: { password: volunteer.password } }),
          t.post(`/requests/${requestId}/responses/${response.body.id}/accept`, undefined, requester.token),
        ])
        const detail = (await t.get(`/requests/${requestId}`, requester.token)).body
        if (erased.status === 200) {
          // Never an erased account assigned to a request in progress.
          assert.equal(detail.status, 'approved')
          assert.equal(detail.assigned_volunteer_id, null)
        } else {
          assert.deepEqual([erased.status, erased.body], [400, { error: 'withdraw from your assigned requests first' }])
          assert.equal(detail.status, 'in_progress')
          assert.equal(detail.assigned_volunteer_id, volunteer.id)
        }
      }
    })
  })

  describe(`DELETE /users/me (${engine})`, () => {
    let t: TestApp
    let moderator: Account
    before(async () => {
      t = await startApp(engine)
      moderator = await t.registerWithRole('moderator')
    })
    after(() => t.close())

    const erase = (account: Account, body: unknown = { password: account.password }) =>
      t.request('DELETE', '/users/me', { token: account.token, ...(body === NO_BODY ? {} : { body }) })

    it('deletes the caller\'s availability and own notifications, and tells the volunteers of cancelled requests', async () => {
      const me = await t.register()
      const pendingOffer = await t.register()
      const assignedElsewhere = await t.register()
      const put = await t.request('PUT', '/users/me/availability', { token: me.token, body: { on_duty: true, latitude: 1.25, longitude: 2.5 } })
      assert.equal(put.status, 200, put.text)
      const requestId = await approvedRequest(t, me, moderator)
      assert.equal((await t.post(`/requests/${requestId}/responses`, { message: 'I can' }, pendingOffer.token)).status, 201)
      assert.ok((await t.get('/notifications', me.token)).body.length >= 2, 'approved, and an offer received')
      // An untouched request of someone else, so nobody else's notifications or availability go.
      await assignedRequest(t, await t.register(), moderator, assignedElsewhere)
      const othersBefore = (await t.get('/notifications', assignedElsewhere.token)).body

      assert.equal((await erase(me)).status, 200)
      assert.deepEqual(await t.db.query('SELECT user_id FROM volunteer_availability WHERE user_id = $1', [me.id]), [])
      assert.deepEqual(await t.db.query('SELECT id FROM notifications WHERE user_id = $1', [me.id]), [])
      const told = (await t.get('/notifications', pendingOffer.token)).body
      assert.deepEqual(told.filter((n: any) => n.type === 'request_cancelled').map((n: any) => n.request_id), [requestId])
      assert.deepEqual((await t.get('/notifications', assignedElsewhere.token)).body, othersBefore)
    })

    it('tells the requesters of the erased volunteer\'s pending offers: response_withdrawn, was_accepted false', async () => {
      const volunteer = await t.register()
      const requester = await t.register()
      const requestId = await approvedRequest(t, requester, moderator)
      const offer = await t.post(`/requests/${requestId}/responses`, { message: 'I can' }, volunteer.token)
      assert.equal(offer.status, 201)

      assert.equal((await erase(volunteer)).status, 200)
      const told = (await t.get('/notifications', requester.token)).body.filter((n: any) => n.type === 'response_withdrawn')
      assert.deepEqual(told.map((n: any) => ({ request_id: n.request_id, data: n.data })), [{ request_id: requestId, data: { response_id: offer.body.id, was_accepted: false } }])
      const responses = (await t.get(`/requests/${requestId}/responses`, requester.token)).body
      assert.deepEqual(responses.map((r: any) => r.status), ['cancelled'])
    })

    it('refuses a wrong or missing password with 401 invalid credentials, changing nothing', async () => {
      const me = await t.register()
      for (const body of [{ password: 'wrong password' }, {}, { password: '' }, NO_BODY]) {
        const res = await erase(me, body)
        assert.equal(res.status, 401, JSON.stringify(body))
        assert.deepEqual(res.body, { error: 'invalid credentials' })
      }
      assert.equal((await t.get('/users/me', me.token)).status, 200)
    })

    it('refuses while the caller has a request in_progress, or is the assigned volunteer of one', async () => {
      const requester = await t.register()
      const volunteer = await t.register()
      const { requestId } = await assignedRequest(t, requester, moderator, volunteer)
      const asRequester = await erase(requester)
      assert.equal(asRequester.status, 400)
      assert.deepEqual(asRequester.body, { error: 'finish or cancel your open requests first' })
      const asVolunteer = await erase(volunteer)
      assert.equal(asVolunteer.status, 400)
      assert.deepEqual(asVolunteer.body, { error: 'withdraw from your assigned requests first' })
      // Nothing changed: both still work, the request is still theirs and in progress.
      const detail = await t.get(`/requests/${requestId}`, requester.token)
      assert.equal(detail.body.status, 'in_progress')
      assert.equal(detail.body.assigned_volunteer_id, volunteer.id)
      assert.equal((await t.get('/users/me', volunteer.token)).status, 200)
    })

    it('refuses the last admin, and erases an admin who is not the last', async () => {
      const res = await erase(t.admin)
      assert.equal(res.status, 400)
      assert.deepEqual(res.body, { error: 'the last admin cannot be erased' })
      const second = await t.registerWithRole('admin')
      assert.equal((await erase(second)).status, 200)
      // Now the first is the last again.
      assert.deepEqual((await erase(t.admin)).body, { error: 'the last admin cannot be erased' })
    })

    it('erases: requests cancelled and minimised, responses withdrawn, profile gone, tokens refused, ratings kept; the e-mail registers again', async () => {
      const me = await t.register({ phone: '+4930777666', address: 'My home 1', city: 'Bonn', bio: 'hello', latitude: 50.7, longitude: 7.1 })
      const volunteer = await t.register()
      const stranger = await t.register()
      // A finished request of mine, rated; one approved with a pending response; one pending moderation.
      const done = await assignedRequest(t, me, moderator, volunteer)
      assert.equal((await t.post(`/requests/${done.requestId}/complete`, { rating: 2 }, me.token)).status, 200)
      const approved = await approvedRequest(t, me, moderator)
      assert.equal((await t.post(`/requests/${approved}/responses`, { message: 'I can' }, volunteer.token)).status, 201)
      const pending = await createRequest(t, me.token)
      // My own pending offer of help on a stranger's request.
      const theirs = await approvedRequest(t, stranger, moderator)
      assert.equal((await t.post(`/requests/${theirs}/responses`, { message: 'Me too' }, me.token)).status, 201)
      const ratingBefore = (await t.get(`/users/${volunteer.id}`, volunteer.token)).body.volunteer_rating

      const res = await erase(me)
      assert.equal(res.status, 200)
      assert.deepEqual(res.body, { message: 'account erased' })

      // Old tokens: the access token and the refresh token are refused.
      assert.equal((await t.get('/users/me', me.token)).status, 401)
      assert.equal((await t.post('/auth/refresh', { refresh_token: me.refresh })).status, 401)
      assert.equal((await t.post('/auth/login', { email: me.email, password: me.password })).status, 401)
      // Requests: the open ones cancelled (with their responses), all minimised.
      for (const id of [approved, pending.id]) {
        const detail = await t.get(`/requests/${id}`, moderator.token)
        assert.equal(detail.body.status, 'cancelled')
        assert.equal(detail.body.address, '(removed)')
      }
      const responses = await t.get(`/requests/${approved}/responses`, moderator.token)
      assert.deepEqual(responses.body.map((r: any) => r.status), ['cancelled'])
      const finished = (await t.get(`/requests/${done.requestId}`, moderator.token)).body
      assert.equal(finished.status, 'completed')
      assert.equal(finished.title, REQUEST_INPUT.title)
      assert.deepEqual([finished.description, finished.address], ['(removed)', '(removed)'])
      assert.deepEqual(finished.location, exact(gridPoint(REQUEST_INPUT.latitude, REQUEST_INPUT.longitude, 300).latitude, gridPoint(REQUEST_INPUT.latitude, REQUEST_INPUT.longitude, 300).longitude))
      assert.equal(finished.requester.first_name + ' ' + finished.requester.last_name, 'Former user')
      assert.notEqual(finished.requester.email, me.email)
      // My pending offer of help withdrawn.
      const theirResponses = await t.get(`/requests/${theirs}/responses`, stranger.token)
      assert.deepEqual(theirResponses.body.map((r: any) => r.status), ['cancelled'])
      // The profile: no personal field left.
      const profile = (await t.get(`/users/${me.id}`, moderator.token)).body
      assert.deepEqual([profile.first_name, profile.last_name, profile.phone, profile.address, profile.city, profile.bio], ['Former', 'user', null, null, null, null])
      const [row] = await t.db.query<any>('SELECT latitude, longitude FROM users WHERE id = $1', [me.id])
      assert.deepEqual(row, { latitude: null, longitude: null })
      // Ratings stay: the volunteer's average does not move.
      assert.equal((await t.get(`/users/${volunteer.id}`, volunteer.token)).body.volunteer_rating, ratingBefore)
      // The volunteer whose offer was pending on a cancelled request is told (docs/api/messaging.md), the requester is not.
      const inbox = (await t.get('/notifications', volunteer.token)).body
      assert.deepEqual(inbox.filter((n: any) => n.type === 'request_cancelled').map((n: any) => [n.request_id, n.data]), [[approved, {}]])
      // The e-mail registers again, as a new account.
      const again = await t.post('/auth/register', { email: me.email, password: 'a new password', first_name: 'New', last_name: 'Me' })
      assert.equal(again.status, 201, again.text)
      assert.notEqual(again.body.user.id, me.id)
    })
  })
}
