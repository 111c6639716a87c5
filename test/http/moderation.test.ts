import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'
import { createRequest, setStatus } from '../helpers/requests.js'

interface Record { status: string, moderated_by: number | null, moderated_at: Date | null, moderation_comment: string | null, updated_at: Date }

for (const engine of engines()) {
  describe(`moderation decisions (${engine})`, () => {
    let t: TestApp
    let requester: Account, volunteer: Account, moderator: Account, admin: Account
    before(async () => {
      t = await startApp(engine)
      requester = await t.register()
      volunteer = await t.register()
      moderator = await t.registerWithRole('moderator')
      admin = await t.registerWithRole('admin')
    })
    after(() => t.close())

    const pending = async () => (await createRequest(t, requester.token)).id as number
    const record = async (id: number) => (await t.db.query<Record>(
      'SELECT status, moderated_by, moderated_at, moderation_comment, updated_at FROM requests WHERE id = $1', [id]))[0]!
    const act = (id: number | string, action: string, body: unknown, token = moderator.token) =>
      t.post(`/moderation/requests/${id}/${action}`, body, token)
    const expectError = async (res: { status: number, body: unknown }, status: number, error: string) => {
      assert.equal(res.status, status, JSON.stringify(res.body))
      assert.deepEqual(res.body, { error })
    }

    it('approve with {} approves and records who and when', async () => {
      const id = await pending()
      const before = Date.now()
      const res = await act(id, 'approve', {})
      assert.equal(res.status, 200)
      assert.deepEqual(res.body, { status: 'approved' })
      const row = await record(id)
      assert.equal(row.status, 'approved')
      assert.equal(row.moderated_by, moderator.id)
      assert.equal(row.moderation_comment, null)
      assert.ok(new Date(row.moderated_at!).getTime() >= before - 1000)
      assert.ok(new Date(row.updated_at).getTime() >= before - 1000)
    })

    it('approve records an optional comment; a null or blank one is no comment', async () => {
      const id = await pending()
      assert.equal((await act(id, 'approve', { comment: 'Looks fine' })).status, 200)
      assert.equal((await record(id)).moderation_comment, 'Looks fine')
      const second = await pending()
      assert.equal((await act(second, 'approve', { comment: null })).status, 200)
      assert.equal((await record(second)).moderation_comment, null)
      const third = await pending()
      assert.equal((await act(third, 'approve', { comment: '   ' })).status, 200)
      assert.equal((await record(third)).moderation_comment, null)
    })

    it('approve refuses an empty or unreadable body and a comment that is not text', async () => {
      const id = await pending()
      await expectError(await act(id, 'approve', undefined), 400, 'invalid request body')
      for (const payload of ['{', '[]', '"yes"']) {
        const res = await t.request('POST', `/moderation/requests/${id}/approve`, { token: moderator.token, payload, headers: { 'content-type': 'application/json' } })
        await expectError(res, 400, 'invalid request body')
      }
      await expectError(await act(id, 'approve', { comment: 5 }), 400, 'comment must be of type string or null')
      await expectError(await act(id, 'approve', { comment: 'x'.repeat(2001) }), 400, 'comment must be at most 2000 characters long')
      assert.equal((await record(id)).status, 'pending_moderation')
    })

    it('reject needs a reason, records it and rejects', async () => {
      const id = await pending()
      for (const body of [{}, { comment: '' }, { comment: '   ' }, { comment: null }]) {
        await expectError(await act(id, 'reject', body), 400, 'comment is required when rejecting')
      }
      await expectError(await act(id, 'reject', undefined), 400, 'invalid request body')
      assert.equal((await record(id)).status, 'pending_moderation')
      const res = await act(id, 'reject', { comment: 'Please describe what is needed' })
      assert.equal(res.status, 200)
      assert.deepEqual(res.body, { status: 'rejected' })
      const row = await record(id)
      assert.equal(row.status, 'rejected')
      assert.equal(row.moderated_by, moderator.id)
      assert.equal(row.moderation_comment, 'Please describe what is needed')
      assert.ok(row.moderated_at !== null)
    })

    it('moderate approves or rejects in one operation', async () => {
      const first = await pending()
      const approved = await act(first, 'moderate', { action: 'approve' })
      assert.equal(approved.status, 200)
      assert.deepEqual(approved.body, { success: true, message: 'request approved' })
      assert.equal((await record(first)).status, 'approved')
      const second = await pending()
      const rejected = await act(second, 'moderate', { action: 'reject', comment: 'Duplicate' })
      assert.deepEqual(rejected.body, { success: true, message: 'request rejected' })
      const row = await record(second)
      assert.equal(row.status, 'rejected')
      assert.equal(row.moderation_comment, 'Duplicate')
      assert.equal(row.moderated_by, moderator.id)
      const third = await pending()
      assert.equal((await act(third, 'moderate', { action: 'approve', comment: 'Fine by me' })).status, 200)
      assert.equal((await record(third)).moderation_comment, 'Fine by me')
    })

    it('moderate refuses an unknown action and a rejection without a reason', async () => {
      const id = await pending()
      for (const body of [{}, { action: 'delete' }, { action: 'APPROVE' }, { action: 1 }, { action: null }]) {
        await expectError(await act(id, 'moderate', body), 400, 'action must be \'approve\' or \'reject\'')
      }
      for (const body of [{ action: 'reject' }, { action: 'reject', comment: '' }, { action: 'reject', comment: ' ' }, { action: 'reject', comment: null }]) {
        await expectError(await act(id, 'moderate', body), 400, 'comment is required when rejecting')
      }
      await expectError(await act(id, 'moderate', undefined), 400, 'invalid request body')
      assert.equal((await record(id)).status, 'pending_moderation')
    })

    for (const status of ['approved', 'in_progress', 'completed', 'cancelled', 'rejected']) {
      it(`refuses every decision on a request in ${status}`, async () => {
        const id = await pending()
        await setStatus(t, id, status, status === 'in_progress' || status === 'completed' ? volunteer.id : null)
        for (const [action, body] of [['approve', {}], ['reject', { comment: 'No' }], ['moderate', { action: 'approve' }], ['moderate', { action: 'reject', comment: 'No' }]] as const) {
          await expectError(await act(id, action, body), 400, 'request is not in pending_moderation status')
        }
        const row = await record(id)
        assert.equal(row.status, status)
        assert.equal(row.moderated_by, null)
      })
    }

    it('a decision is final: a second one is refused', async () => {
      const id = await pending()
      assert.equal((await act(id, 'approve', {})).status, 200)
      await expectError(await act(id, 'reject', { comment: 'Changed my mind' }, admin.token), 400, 'request is not in pending_moderation status')
      assert.equal((await record(id)).moderated_by, moderator.id)
    })

    it('nobody moderates their own request', async () => {
      const own = (await createRequest(t, moderator.token)).id as number
      for (const [action, body] of [['approve', {}], ['reject', { comment: 'No' }], ['moderate', { action: 'approve' }]] as const) {
        await expectError(await act(own, action, body), 400, 'cannot moderate own request')
      }
      const adminsOwn = (await createRequest(t, admin.token)).id as number
      await expectError(await act(adminsOwn, 'approve', {}, admin.token), 400, 'cannot moderate own request')
      assert.equal((await record(own)).status, 'pending_moderation')
      // Another moderator may.
      assert.equal((await act(own, 'approve', {}, admin.token)).status, 200)
    })

    it('admins moderate too', async () => {
      const id = await pending()
      const res = await act(id, 'reject', { comment: 'Not a request for help' }, admin.token)
      assert.equal(res.status, 200)
      assert.equal((await record(id)).moderated_by, admin.id)
    })

    it('volunteers get 403 and anonymous callers 401', async () => {
      const id = await pending()
      for (const [action, body] of [['approve', {}], ['reject', { comment: 'No' }], ['moderate', { action: 'approve' }]] as const) {
        await expectError(await act(id, action, body, volunteer.token), 403, 'moderator role required')
        await expectError(await act(id, action, body, requester.token), 403, 'moderator role required')
        await expectError(await t.post(`/moderation/requests/${id}/${action}`, body), 401, 'unauthorized')
      }
      assert.equal((await record(id)).status, 'pending_moderation')
    })

    it('answers 404 for an unknown request and 400 for a bad id', async () => {
      for (const [action, body] of [['approve', {}], ['reject', { comment: 'No' }], ['moderate', { action: 'approve' }]] as const) {
        await expectError(await act(987654321, action, body), 404, 'request not found')
        await expectError(await act('abc', action, body), 400, 'invalid request id')
      }
    })

    it('of two decisions at once, exactly one is taken', async () => {
      const id = await pending()
      const results = await Promise.all([
        act(id, 'approve', {}, moderator.token),
        act(id, 'reject', { comment: 'Too vague' }, admin.token),
      ])
      assert.deepEqual(results.map((r) => r.status).sort(), [200, 400])
      assert.deepEqual(results.find((r) => r.status === 400)?.body, { error: 'request is not in pending_moderation status' })
      const winner = results[0]!.status === 200 ? { status: 'approved', by: moderator.id } : { status: 'rejected', by: admin.id }
      const row = await record(id)
      assert.equal(row.status, winner.status)
      assert.equal(row.moderated_by, winner.by)
    })

    it('an approved request shows up in searches; a rejected one is hidden from other volunteers', async () => {
      const approved = await pending()
      await act(approved, 'approve', {})
      assert.equal((await t.get(`/requests/${approved}`, volunteer.token)).body.status, 'approved')
      const rejected = await pending()
      await act(rejected, 'reject', { comment: 'Spam' })
      await expectError(await t.get(`/requests/${rejected}`, volunteer.token), 404, 'request not found')
      assert.equal((await t.get(`/requests/${rejected}`, requester.token)).body.status, 'rejected')
    })
  })
}
