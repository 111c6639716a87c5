import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { assertError } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'
import { approvedRequest, REQUEST_INPUT, respond, tally } from '../helpers/lifecycle.js'

/** Fields no notification may carry (docs/api/messaging.md › Notifications). */
const PRIVATE = /contact_phone|contact_notes|address|\+4930|Ring twice|Main Street/

for (const engine of engines()) {
  describe(`notifications (${engine})`, () => {
    let t: TestApp
    let moderator: Account
    before(async () => {
      t = await startApp(engine)
      moderator = await t.registerWithRole('moderator')
    })
    after(async () => { await t.close() })

    const inbox = async (user: Account, query = '') => {
      const res = await t.get(`/notifications${query}`, user.token)
      assert.equal(res.status, 200, res.text)
      for (const n of res.body) assert.doesNotMatch(JSON.stringify(n), PRIVATE)
      return res.body as Array<{ id: number, type: string, request_id: number, data: Record<string, unknown>, read_at: string | null }>
    }
    const created = async (requester: Account) => {
      const res = await t.post('/requests', { ...REQUEST_INPUT, contact_phone: '+4930123456', contact_notes: 'Ring twice' }, requester.token)
      assert.equal(res.status, 201, res.text)
      return res.body.id as number
    }

    it('moderation: request_approved {} and request_rejected {comment} to the requester', async () => {
      const requester = await t.register()
      const a = await created(requester)
      const b = await created(requester)
      assert.equal((await t.post(`/moderation/requests/${a}/approve`, {}, moderator.token)).status, 200)
      assert.equal((await t.post(`/moderation/requests/${b}/reject`, { comment: 'Please add a date' }, moderator.token)).status, 200)
      const list = await inbox(requester)
      assert.deepEqual(list.map((n) => [n.type, n.request_id, n.data]), [['request_rejected', b, { comment: 'Please add a date' }], ['request_approved', a, {}]])
      assert.deepEqual(await inbox(moderator), [])
    })

    it('responses: received, accepted, rejected (explicitly and by another accept), withdrawn, completed', async () => {
      const requester = await t.register()
      const [v1, v2, v3, v4] = [await t.register({ first_name: 'Ann', last_name: 'One' }), await t.register(), await t.register(), await t.register()]
      const requestId = await approvedRequest(t, requester, moderator)
      const r1 = await respond(t, requestId, v1)
      const r2 = await respond(t, requestId, v2)
      const r3 = await respond(t, requestId, v3)
      const r4 = await respond(t, requestId, v4)
      assert.equal((await t.post(`/requests/${requestId}/responses/${r3}/reject`, undefined, requester.token)).status, 200)
      assert.equal((await t.post(`/requests/${requestId}/responses/${r4}/cancel`, undefined, v4.token)).status, 200)
      assert.equal((await t.post(`/requests/${requestId}/responses/${r1}/accept`, undefined, requester.token)).status, 200)
      const mine = await inbox(requester)
      assert.deepEqual(mine.slice(0, 5).reverse().map((n) => [n.type, n.data]), [
        ['response_received', { response_id: r1, volunteer_name: 'Ann One', message: 'I can help' }],
        ['response_received', { response_id: r2, volunteer_name: 'Test User', message: 'I can help' }],
        ['response_received', { response_id: r3, volunteer_name: 'Test User', message: 'I can help' }],
        ['response_received', { response_id: r4, volunteer_name: 'Test User', message: 'I can help' }],
        ['response_withdrawn', { response_id: r4, was_accepted: false }],
      ])
      assert.deepEqual((await inbox(v1)).map((n) => [n.type, n.data]), [['response_accepted', { response_id: r1 }]])
      assert.deepEqual((await inbox(v2)).map((n) => [n.type, n.data]), [['response_rejected', { response_id: r2 }]])
      assert.deepEqual((await inbox(v3)).map((n) => [n.type, n.data]), [['response_rejected', { response_id: r3 }]])
      assert.deepEqual(await inbox(v4), [])
      // The accepted volunteer withdraws: the requester learns it was the accepted one.
      assert.equal((await t.post(`/requests/${requestId}/responses/${r1}/cancel`, undefined, v1.token)).status, 200)
      assert.deepEqual((await inbox(requester))[0]!.data, { response_id: r1, was_accepted: true })
      // Completion: the assigned volunteer gets the rating.
      const again = await respond(t, requestId, v2)
      assert.equal((await t.post(`/requests/${requestId}/responses/${again}/accept`, undefined, requester.token)).status, 200)
      assert.equal((await t.post(`/requests/${requestId}/complete`, { rating: 4 }, requester.token)).status, 200)
      const done = (await inbox(v2))[0]!
      assert.deepEqual([done.type, done.request_id, done.data], ['request_completed', requestId, { rating: 4 }])
    })

    it('cancel: the assigned volunteer and those with a pending offer; the requester too when a moderator cancels', async () => {
      const requester = await t.register()
      const [assigned, pending, withdrawn] = [await t.register(), await t.register(), await t.register()]
      const first = await approvedRequest(t, requester, moderator)
      await respond(t, first, assigned)
      await respond(t, first, pending)
      const gone = await respond(t, first, withdrawn)
      await t.post(`/requests/${first}/responses/${gone}/cancel`, undefined, withdrawn.token)
      assert.equal((await t.post(`/requests/${first}/cancel`, undefined, requester.token)).status, 200)
      assert.deepEqual((await inbox(assigned)).map((n) => [n.type, n.request_id, n.data]), [['request_cancelled', first, {}]])
      assert.deepEqual((await inbox(pending)).map((n) => n.type), ['request_cancelled'])
      assert.deepEqual(await inbox(withdrawn), [])
      assert.notEqual((await inbox(requester))[0]!.type, 'request_cancelled')
      // By a moderator, of an in_progress request.
      const second = await approvedRequest(t, requester, moderator)
      const accepted = await respond(t, second, assigned)
      await t.post(`/requests/${second}/responses/${accepted}/accept`, undefined, requester.token)
      assert.equal((await t.post(`/requests/${second}/cancel`, undefined, moderator.token)).status, 200)
      assert.deepEqual((await inbox(requester))[0]!.type, 'request_cancelled')
      assert.deepEqual((await inbox(assigned)).filter((n) => n.request_id === second).map((n) => n.type), ['request_cancelled', 'response_accepted'])
    })

    it('inbox: newest first, limit/before/unread_only clamped never 400, unread count, marking read, only one\'s own', async () => {
      const requester = await t.register()
      const other = await t.register()
      const ids: number[] = []
      for (let i = 0; i < 7; i++) ids.push(await approvedRequest(t, requester, moderator))
      await approvedRequest(t, other, moderator)
      const all = await inbox(requester)
      assert.equal(all.length, 7)
      assert.deepEqual(all.map((n) => n.request_id), [...ids].reverse())
      assert.ok(all.every((n, i) => i === 0 || n.id < all[i - 1]!.id))
      assert.deepEqual((await inbox(requester, '?limit=2')).map((n) => n.id), all.slice(0, 2).map((n) => n.id))
      for (const bad of ['0', '101', 'x', '-1', '2.5', '']) assert.equal((await inbox(requester, `?limit=${bad}`)).length, 7)
      assert.deepEqual((await inbox(requester, `?before=${all[2]!.id}&limit=2`)).map((n) => n.id), all.slice(3, 5).map((n) => n.id))
      for (const bad of ['x', '-5', '0']) assert.equal((await inbox(requester, `?before=${bad}`)).length, 7)
      assert.equal((await inbox(requester, '?limit=1&limit=2')).length, 7)
      assert.deepEqual((await t.get('/notifications/unread-count', requester.token)).body, { count: 7 })
      const marked = await t.post('/notifications/read', { up_to_id: all[3]!.id }, requester.token)
      assert.deepEqual(marked.body, { updated: 4 })
      assert.deepEqual((await t.post('/notifications/read', { up_to_id: all[3]!.id }, requester.token)).body, { updated: 0 })
      assert.deepEqual((await t.get('/notifications/unread-count', requester.token)).body, { count: 3 })
      assert.deepEqual((await inbox(requester, '?unread_only=true')).map((n) => n.id), all.slice(0, 3).map((n) => n.id))
      assert.equal((await inbox(requester, '?unread_only=maybe')).length, 7)
      assert.ok((await inbox(requester)).slice(3).every((n) => typeof n.read_at === 'string'))
      // Marking read never touches someone else's inbox.
      assert.deepEqual((await t.post('/notifications/read', { up_to_id: Number.MAX_SAFE_INTEGER }, requester.token)).body, { updated: 3 })
      assert.deepEqual((await t.get('/notifications/unread-count', other.token)).body, { count: 1 })
      for (const body of [{}, { up_to_id: 'x' }, { up_to_id: 1.5 }, { up_to_id: null }, { up_to_id: -1 }, [], undefined]) {
        assertError(await t.post('/notifications/read', body, requester.token), 400, 'invalid up_to_id')
      }
      assertError(await t.get('/notifications'), 401, 'unauthorized')
      assertError(await t.get('/notifications/unread-count'), 401, 'unauthorized')
      assertError(await t.post('/notifications/read', { up_to_id: 1 }), 401, 'unauthorized')
    })

    it('a change that rolls back notifies nobody: two accepts at once, one wins', async () => {
      const requester = await t.register()
      const volunteers = await Promise.all(Array.from({ length: 4 }, () => t.register()))
      const requestId = await approvedRequest(t, requester, moderator)
      const responses = []
      for (const volunteer of volunteers) responses.push(await respond(t, requestId, volunteer))
      const results = await Promise.all(responses.map((id) => t.post(`/requests/${requestId}/responses/${id}/accept`, undefined, requester.token)))
      assert.deepEqual(tally(results), { 200: 1, 400: 3 })
      const winner = results.findIndex((res) => res.status === 200)
      for (const [i, volunteer] of volunteers.entries()) {
        assert.deepEqual((await inbox(volunteer)).map((n) => n.type), [i === winner ? 'response_accepted' : 'response_rejected'])
      }
    })

    it('a change that fails at commit, after its notification was written, notifies nobody', async () => {
      const requester = await t.register()
      const requestId = await created(requester)
      // A deferred check fails the approval's transaction at COMMIT, after the notification was inserted.
      await t.db.query(`CREATE OR REPLACE FUNCTION fail_commit() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'refused at commit'; END $$`)
      await t.db.query(`CREATE CONSTRAINT TRIGGER fail_commit AFTER UPDATE ON requests DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW WHEN (NEW.id = ${requestId}) EXECUTE FUNCTION fail_commit()`)
      try {
        const res = await t.post(`/moderation/requests/${requestId}/approve`, {}, moderator.token)
        assert.equal(res.status, 500)
      } finally {
        await t.db.query('DROP TRIGGER fail_commit ON requests')
      }
      assert.deepEqual(await inbox(requester), [])
      assert.equal((await t.get(`/requests/${requestId}`, requester.token)).body.status, 'pending_moderation')
    })
  })
}
