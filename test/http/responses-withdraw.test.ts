import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { ISO_TIME } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'
import { approvedRequest, assertConsistent, freshScene, responsesListed, assignedRequest, respond } from '../helpers/lifecycle.js'

for (const engine of engines()) {
  describe(`volunteer responses: withdrawal and rejection (${engine})`, () => {
    let t: TestApp
    let moderator: Account
    before(async () => {
      t = await startApp(engine)
      moderator = await t.registerWithRole('moderator')
    })
    after(() => t.close())

    describe('POST /requests/{id}/responses/{response_id}/cancel (withdraw, beyond 1.0.1)', () => {
      it('withdraws a pending response', async () => {
        const { requester, volunteer, requestId } = await freshScene(t, moderator)
        const responseId = await respond(t, requestId, volunteer)
        const res = await t.post(`/requests/${requestId}/responses/${responseId}/cancel`, undefined, volunteer.token)
        assert.equal(res.status, 200)
        assert.equal(res.body.id, responseId)
        assert.equal(res.body.status, 'cancelled')
        assert.equal(res.body.volunteer_name, 'Vera Helper')
        assert.equal((await responsesListed(t, requestId, requester.token))[0]!.status, 'cancelled')
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
        const { requester, volunteer, requestId } = await freshScene(t, moderator)
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
        const { volunteer, requestId } = await freshScene(t, moderator)
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
        const { requester, volunteer, requestId } = await freshScene(t, moderator)
        const responseId = await respond(t, requestId, volunteer)
        const res = await t.post(`/requests/${requestId}/responses/${responseId}/reject`, undefined, requester.token)
        assert.equal(res.status, 200)
        assert.equal(res.body.status, 'rejected')
        assert.match(res.body.rejected_at, ISO_TIME)
        assert.equal(res.body.accepted_at, null)
        assert.deepEqual(await responsesListed(t, requestId, volunteer.token), [res.body])
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
        const { requester, requestId } = await freshScene(t, moderator)
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
