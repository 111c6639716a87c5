import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'
import { createRequest, REQUEST_FIELDS, setStatus } from '../helpers/requests.js'

for (const engine of engines()) {
  describe(`POST /requests/{id}/cancel (${engine})`, () => {
    let t: TestApp
    let requester: Account, volunteer: Account, other: Account, moderator: Account, admin: Account
    before(async () => {
      t = await startApp(engine)
      requester = await t.register()
      volunteer = await t.register()
      other = await t.register()
      moderator = await t.registerWithRole('moderator')
      admin = await t.registerWithRole('admin')
    })
    after(() => t.close())

    const cancel = (id: number | string, token?: string) => t.post(`/requests/${id}/cancel`, undefined, token)
    const statusOf = async (id: number) => (await t.db.query<{ status: string }>('SELECT status FROM requests WHERE id = $1', [id]))[0]?.status

    for (const status of ['pending_moderation', 'approved', 'in_progress']) {
      it(`lets the requester cancel a request in ${status}`, async () => {
        const created = await createRequest(t, requester.token)
        await setStatus(t, created.id, status, status === 'in_progress' ? volunteer.id : null)
        const res = await cancel(created.id, requester.token)
        assert.equal(res.status, 200, res.text)
        assert.deepEqual(Object.keys(res.body).sort(), REQUEST_FIELDS)
        assert.equal(res.body.id, created.id)
        assert.equal(res.body.status, 'cancelled')
        assert.equal(res.body.cancel_reason, 'requester')
        assert.equal(res.body.contact_phone, '+4930123456')
        assert.ok(Date.parse(res.body.updated_at) >= Date.parse(created.updated_at))
        assert.equal(await statusOf(created.id), 'cancelled')
      })
    }

    it('cancels the request\'s pending and accepted responses with it, and leaves the others', async () => {
      const created = await createRequest(t, requester.token)
      await setStatus(t, created.id, 'in_progress', volunteer.id)
      // Responses are written with SQL: creating them is issue 4's feature.
      const helpers = await Promise.all([t.register(), t.register(), t.register()])
      await t.db.query(/* sql */ `
        INSERT INTO volunteer_responses (request_id, volunteer_id, status, accepted_at, rejected_at, cancelled_at) VALUES
          ($1, $2, 'accepted', now(), NULL, NULL), ($1, $3, 'pending', NULL, NULL, NULL),
          ($1, $4, 'rejected', NULL, now(), NULL), ($1, $5, 'cancelled', NULL, NULL, '2020-01-01T00:00:00Z')`,
      [created.id, volunteer.id, helpers[0].id, helpers[1].id, helpers[2].id])
      const res = await cancel(created.id, requester.token)
      assert.equal(res.status, 200)
      const rows = await t.db.query<{ volunteer_id: number, status: string, cancelled_at: Date | null }>(
        'SELECT volunteer_id, status, cancelled_at FROM volunteer_responses WHERE request_id = $1 ORDER BY id', [created.id])
      assert.deepEqual(rows.map((r) => r.status), ['cancelled', 'cancelled', 'rejected', 'cancelled'])
      assert.ok(rows[0]!.cancelled_at !== null && rows[1]!.cancelled_at !== null)
      assert.equal(rows[2]!.cancelled_at, null)
      assert.equal(new Date(rows[3]!.cancelled_at!).toISOString(), '2020-01-01T00:00:00.000Z')
    })

    for (const [who, pick] of [['a moderator', () => moderator], ['an admin', () => admin]] as const) {
      it(`lets ${who} cancel someone else's request`, async () => {
        const created = await createRequest(t, requester.token)
        await setStatus(t, created.id, 'approved')
        const res = await cancel(created.id, pick().token)
        assert.equal(res.status, 200)
        assert.equal(res.body.status, 'cancelled')
        assert.equal(res.body.cancel_reason, 'moderator')
      })
    }

    it('refuses anyone else, the assigned volunteer included', async () => {
      const created = await createRequest(t, requester.token)
      await setStatus(t, created.id, 'in_progress', volunteer.id)
      for (const account of [other, volunteer]) {
        const res = await cancel(created.id, account.token)
        assert.equal(res.status, 400)
        assert.deepEqual(res.body, { error: 'only the requester can cancel a request' })
      }
      assert.equal(await statusOf(created.id), 'in_progress')
    })

    for (const status of ['completed', 'cancelled', 'rejected']) {
      it(`refuses to cancel a ${status} request`, async () => {
        const created = await createRequest(t, requester.token)
        await setStatus(t, created.id, status)
        for (const account of [requester, moderator]) {
          const res = await cancel(created.id, account.token)
          assert.equal(res.status, 400)
          assert.deepEqual(res.body, { error: 'request cannot be cancelled in its current status' })
        }
        assert.equal(await statusOf(created.id), status)
      })
    }

    it('answers 404 for a request the caller may not see, or none at all', async () => {
      const created = await createRequest(t, requester.token)
      await setStatus(t, created.id, 'rejected')
      for (const id of [created.id, 987654321]) {
        const res = await cancel(id, other.token)
        assert.equal(res.status, 404)
        assert.deepEqual(res.body, { error: 'request not found' })
      }
    })

    it('answers 400 for a bad id and 401 without a token', async () => {
      const bad = await cancel('abc', requester.token)
      assert.equal(bad.status, 400)
      assert.deepEqual(bad.body, { error: 'invalid request id' })
      const anonymous = await cancel(1)
      assert.equal(anonymous.status, 401)
      assert.deepEqual(anonymous.body, { error: 'unauthorized' })
    })

    it('of two cancels at once, exactly one succeeds', async () => {
      const created = await createRequest(t, requester.token)
      await setStatus(t, created.id, 'approved')
      const results = await Promise.all([cancel(created.id, requester.token), cancel(created.id, moderator.token)])
      assert.deepEqual(results.map((r) => r.status).sort(), [200, 400])
      assert.deepEqual(results.find((r) => r.status === 400)?.body, { error: 'request cannot be cancelled in its current status' })
    })

    it('takes the request out of sight of other volunteers', async () => {
      const created = await createRequest(t, requester.token)
      await setStatus(t, created.id, 'approved')
      assert.equal((await t.get(`/requests/${created.id}`, other.token)).status, 200)
      await cancel(created.id, requester.token)
      assert.equal((await t.get(`/requests/${created.id}`, other.token)).status, 404)
      assert.equal((await t.get(`/requests/${created.id}`, requester.token)).body.status, 'cancelled')
    })

    it('is marked as an extension in the OpenAPI document', async () => {
      const res = await t.get('/openapi.json')
      const operation = res.body.paths['/api/v1/requests/{id}/cancel'].post
      assert.equal(operation['x-beyond-1.0.1'], true)
      assert.ok(operation.tags.includes('beyond-1.0.1'))
    })
  })
}
