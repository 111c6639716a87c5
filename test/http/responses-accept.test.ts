import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { ISO_TIME } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'
import { approvedRequest, assertConsistent, freshScene, responsesListed, assignedRequest, REQUEST_INPUT, respond } from '../helpers/lifecycle.js'

for (const engine of engines()) {
  describe(`volunteer responses: acceptance, completion and rating (${engine})`, () => {
    let t: TestApp
    let moderator: Account
    before(async () => {
      t = await startApp(engine)
      moderator = await t.registerWithRole('moderator')
    })
    after(() => t.close())

    describe('POST /requests/{id}/responses/{response_id}/accept', () => {
      it('accepts one, rejects the other pending ones and assigns the volunteer, in_progress', async () => {
        const { requester, volunteer, requestId } = await freshScene(t, moderator)
        const others = [await t.register(), await t.register()]
        const chosen = await respond(t, requestId, volunteer)
        const rest = [await respond(t, requestId, others[0]!), await respond(t, requestId, others[1]!)]
        // A withdrawn response stays withdrawn.
        await t.post(`/requests/${requestId}/responses/${rest[1]}/cancel`, undefined, others[1]!.token)

        const res = await t.post(`/requests/${requestId}/responses/${chosen}/accept`, undefined, requester.token)
        assert.equal(res.status, 200)
        assert.deepEqual(res.body, { success: true, message: 'response accepted', request_id: requestId, volunteer_id: volunteer.id })

        const request = await t.get(`/requests/${requestId}`, requester.token)
        assert.equal(request.body.status, 'in_progress')
        assert.equal(request.body.assigned_volunteer_id, volunteer.id)
        assert.equal(request.body.assigned_volunteer.id, volunteer.id)
        const list = await responsesListed(t, requestId, requester.token)
        assert.deepEqual(list.map((r) => [r.id, r.status]), [[chosen, 'accepted'], [rest[0], 'rejected'], [rest[1], 'cancelled']])
        assert.match(String(list[0]!.accepted_at), ISO_TIME)
        assert.equal(list[0]!.rejected_at, null)
        assert.match(String(list[1]!.rejected_at), ISO_TIME)
        assert.equal(list[1]!.accepted_at, null)
        assert.equal(list[2]!.rejected_at, null)
        await assertConsistent(t, requester, requestId)
      })

      it('only the requester may accept', async () => {
        const { volunteer, requestId } = await freshScene(t, moderator)
        const responseId = await respond(t, requestId, volunteer)
        for (const caller of [volunteer, moderator, t.admin]) {
          const res = await t.post(`/requests/${requestId}/responses/${responseId}/accept`, undefined, caller.token)
          assert.deepEqual([res.status, res.body], [400, { error: 'only the requester can accept a response' }])
        }
      })

      it('the response must be pending and on this request: 404 response not found', async () => {
        const { requester, volunteer, requestId } = await freshScene(t, moderator)
        const elsewhere = await approvedRequest(t, requester, moderator)
        const foreign = await respond(t, elsewhere, volunteer)
        const rejected = await respond(t, requestId, volunteer)
        await t.post(`/requests/${requestId}/responses/${rejected}/reject`, undefined, requester.token)
        const cancelledBy = await t.register()
        const cancelled = await respond(t, requestId, cancelledBy)
        await t.post(`/requests/${requestId}/responses/${cancelled}/cancel`, undefined, cancelledBy.token)
        for (const responseId of [foreign, rejected, cancelled, 999999999]) {
          const res = await t.post(`/requests/${requestId}/responses/${responseId}/accept`, undefined, requester.token)
          assert.deepEqual([res.status, res.body], [404, { error: 'response not found' }])
        }
        assert.equal((await t.get(`/requests/${requestId}`, requester.token)).body.status, 'approved')
      })

      it('the request must be approved', async () => {
        const requester = await t.register()
        const volunteer = await t.register()
        const { requestId } = await assignedRequest(t, requester, moderator, volunteer)
        const late = await t.register()
        // A response on another request of the same requester cannot be accepted here either way.
        const res = await t.post(`/requests/${requestId}/responses/${await respond(t, await approvedRequest(t, requester, moderator), late)}/accept`, undefined, requester.token)
        assert.deepEqual([res.status, res.body], [400, { error: 'a response has already been accepted for this request' }])

        const pending = await t.post('/requests', REQUEST_INPUT, requester.token)
        const unapproved = await t.post(`/requests/${pending.body.id}/responses/1/accept`, undefined, requester.token)
        assert.deepEqual([unapproved.status, unapproved.body], [400, { error: 'request is not open for responses' }])

        await t.post(`/requests/${requestId}/complete`, { rating: 4 }, requester.token)
        const completed = await t.post(`/requests/${requestId}/responses/1/accept`, undefined, requester.token)
        assert.deepEqual([completed.status, completed.body], [400, { error: 'request is not open for responses' }])
      })

      it('unknown and malformed ids; no token', async () => {
        const user = await t.register()
        let res = await t.post('/requests/999999999/responses/1/accept', undefined, user.token)
        assert.deepEqual([res.status, res.body], [404, { error: 'request not found' }])
        res = await t.post('/requests/x/responses/1/accept', undefined, user.token)
        assert.deepEqual([res.status, res.body], [400, { error: 'invalid request id' }])
        res = await t.post('/requests/1/responses/x/accept', undefined, user.token)
        assert.deepEqual([res.status, res.body], [400, { error: 'invalid response id' }])
        res = await t.post('/requests/1/responses/-3/accept', undefined, user.token)
        assert.deepEqual([res.status, res.body], [400, { error: 'invalid response id' }])
        res = await t.post('/requests/1/responses/1/accept')
        assert.deepEqual([res.status, res.body], [401, { error: 'unauthorized' }])
      })
    })

    describe('POST /requests/{id}/complete', () => {
      it('completes, stores the rating and updates the volunteer\'s profile', async () => {
        const requester = await t.register()
        const volunteer = await t.register()
        const before = await t.get('/users/me', volunteer.token)
        assert.equal(before.body.volunteer_rating, null)
        assert.equal(before.body.completed_requests_count, 0)

        const { requestId, responseId } = await assignedRequest(t, requester, moderator, volunteer)
        const res = await t.post(`/requests/${requestId}/complete`, { rating: 4, comment: 'Kind and on time' }, requester.token)
        assert.equal(res.status, 200)
        assert.deepEqual(Object.keys(res.body).sort(), ['message', 'rating_id', 'success'])
        assert.equal(res.body.success, true)
        assert.equal(res.body.message, 'request completed')
        assert.equal(typeof res.body.rating_id, 'number')

        const [rating] = await t.db.query('SELECT request_id, volunteer_id, rater_id, score, comment FROM ratings WHERE id = $1', [res.body.rating_id])
        assert.deepEqual({ ...rating }, { request_id: requestId, volunteer_id: volunteer.id, rater_id: requester.id, score: 4, comment: 'Kind and on time' })
        const request = await t.get(`/requests/${requestId}`, requester.token)
        assert.equal(request.body.status, 'completed')
        assert.equal(request.body.assigned_volunteer_id, volunteer.id)
        // The accepted response stays accepted: it is the record of who did the work.
        assert.equal((await responsesListed(t, requestId, requester.token)).find((r) => r.id === responseId)!.status, 'accepted')

        const profile = await t.get(`/users/${volunteer.id}`, requester.token)
        assert.equal(profile.body.volunteer_rating, 4)
        assert.equal(profile.body.completed_requests_count, 1)
      })

      it('takes a null or missing comment', async () => {
        const requester = await t.register()
        for (const body of [{ rating: 1, comment: null }, { rating: 1 }]) {
          const { requestId } = await assignedRequest(t, requester, moderator, await t.register())
          const res = await t.post(`/requests/${requestId}/complete`, body, requester.token)
          assert.equal(res.status, 200, res.text)
          const [rating] = await t.db.query<{ comment: string | null }>('SELECT comment FROM ratings WHERE id = $1', [res.body.rating_id])
          assert.equal(rating!.comment, null)
        }
      })

      it('the rating is the mean of all ratings: 5, 4, 2 → 3.67 over 3 completions', async () => {
        const volunteer = await t.register()
        const requesters = [await t.register(), await t.register()]
        const scores = [5, 4, 2]
        for (const [i, score] of scores.entries()) {
          const requester = requesters[i % 2]!
          const { requestId } = await assignedRequest(t, requester, moderator, volunteer)
          const res = await t.post(`/requests/${requestId}/complete`, { rating: score }, requester.token)
          assert.equal(res.status, 200, res.text)
          const me = await t.get('/users/me', volunteer.token)
          const taken = scores.slice(0, i + 1)
          assert.equal(me.body.completed_requests_count, i + 1)
          assert.equal(me.body.volunteer_rating, taken.reduce((a, b) => a + b, 0) / taken.length)
        }
        const stranger = await t.register()
        const profile = await t.get(`/users/${volunteer.id}`, stranger.token)
        assert.equal(profile.status, 200)
        assert.equal(profile.body.completed_requests_count, 3)
        assert.ok(Math.abs(profile.body.volunteer_rating - 11 / 3) < 1e-12)
        // The requesters' own figures are untouched.
        assert.equal((await t.get('/users/me', requesters[0]!.token)).body.completed_requests_count, 0)
      })

      it('only the requester may complete', async () => {
        const requester = await t.register()
        const volunteer = await t.register()
        const { requestId } = await assignedRequest(t, requester, moderator, volunteer)
        for (const caller of [volunteer, moderator, t.admin]) {
          const res = await t.post(`/requests/${requestId}/complete`, { rating: 5 }, caller.token)
          assert.deepEqual([res.status, res.body], [400, { error: 'only the requester can complete a request' }])
        }
      })

      it('only from in_progress, once', async () => {
        const { requester, requestId } = await freshScene(t, moderator)
        let res = await t.post(`/requests/${requestId}/complete`, { rating: 5 }, requester.token)
        assert.deepEqual([res.status, res.body], [400, { error: 'request is not in progress' }])
        const pending = await t.post('/requests', REQUEST_INPUT, requester.token)
        res = await t.post(`/requests/${pending.body.id}/complete`, { rating: 5 }, requester.token)
        assert.deepEqual([res.status, res.body], [400, { error: 'request is not in progress' }])

        const volunteer = await t.register()
        const assigned = await assignedRequest(t, requester, moderator, volunteer)
        assert.equal((await t.post(`/requests/${assigned.requestId}/complete`, { rating: 3 }, requester.token)).status, 200)
        res = await t.post(`/requests/${assigned.requestId}/complete`, { rating: 5 }, requester.token)
        assert.deepEqual([res.status, res.body], [400, { error: 'request is already completed' }])
        const [{ count }] = await t.db.query<{ count: number }>('SELECT count(*)::int AS count FROM ratings WHERE request_id = $1', [assigned.requestId]) as [{ count: number }]
        assert.equal(count, 1)
        assert.equal((await t.get(`/users/${volunteer.id}`, volunteer.token)).body.completed_requests_count, 1)
      })

      it('the rating is an integer from 1 to 5', async () => {
        const requester = await t.register()
        const { requestId } = await assignedRequest(t, requester, moderator, await t.register())
        for (const rating of [0, 6, 4.5, '5', null, true]) {
          const res = await t.post(`/requests/${requestId}/complete`, { rating }, requester.token)
          assert.deepEqual([res.status, res.body], [400, { error: 'rating must be an integer from 1 to 5' }], String(rating))
        }
        let res = await t.post(`/requests/${requestId}/complete`, { comment: 'great' }, requester.token)
        assert.deepEqual([res.status, res.body], [400, { error: 'rating is required' }])
        res = await t.post(`/requests/${requestId}/complete`, { rating: 5, comment: 'x'.repeat(2001) }, requester.token)
        assert.deepEqual([res.status, res.body], [400, { error: 'comment must be at most 2000 characters long' }])
        res = await t.post(`/requests/${requestId}/complete`, undefined, requester.token)
        assert.deepEqual([res.status, res.body], [400, { error: 'invalid request body' }])
        assert.equal((await t.get(`/requests/${requestId}`, requester.token)).body.status, 'in_progress')
      })

      it('unknown and malformed ids; no token', async () => {
        const user = await t.register()
        let res = await t.post('/requests/999999999/complete', { rating: 5 }, user.token)
        assert.deepEqual([res.status, res.body], [404, { error: 'request not found' }])
        res = await t.post('/requests/abc/complete', { rating: 5 }, user.token)
        assert.deepEqual([res.status, res.body], [400, { error: 'invalid request id' }])
        res = await t.post('/requests/1/complete', { rating: 5 })
        assert.deepEqual([res.status, res.body], [401, { error: 'unauthorized' }])
      })
    })
  })
}
