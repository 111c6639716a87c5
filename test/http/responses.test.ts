import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { ISO_TIME } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'
import { assignedRequest, freshScene, REQUEST_INPUT, respond, responsesListed } from '../helpers/lifecycle.js'

for (const engine of engines()) {
  describe(`volunteer responses: offering help and the list of offers (${engine})`, () => {
    let t: TestApp
    let moderator: Account
    before(async () => {
      t = await startApp(engine)
      moderator = await t.registerWithRole('moderator')
    })
    after(() => t.close())

    describe('POST /requests/{id}/responses', () => {
      it('creates a pending response with the volunteer\'s name', async () => {
        const { volunteer, requestId } = await freshScene(t, moderator)
        const res = await t.post(`/requests/${requestId}/responses`, { message: 'I can come on Tuesday' }, volunteer.token)
        assert.equal(res.status, 201)
        assert.deepEqual(Object.keys(res.body).sort(),
          ['accepted_at', 'id', 'message', 'rejected_at', 'request_id', 'responded_at', 'status', 'suitable', 'volunteer', 'volunteer_id', 'volunteer_name'])
        assert.equal(typeof res.body.id, 'number')
        assert.equal(res.body.request_id, requestId)
        assert.equal(res.body.volunteer_id, volunteer.id)
        assert.equal(res.body.volunteer_name, 'Vera Helper')
        assert.equal(res.body.status, 'pending')
        assert.equal(res.body.message, 'I can come on Tuesday')
        assert.match(res.body.responded_at, ISO_TIME)
        assert.equal(res.body.accepted_at, null)
        assert.equal(res.body.rejected_at, null)
      })

      it('takes no body, an empty JSON body or a null message as an offer without a message', async () => {
        for (const options of [{}, { headers: { 'content-type': 'application/json' }, payload: '' }, { body: { message: null } }]) {
          const { volunteer, requestId } = await freshScene(t, moderator)
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
        const { requester, requestId } = await freshScene(t, moderator)
        const res = await t.post(`/requests/${requestId}/responses`, {}, requester.token)
        assert.equal(res.status, 400)
        assert.deepEqual(res.body, { error: 'cannot respond to own request' })
      })

      it('allows one open response per volunteer; after a withdrawal or a rejection they may respond again', async () => {
        const { requester, volunteer, requestId } = await freshScene(t, moderator)
        const first = await respond(t, requestId, volunteer)
        let res = await t.post(`/requests/${requestId}/responses`, {}, volunteer.token)
        assert.equal(res.status, 400)
        assert.deepEqual(res.body, { error: 'already responded to this request' })

        assert.equal((await t.post(`/requests/${requestId}/responses/${first}/cancel`, undefined, volunteer.token)).status, 200)
        const second = await respond(t, requestId, volunteer)
        assert.equal((await t.post(`/requests/${requestId}/responses/${second}/reject`, undefined, requester.token)).status, 200)
        res = await t.post(`/requests/${requestId}/responses`, {}, volunteer.token)
        assert.equal(res.status, 201)
        assert.equal((await responsesListed(t, requestId, volunteer.token)).length, 3)
      })

      it('needs permission respond_request: 403', async () => {
        const { requestId } = await freshScene(t, moderator)
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

        const { requestId } = await freshScene(t, moderator)
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
        const { requester, volunteer, requestId } = await freshScene(t, moderator)
        const other = await t.register({ first_name: 'Otto', last_name: 'Other' })
        const stranger = await t.register()
        const first = await respond(t, requestId, volunteer)
        const second = await respond(t, requestId, other)

        const all = await responsesListed(t, requestId, requester.token)
        assert.deepEqual(all.map((r) => r.id), [first, second])
        assert.deepEqual(all.map((r) => r.volunteer_name), ['Vera Helper', 'Otto Other'])
        assert.deepEqual(await responsesListed(t, requestId, moderator.token), all)
        assert.deepEqual(await responsesListed(t, requestId, t.admin.token), all)
        assert.deepEqual(await responsesListed(t, requestId, volunteer.token), [all[0]])
        assert.deepEqual(await responsesListed(t, requestId, other.token), [all[1]])
        assert.deepEqual(await responsesListed(t, requestId, stranger.token), [])
      })

      it('a rejected request is 404 to anyone but its requester and moderators', async () => {
        const requester = await t.register()
        const created = await t.post('/requests', REQUEST_INPUT, requester.token)
        await t.post(`/moderation/requests/${created.body.id}/reject`, { comment: 'duplicate' }, moderator.token)
        assert.deepEqual(await responsesListed(t, created.body.id, requester.token), [])
        assert.deepEqual(await responsesListed(t, created.body.id, moderator.token), [])
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
  })
}
