import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'
import { approvedRequest, assertConsistent, assignedRequest, REQUEST_INPUT, respond } from '../helpers/lifecycle.js'

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/

for (const engine of engines()) {
  describe(`volunteer responses, assignment, completion and rating (${engine})`, () => {
    let t: TestApp
    let moderator: Account
    before(async () => {
      t = await startApp(engine)
      moderator = await t.registerWithRole(2)
    })
    after(() => t.close())

    /** A fresh requester, a fresh approved request of theirs, and a fresh volunteer. */
    async function scene (): Promise<{ requester: Account, volunteer: Account, requestId: number }> {
      const requester = await t.register({ first_name: 'Rita', last_name: 'Asker' })
      const volunteer = await t.register({ first_name: 'Vera', last_name: 'Helper' })
      return { requester, volunteer, requestId: await approvedRequest(t, requester, moderator) }
    }

    const responsesOf = async (requestId: number, token: string) => {
      const res = await t.get(`/requests/${requestId}/responses`, token)
      assert.equal(res.status, 200, res.text)
      return res.body as Array<Record<string, unknown>>
    }

    describe('POST /requests/{id}/responses', () => {
      it('creates a pending response with the volunteer\'s name', async () => {
        const { volunteer, requestId } = await scene()
        const res = await t.post(`/requests/${requestId}/responses`, { message: 'I can come on Tuesday' }, volunteer.token)
        assert.equal(res.status, 201)
        assert.deepEqual(Object.keys(res.body).sort(),
          ['accepted_at', 'id', 'message', 'rejected_at', 'request_id', 'responded_at', 'status', 'volunteer', 'volunteer_id', 'volunteer_name'])
        assert.equal(typeof res.body.id, 'number')
        assert.equal(res.body.request_id, requestId)
        assert.equal(res.body.volunteer_id, volunteer.id)
        assert.equal(res.body.volunteer_name, 'Vera Helper')
        assert.equal(res.body.status, 'pending')
        assert.equal(res.body.message, 'I can come on Tuesday')
        assert.match(res.body.responded_at, ISO)
        assert.equal(res.body.accepted_at, null)
        assert.equal(res.body.rejected_at, null)
      })

      it('takes no body, an empty JSON body or a null message as an offer without a message', async () => {
        for (const options of [{}, { headers: { 'content-type': 'application/json' }, payload: '' }, { body: { message: null } }]) {
          const { volunteer, requestId } = await scene()
          const res = await t.request('POST', `/requests/${requestId}/responses`, { ...options, token: volunteer.token })
          assert.equal(res.status, 201, res.text)
          assert.equal(res.body.message, null)
        }
      })

      it('refuses requests that are not approved: 400 request is not open for responses', async () => {
        const requester = await t.register()
        const volunteer = await t.register()
        const pending = await t.post('/requests', REQUEST_INPUT, requester.token)
        let res = await t.post(`/requests/${pending.body.id}/responses`, {}, volunteer.token)
        assert.equal(res.status, 400)
        assert.deepEqual(res.body, { error: 'request is not open for responses' })

        const { requestId } = await assignedRequest(t, requester, moderator, await t.register())
        res = await t.post(`/requests/${requestId}/responses`, {}, volunteer.token)
        assert.deepEqual([res.status, res.body], [400, { error: 'request is not open for responses' }])

        assert.equal((await t.post(`/requests/${requestId}/complete`, { rating: 5 }, requester.token)).status, 200)
        res = await t.post(`/requests/${requestId}/responses`, {}, volunteer.token)
        assert.deepEqual([res.status, res.body], [400, { error: 'request is not open for responses' }])
      })

      it('refuses the requester\'s own request', async () => {
        const { requester, requestId } = await scene()
        const res = await t.post(`/requests/${requestId}/responses`, {}, requester.token)
        assert.equal(res.status, 400)
        assert.deepEqual(res.body, { error: 'cannot respond to own request' })
      })

      it('allows one open response per volunteer; after a withdrawal or a rejection they may respond again', async () => {
        const { requester, volunteer, requestId } = await scene()
        const first = await respond(t, requestId, volunteer)
        let res = await t.post(`/requests/${requestId}/responses`, {}, volunteer.token)
        assert.equal(res.status, 400)
        assert.deepEqual(res.body, { error: 'already responded to this request' })

        assert.equal((await t.post(`/requests/${requestId}/responses/${first}/cancel`, undefined, volunteer.token)).status, 200)
        const second = await respond(t, requestId, volunteer)
        assert.equal((await t.post(`/requests/${requestId}/responses/${second}/reject`, undefined, requester.token)).status, 200)
        res = await t.post(`/requests/${requestId}/responses`, {}, volunteer.token)
        assert.equal(res.status, 201)
        assert.equal((await responsesOf(requestId, volunteer.token)).length, 3)
      })

      it('needs permission respond_request: 403', async () => {
        const { requestId } = await scene()
        const bare = await t.register()
        // Without role volunteer the account holds no permission at all.
        assert.equal((await t.delete(`/admin/users/${bare.id}/roles/1`, t.admin.token)).status, 200)
        const res = await t.post(`/requests/${requestId}/responses`, {}, bare.token)
        assert.equal(res.status, 403)
        assert.deepEqual(res.body, { error: 'respond_request permission required' })
      })

      it('unknown, hidden and malformed requests; bad bodies; no token', async () => {
        const volunteer = await t.register()
        let res = await t.post('/requests/999999999/responses', {}, volunteer.token)
        assert.deepEqual([res.status, res.body], [404, { error: 'request not found' }])

        const requester = await t.register()
        const created = await t.post('/requests', REQUEST_INPUT, requester.token)
        await t.post(`/moderation/requests/${created.body.id}/reject`, { comment: 'not a real request' }, moderator.token)
        res = await t.post(`/requests/${created.body.id}/responses`, {}, volunteer.token)
        assert.deepEqual([res.status, res.body], [404, { error: 'request not found' }])

        res = await t.post('/requests/abc/responses', {}, volunteer.token)
        assert.deepEqual([res.status, res.body], [400, { error: 'invalid request id' }])
        res = await t.post('/requests/0/responses', {}, volunteer.token)
        assert.deepEqual([res.status, res.body], [400, { error: 'invalid request id' }])

        const { requestId } = await scene()
        res = await t.post(`/requests/${requestId}/responses`, { message: 42 }, volunteer.token)
        assert.deepEqual([res.status, res.body], [400, { error: 'message must be of type string or null' }])
        res = await t.post(`/requests/${requestId}/responses`, { message: 'x'.repeat(2001) }, volunteer.token)
        assert.deepEqual([res.status, res.body], [400, { error: 'message must be at most 2000 characters long' }])
        res = await t.request('POST', `/requests/${requestId}/responses`, { headers: { 'content-type': 'application/json' }, payload: '{"message":', token: volunteer.token })
        assert.deepEqual([res.status, res.body], [400, { error: 'invalid request body' }])
        res = await t.post(`/requests/${requestId}/responses`, [], volunteer.token)
        assert.deepEqual([res.status, res.body], [400, { error: 'invalid request body' }])
        res = await t.request('POST', `/requests/${requestId}/responses`, { headers: { 'content-type': 'application/json' }, payload: 'null', token: volunteer.token })
        assert.deepEqual([res.status, res.body], [400, { error: 'invalid request body' }])
        res = await t.post(`/requests/${requestId}/responses`, {})
        assert.deepEqual([res.status, res.body], [401, { error: 'unauthorized' }])
      })
    })

    describe('GET /requests/{id}/responses', () => {
      it('the requester and moderators see all, oldest first; others only their own', async () => {
        const { requester, volunteer, requestId } = await scene()
        const other = await t.register({ first_name: 'Otto', last_name: 'Other' })
        const stranger = await t.register()
        const first = await respond(t, requestId, volunteer)
        const second = await respond(t, requestId, other)

        const all = await responsesOf(requestId, requester.token)
        assert.deepEqual(all.map((r) => r.id), [first, second])
        assert.deepEqual(all.map((r) => r.volunteer_name), ['Vera Helper', 'Otto Other'])
        assert.deepEqual(await responsesOf(requestId, moderator.token), all)
        assert.deepEqual(await responsesOf(requestId, t.admin.token), all)
        assert.deepEqual(await responsesOf(requestId, volunteer.token), [all[0]])
        assert.deepEqual(await responsesOf(requestId, other.token), [all[1]])
        assert.deepEqual(await responsesOf(requestId, stranger.token), [])
      })

      it('a rejected request is 404 to anyone but its requester and moderators', async () => {
        const requester = await t.register()
        const created = await t.post('/requests', REQUEST_INPUT, requester.token)
        await t.post(`/moderation/requests/${created.body.id}/reject`, { comment: 'duplicate' }, moderator.token)
        assert.deepEqual(await responsesOf(created.body.id, requester.token), [])
        assert.deepEqual(await responsesOf(created.body.id, moderator.token), [])
        const res = await t.get(`/requests/${created.body.id}/responses`, (await t.register()).token)
        assert.deepEqual([res.status, res.body], [404, { error: 'request not found' }])
      })

      it('unknown and malformed ids; no token', async () => {
        const user = await t.register()
        let res = await t.get('/requests/999999999/responses', user.token)
        assert.deepEqual([res.status, res.body], [404, { error: 'request not found' }])
        res = await t.get('/requests/1.5/responses', user.token)
        assert.deepEqual([res.status, res.body], [400, { error: 'invalid request id' }])
        res = await t.get('/requests/1/responses')
        assert.deepEqual([res.status, res.body], [401, { error: 'unauthorized' }])
      })
    })

    describe('POST /requests/{id}/responses/{response_id}/accept', () => {
      it('accepts one, rejects the other pending ones and assigns the volunteer, in_progress', async () => {
        const { requester, volunteer, requestId } = await scene()
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
        const list = await responsesOf(requestId, requester.token)
        assert.deepEqual(list.map((r) => [r.id, r.status]), [[chosen, 'accepted'], [rest[0], 'rejected'], [rest[1], 'cancelled']])
        assert.match(String(list[0]!.accepted_at), ISO)
        assert.equal(list[0]!.rejected_at, null)
        assert.match(String(list[1]!.rejected_at), ISO)
        assert.equal(list[1]!.accepted_at, null)
        assert.equal(list[2]!.rejected_at, null)
        await assertConsistent(t, requester, requestId)
      })

      it('only the requester may accept', async () => {
        const { volunteer, requestId } = await scene()
        const responseId = await respond(t, requestId, volunteer)
        for (const caller of [volunteer, moderator, t.admin]) {
          const res = await t.post(`/requests/${requestId}/responses/${responseId}/accept`, undefined, caller.token)
          assert.deepEqual([res.status, res.body], [400, { error: 'only the requester can accept a response' }])
        }
      })

      it('the response must be pending and on this request: 404 response not found', async () => {
        const { requester, volunteer, requestId } = await scene()
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
        assert.equal((await responsesOf(requestId, requester.token)).find((r) => r.id === responseId)!.status, 'accepted')

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
        const { requester, requestId } = await scene()
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

    describe('POST /requests/{id}/responses/{response_id}/cancel (withdraw, beyond 1.0.1)', () => {
      it('withdraws a pending response', async () => {
        const { requester, volunteer, requestId } = await scene()
        const responseId = await respond(t, requestId, volunteer)
        const res = await t.post(`/requests/${requestId}/responses/${responseId}/cancel`, undefined, volunteer.token)
        assert.equal(res.status, 200)
        assert.equal(res.body.id, responseId)
        assert.equal(res.body.status, 'cancelled')
        assert.equal(res.body.volunteer_name, 'Vera Helper')
        assert.equal((await responsesOf(requestId, requester.token))[0]!.status, 'cancelled')
        assert.equal((await t.get(`/requests/${requestId}`, requester.token)).body.status, 'approved')
      })

      it('withdrawing the accepted response returns the request to approved with nobody assigned', async () => {
        const requester = await t.register()
        const volunteer = await t.register()
        const { requestId, responseId } = await assignedRequest(t, requester, moderator, volunteer)
        const res = await t.post(`/requests/${requestId}/responses/${responseId}/cancel`, undefined, volunteer.token)
        assert.equal(res.status, 200)
        assert.equal(res.body.status, 'cancelled')
        const request = await t.get(`/requests/${requestId}`, requester.token)
        assert.equal(request.body.status, 'approved')
        assert.equal(request.body.assigned_volunteer_id, null)
        await assertConsistent(t, requester, requestId)
        // The request is open again: others may respond, and the requester accept one of them.
        const next = await t.register()
        const nextResponse = await respond(t, requestId, next)
        assert.equal((await t.post(`/requests/${requestId}/responses/${nextResponse}/accept`, undefined, requester.token)).status, 200)
        assert.equal((await t.get(`/requests/${requestId}`, requester.token)).body.assigned_volunteer_id, next.id)
      })

      it('only the volunteer who responded; only open responses; not after completion', async () => {
        const { requester, volunteer, requestId } = await scene()
        const responseId = await respond(t, requestId, volunteer)
        for (const caller of [requester, moderator, await t.register()]) {
          const res = await t.post(`/requests/${requestId}/responses/${responseId}/cancel`, undefined, caller.token)
          assert.deepEqual([res.status, res.body], [400, { error: 'only the volunteer who responded can withdraw a response' }])
        }
        await t.post(`/requests/${requestId}/responses/${responseId}/cancel`, undefined, volunteer.token)
        let res = await t.post(`/requests/${requestId}/responses/${responseId}/cancel`, undefined, volunteer.token)
        assert.deepEqual([res.status, res.body], [400, { error: 'response is already cancelled' }])

        const rejected = await respond(t, requestId, volunteer)
        await t.post(`/requests/${requestId}/responses/${rejected}/reject`, undefined, requester.token)
        res = await t.post(`/requests/${requestId}/responses/${rejected}/cancel`, undefined, volunteer.token)
        assert.deepEqual([res.status, res.body], [400, { error: 'response is already rejected' }])

        const done = await assignedRequest(t, requester, moderator, volunteer)
        await t.post(`/requests/${done.requestId}/complete`, { rating: 5 }, requester.token)
        res = await t.post(`/requests/${done.requestId}/responses/${done.responseId}/cancel`, undefined, volunteer.token)
        assert.deepEqual([res.status, res.body], [400, { error: 'cannot withdraw from a completed request' }])
      })

      it('unknown responses, requests and malformed ids', async () => {
        const { volunteer, requestId } = await scene()
        const elsewhere = await respond(t, await approvedRequest(t, await t.register(), moderator), volunteer)
        for (const responseId of [elsewhere, 999999999]) {
          const res = await t.post(`/requests/${requestId}/responses/${responseId}/cancel`, undefined, volunteer.token)
          assert.deepEqual([res.status, res.body], [404, { error: 'response not found' }])
        }
        let res = await t.post(`/requests/999999999/responses/${elsewhere}/cancel`, undefined, volunteer.token)
        assert.deepEqual([res.status, res.body], [404, { error: 'request not found' }])
        res = await t.post(`/requests/${requestId}/responses/abc/cancel`, undefined, volunteer.token)
        assert.deepEqual([res.status, res.body], [400, { error: 'invalid response id' }])
        res = await t.post(`/requests/${requestId}/responses/1/cancel`)
        assert.deepEqual([res.status, res.body], [401, { error: 'unauthorized' }])
      })
    })

    describe('POST /requests/{id}/responses/{response_id}/reject (beyond 1.0.1)', () => {
      it('rejects a pending response; the request stays approved', async () => {
        const { requester, volunteer, requestId } = await scene()
        const responseId = await respond(t, requestId, volunteer)
        const res = await t.post(`/requests/${requestId}/responses/${responseId}/reject`, undefined, requester.token)
        assert.equal(res.status, 200)
        assert.equal(res.body.status, 'rejected')
        assert.match(res.body.rejected_at, ISO)
        assert.equal(res.body.accepted_at, null)
        assert.deepEqual(await responsesOf(requestId, volunteer.token), [res.body])
        assert.equal((await t.get(`/requests/${requestId}`, requester.token)).body.status, 'approved')
      })

      it('only the requester; only pending responses', async () => {
        const requester = await t.register()
        const volunteer = await t.register()
        const { requestId, responseId } = await assignedRequest(t, requester, moderator, volunteer)
        for (const caller of [volunteer, moderator]) {
          const res = await t.post(`/requests/${requestId}/responses/${responseId}/reject`, undefined, caller.token)
          assert.deepEqual([res.status, res.body], [400, { error: 'only the requester can reject a response' }])
        }
        let res = await t.post(`/requests/${requestId}/responses/${responseId}/reject`, undefined, requester.token)
        assert.deepEqual([res.status, res.body], [400, { error: 'response is already accepted' }])

        const other = await approvedRequest(t, requester, moderator)
        const once = await respond(t, other, volunteer)
        await t.post(`/requests/${other}/responses/${once}/reject`, undefined, requester.token)
        res = await t.post(`/requests/${other}/responses/${once}/reject`, undefined, requester.token)
        assert.deepEqual([res.status, res.body], [400, { error: 'response is already rejected' }])
      })

      it('unknown responses, requests and malformed ids', async () => {
        const { requester, requestId } = await scene()
        let res = await t.post(`/requests/${requestId}/responses/999999999/reject`, undefined, requester.token)
        assert.deepEqual([res.status, res.body], [404, { error: 'response not found' }])
        res = await t.post('/requests/999999999/responses/1/reject', undefined, requester.token)
        assert.deepEqual([res.status, res.body], [404, { error: 'request not found' }])
        res = await t.post(`/requests/${requestId}/responses/1.5/reject`, undefined, requester.token)
        assert.deepEqual([res.status, res.body], [400, { error: 'invalid response id' }])
        res = await t.post(`/requests/${requestId}/responses/1/reject`)
        assert.deepEqual([res.status, res.body], [401, { error: 'unauthorized' }])
      })
    })
  })
}
