import assert from 'node:assert/strict'
import { after, before, beforeEach, describe, it } from 'node:test'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { engines } from '../helpers/engines.js'

/**
 * docs/api/accounts.md › Checks that vet volunteers: checks recorded, listed and revoked by moderators and admins; valid through the whole of
 * valid_until in TIME_ZONE; is_verified and UserProfile.checks derived from them, with no one writing.
 */

// 23:30 in Berlin (UTC+1 in January) on 15 January 2027; in UTC it is still the 15th until 24:00.
const START = new Date('2027-01-15T22:30:00Z')
const MINUTE_MS = 60_000

for (const engine of engines()) {
  describe(`checks: record, list, revoke, validity in TIME_ZONE (${engine})`, () => {
    const clock = new ManualClock(START)
    let t: TestApp
    let moderator: Account
    before(async () => {
      // Tokens live a day, so that tests moving the clock by minutes keep theirs.
      t = await startApp(engine, { timeZone: 'Europe/Berlin', accessTokenTtlSeconds: 86400 }, { alertTickMs: 0, clock })
      moderator = await t.registerWithRole('moderator')
    })
    beforeEach(() => { clock.set(START) })
    after(() => t.close())

    const record = (userId: number, body: unknown, token = moderator.token) => t.post(`/admin/users/${userId}/checks`, body, token)
    const profile = async (account: Account, viewer: Account = account) => {
      const res = await t.get(`/users/${account.id}`, viewer.token)
      assertStatus(res, 200)
      return res.body as { is_verified: boolean, checks: string[] }
    }

    it('a moderator records a check: 201 with every field; an admin may too', async () => {
      const volunteer = await t.register()
      const res = await record(volunteer.id, { kind: 'background', note: 'DBS certificate seen', valid_until: '2027-06-30' })
      assertStatus(res, 201)
      assert.deepEqual(res.body, {
        id: res.body.id,
        user_id: volunteer.id,
        kind: 'background',
        note: 'DBS certificate seen',
        valid_until: '2027-06-30',
        verified_by: moderator.id,
        verified_by_name: 'Test User',
        verified_at: START.toISOString(),
        revoked_at: null,
      })
      const byAdmin = await record(volunteer.id, { kind: 'identity' }, t.admin.token)
      assertStatus(byAdmin, 201)
      assert.deepEqual([byAdmin.body.valid_until, byAdmin.body.note, byAdmin.body.verified_by], [null, null, t.admin.id])
      assert.equal(typeof byAdmin.body.verified_by_name, 'string')
    })

    it('refuses callers without the role, unknown users and checks, bad kinds and dates with the exact texts', async () => {
      const volunteer = await t.register()
      const { body: check } = await record(volunteer.id, { kind: 'training' })
      for (const caller of [volunteer, await t.register()]) {
        assertError(await record(volunteer.id, { kind: 'identity' }, caller.token), 403, 'moderator role required')
        assertError(await t.get(`/admin/users/${volunteer.id}/checks`, caller.token), 403, 'moderator role required')
        assertError(await t.post(`/admin/users/${volunteer.id}/checks/${check.id}/revoke`, undefined, caller.token), 403, 'moderator role required')
      }
      assertError(await t.get(`/admin/users/${volunteer.id}/checks`), 401, 'unauthorized')
      assertError(await record(987654321, { kind: 'identity' }), 404, 'user not found')
      assertError(await t.get('/admin/users/987654321/checks', moderator.token), 404, 'user not found')
      assertError(await t.post(`/admin/users/987654321/checks/${check.id}/revoke`, undefined, moderator.token), 404, 'user not found')
      assertError(await t.post(`/admin/users/${volunteer.id}/checks/987654321/revoke`, undefined, moderator.token), 404, 'check not found')
      // A check of someone else is not found under this user.
      assertError(await t.post(`/admin/users/${moderator.id}/checks/${check.id}/revoke`, undefined, moderator.token), 404, 'check not found')
      for (const body of [{ kind: 'passport' }, { kind: 'IDENTITY' }, { kind: 5 }, { kind: null }, {}, { note: 'no kind' }]) {
        assertError(await record(volunteer.id, body), 400, 'invalid kind')
      }
      // 14 January is yesterday in Berlin; 30 February does not exist.
      for (const validUntil of ['2027-01-14', '2027-02-30', 'next year', '2027-1-31', '15.01.2027', 20270131, true]) {
        assertError(await record(volunteer.id, { kind: 'reference', valid_until: validUntil }), 400, 'invalid valid_until')
      }
      assertError(await record(volunteer.id, { kind: 'reference', note: 'x'.repeat(501) }), 400, 'note must be at most 500 characters')
      assertStatus(await record(volunteer.id, { kind: 'reference', note: 'x'.repeat(500), valid_until: '2027-01-15' }), 201)
      assertError(await t.post(`/admin/users/${volunteer.id}/checks/0/revoke`, undefined, moderator.token), 400, 'invalid check id')
    })

    it('GET lists every check newest first, revoked ones included; revoking twice answers the same check', async () => {
      const volunteer = await t.register()
      const first = (await record(volunteer.id, { kind: 'identity' })).body
      clock.advance(MINUTE_MS)
      const second = (await record(volunteer.id, { kind: 'training', valid_until: '2027-03-01' })).body
      clock.advance(MINUTE_MS)
      const revoked = await t.post(`/admin/users/${volunteer.id}/checks/${first.id}/revoke`, undefined, moderator.token)
      assertStatus(revoked, 200)
      assert.deepEqual(revoked.body, { ...first, revoked_at: new Date(START.getTime() + 2 * MINUTE_MS).toISOString() })
      clock.advance(MINUTE_MS)
      assert.deepEqual((await t.post(`/admin/users/${volunteer.id}/checks/${first.id}/revoke`, undefined, t.admin.token)).body, revoked.body)
      const list = await t.get(`/admin/users/${volunteer.id}/checks`, moderator.token)
      assertStatus(list, 200)
      assert.deepEqual(list.body, [second, revoked.body])
      assert.deepEqual(await profile(volunteer), { ...await profile(volunteer), is_verified: false, checks: ['training'] })
    })

    it('a check is valid through the whole of valid_until in TIME_ZONE, then stops counting without anyone writing', async () => {
      const volunteer = await t.register()
      const other = await t.register()
      assertStatus(await record(volunteer.id, { kind: 'identity', valid_until: '2027-01-15' }), 201)
      assertStatus(await record(volunteer.id, { kind: 'background', valid_until: '2027-01-16' }), 201)
      let seen = await profile(volunteer, other)
      assert.deepEqual([seen.is_verified, seen.checks], [true, ['identity', 'background']])
      clock.advance(29 * MINUTE_MS) // 23:59 in Berlin
      seen = await profile(volunteer, other)
      assert.deepEqual([seen.is_verified, seen.checks], [true, ['identity', 'background']])
      // 23:00 UTC, still the 15th in UTC, but midnight in Berlin: the identity check has run out.
      clock.advance(MINUTE_MS)
      seen = await profile(volunteer, other)
      assert.deepEqual([seen.is_verified, seen.checks], [false, ['background']])
      assert.equal((await t.get('/users/me', volunteer.token)).body.is_verified, false)
      // The expired check is still listed, unrevoked.
      const list = (await t.get(`/admin/users/${volunteer.id}/checks`, moderator.token)).body as Array<{ kind: string, revoked_at: string | null }>
      assert.deepEqual(list.map((check) => [check.kind, check.revoked_at]), [['background', null], ['identity', null]])
    })

    it('UserProfile.checks: each valid kind once, in the order identity, background, training, reference, shown to anyone without notes or dates', async () => {
      const volunteer = await t.register()
      for (const kind of ['reference', 'training', 'background', 'background', 'identity']) {
        assertStatus(await record(volunteer.id, { kind, note: 'private note', valid_until: '2027-12-31' }), 201)
      }
      const res = await t.get(`/users/${volunteer.id}`, (await t.register()).token)
      assert.deepEqual([res.body.is_verified, res.body.checks], [true, ['identity', 'background', 'training', 'reference']])
      assert.doesNotMatch(res.text, /private note|2027-12-31/)
    })

    it('verify records an identity check without expiry (once); unverify revokes every valid identity check', async () => {
      const volunteer = await t.register()
      assertStatus(await record(volunteer.id, { kind: 'identity', valid_until: '2027-05-01' }), 201)
      assertStatus(await t.post(`/admin/users/${volunteer.id}/verify`, undefined, t.admin.token), 200)
      assertStatus(await t.post(`/admin/users/${volunteer.id}/verify`, undefined, t.admin.token), 200)
      let list = (await t.get(`/admin/users/${volunteer.id}/checks`, moderator.token)).body as Array<Record<string, unknown>>
      assert.deepEqual(list.map((check) => [check.kind, check.valid_until, check.verified_by, check.revoked_at]),
        [['identity', null, t.admin.id, null], ['identity', '2027-05-01', moderator.id, null]])
      const found = await t.get(`/admin/users?q=${encodeURIComponent(volunteer.email)}`, t.admin.token)
      assert.equal(found.body[0].is_verified, true)

      const res = await t.post(`/admin/users/${volunteer.id}/unverify`, undefined, t.admin.token)
      assertStatus(res, 200)
      assert.deepEqual(res.body, { message: 'user unverified' })
      list = (await t.get(`/admin/users/${volunteer.id}/checks`, moderator.token)).body
      assert.ok(list.every((check) => check.revoked_at === START.toISOString()))
      assert.equal((await profile(volunteer)).is_verified, false)
      assert.equal((await t.get(`/admin/users?q=${encodeURIComponent(volunteer.email)}`, t.admin.token)).body[0].is_verified, false)
      assertError(await t.post(`/admin/users/${volunteer.id}/unverify`, undefined, moderator.token), 403, 'admin role required')
      assertError(await t.post('/admin/users/987654321/unverify', undefined, t.admin.token), 404, 'user not found')
    })

    it('erasure keeps the checks as a record, revoked and without notes; an erased account cannot get new ones', async () => {
      const volunteer = await t.register()
      assertStatus(await record(volunteer.id, { kind: 'background', note: 'certificate 12345', valid_until: '2027-09-01' }), 201)
      assertStatus(await t.request('DELETE', '/users/me', { token: volunteer.token, body: { password: volunteer.password } }), 200)
      const list = await t.get(`/admin/users/${volunteer.id}/checks`, moderator.token)
      assertStatus(list, 200)
      assert.deepEqual(list.body.map((check: Record<string, unknown>) => [check.kind, check.note, check.valid_until, check.revoked_at]),
        [['background', null, '2027-09-01', START.toISOString()]])
      assertError(await record(volunteer.id, { kind: 'identity' }), 404, 'user not found')
      assertError(await t.post(`/admin/users/${volunteer.id}/verify`, undefined, t.admin.token), 404, 'user not found')
    })
  })
}
