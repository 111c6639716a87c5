import assert from 'node:assert/strict'
import { after, before, beforeEach, describe, it } from 'node:test'
import { alertsOf, approvedAt, newPlace, RoundDriver, TEST_ALERTS, volunteerAt } from '../helpers/alerts.js'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { engines } from '../helpers/engines.js'
import { approvedRequest, assignedRequest, respond } from '../helpers/lifecycle.js'

/** docs/api/help.md › Volunteer responses, completion and ratings (who is offering, on every VolunteerResponse) and › Checks that vet volunteers, VOLUNTEER_CHECKS (offers and alerts). */

// 23:30 in Berlin on 15 January 2027 (UTC+1); midnight there is 23:00 UTC.
const START = new Date('2027-01-15T22:30:00Z')
const MINUTE_MS = 60_000
const NO_CHECKS = 'your checks do not allow offering help yet'

for (const engine of engines()) {
  describe(`VolunteerResponse.volunteer: the offering volunteer's trust signals (${engine})`, () => {
    let t: TestApp
    let moderator: Account
    before(async () => {
      t = await startApp(engine)
      moderator = await t.registerWithRole('moderator')
    })
    after(() => t.close())

    it('every route answering a VolunteerResponse carries the volunteer; the requester and moderators see all, a volunteer only their own', async () => {
      const helper = await t.register({ first_name: 'Vera', last_name: 'Helper' })
      const newcomer = await t.register({ first_name: 'Nina', last_name: 'New' })
      // Vera has helped once, rated 4, and holds identity and training checks.
      const earlier = await t.register()
      const { requestId: done } = await assignedRequest(t, earlier, moderator, helper)
      assertStatus(await t.post(`/requests/${done}/complete`, { rating: 4 }, earlier.token), 200)
      assertStatus(await t.post(`/admin/users/${helper.id}/checks`, { kind: 'training', valid_until: '2099-12-31', note: 'first aid' }, moderator.token), 201)
      assertStatus(await t.post(`/admin/users/${helper.id}/verify`, undefined, t.admin.token), 200)
      const memberSince = (await t.get('/users/me', helper.token)).body.created_at

      const requester = await t.register()
      const requestId = await approvedRequest(t, requester, moderator)
      const offered = await t.post(`/requests/${requestId}/responses`, { message: 'I can come' }, helper.token)
      assertStatus(offered, 201)
      const vera = { id: helper.id, first_name: 'Vera', volunteer_rating: 4, completed_requests_count: 1, is_verified: true, checks: ['identity', 'training'], member_since: memberSince }
      assert.deepEqual(offered.body.volunteer, vera)
      assert.doesNotMatch(JSON.stringify(offered.body.volunteer), /first aid|Helper|2099/, 'no note, check date or last name in the volunteer object')
      const ninaResponse = await respond(t, requestId, newcomer)
      const nina = { id: newcomer.id, first_name: 'Nina', volunteer_rating: null, completed_requests_count: 0, is_verified: false, checks: [], member_since: (await t.get('/users/me', newcomer.token)).body.created_at }

      for (const viewer of [requester, moderator, t.admin]) {
        const list = await t.get(`/requests/${requestId}/responses`, viewer.token)
        assertStatus(list, 200)
        assert.deepEqual(list.body.map((response: { volunteer: unknown }) => response.volunteer), [vera, nina])
      }
      // A volunteer sees only their own response, with the same object about themselves.
      assert.deepEqual((await t.get(`/requests/${requestId}/responses`, newcomer.token)).body.map((r: { volunteer: unknown }) => r.volunteer), [nina])
      assert.deepEqual((await t.get('/responses/my', newcomer.token)).body.map((r: { volunteer: unknown }) => r.volunteer), [nina])

      const rejected = await t.post(`/requests/${requestId}/responses/${ninaResponse}/reject`, undefined, requester.token)
      assertStatus(rejected, 200)
      assert.deepEqual(rejected.body.volunteer, nina)
      const withdrawn = await t.post(`/requests/${requestId}/responses/${offered.body.id}/cancel`, undefined, helper.token)
      assertStatus(withdrawn, 200)
      assert.deepEqual(withdrawn.body.volunteer, vera)
    })
  })

  describe(`VOLUNTEER_CHECKS=identity,background: offers and alerts (${engine})`, () => {
    const clock = new ManualClock(START)
    const checks = { required: ['identity', 'background'] as const, timeZone: 'Europe/Berlin' }
    let t: TestApp
    let moderator: Account
    before(async () => {
      t = await startApp(engine, { volunteerChecks: [...checks.required], timeZone: checks.timeZone, accessTokenTtlSeconds: 86400, alerts: TEST_ALERTS }, { alertTickMs: 0, clock })
      moderator = await t.registerWithRole('moderator')
    })
    beforeEach(() => { clock.set(START) })
    after(() => t.close())

    const check = async (account: Account, kind: string, validUntil: string | null = null): Promise<number> => {
      const res = await t.post(`/admin/users/${account.id}/checks`, { kind, valid_until: validUntil }, moderator.token)
      assertStatus(res, 201)
      return res.body.id
    }

    it('a volunteer without a valid check of every listed kind cannot offer help', async () => {
      const requester = await t.register()
      const requestId = await approvedRequest(t, requester, moderator)
      const volunteer = await t.register()
      assertError(await t.post(`/requests/${requestId}/responses`, {}, volunteer.token), 400, NO_CHECKS)
      await check(volunteer, 'identity')
      await check(volunteer, 'training')
      assertError(await t.post(`/requests/${requestId}/responses`, {}, volunteer.token), 400, NO_CHECKS)
      const background = await check(volunteer, 'background')
      const responseId = await respond(t, requestId, volunteer)
      // Revoked: the pending offer stays, no new one can be made.
      assertStatus(await t.post(`/admin/users/${volunteer.id}/checks/${background}/revoke`, undefined, moderator.token), 200)
      const other = await approvedRequest(t, requester, moderator)
      assertError(await t.post(`/requests/${other}/responses`, {}, volunteer.token), 400, NO_CHECKS)
      const list = await t.get(`/requests/${requestId}/responses`, requester.token)
      assert.deepEqual(list.body.map((r: { id: number, status: string }) => [r.id, r.status]), [[responseId, 'pending']])
      // The refusal is the volunteer's alone: they may still search, and one with no checks at all goes on duty.
      assertStatus(await t.get('/requests/nearby?lat=52.52&lon=13.405&radius=5000', volunteer.token), 200)
      const unchecked = await t.register()
      const duty = await t.request('PUT', '/users/me/availability', { body: { on_duty: true, latitude: 52.52, longitude: 13.405 }, token: unchecked.token })
      assertStatus(duty, 200)
      assert.equal(duty.body.on_duty, true)
    })

    it('a check that runs out at midnight in TIME_ZONE stops new offers; the pending one stays', async () => {
      const requester = await t.register()
      const volunteer = await t.register()
      await check(volunteer, 'identity')
      await check(volunteer, 'background', '2027-01-15')
      const first = await approvedRequest(t, requester, moderator)
      const second = await approvedRequest(t, requester, moderator)
      const responseId = await respond(t, first, volunteer)
      clock.advance(31 * MINUTE_MS) // 00:01 on the 16th in Berlin, still the 15th in UTC
      assertError(await t.post(`/requests/${second}/responses`, {}, volunteer.token), 400, NO_CHECKS)
      const mine = await t.get('/responses/my', volunteer.token)
      assert.deepEqual(mine.body.map((r: { id: number, status: string }) => [r.id, r.status]), [[responseId, 'pending']])
    })

    it('only volunteers holding every listed check, valid on the round\'s day, are alerted', async () => {
      const place = newPlace()
      const vetted = await volunteerAt(t, place, 300)
      const unvetted = await volunteerAt(t, place, 50)
      const identityOnly = await volunteerAt(t, place, 100)
      const lapsing = await volunteerAt(t, place, 150)
      const revoked = await volunteerAt(t, place, 200)
      for (const account of [vetted, identityOnly, lapsing, revoked]) await check(account, 'identity')
      await check(vetted, 'background', '2027-01-16')
      await check(lapsing, 'background', '2027-01-15')
      const revokedCheck = await check(revoked, 'background')
      assertStatus(await t.post(`/admin/users/${revoked.id}/checks/${revokedCheck}/revoke`, undefined, moderator.token), 200)
      const rounds = new RoundDriver(t, TEST_ALERTS, undefined, clock, checks)
      const requester = await t.register()
      clock.advance(31 * MINUTE_MS) // the 16th in Berlin: `lapsing`'s background check has run out
      const requestId = await approvedAt(t, place, requester, moderator)
      // Rounds of the file's other requests may be due too.
      assert.ok(await rounds.run() >= 1)
      assert.equal((await alertsOf(t, vetted, requestId)).length, 1)
      for (const account of [unvetted, identityOnly, lapsing, revoked]) assert.deepEqual(await alertsOf(t, account, requestId), [])
    })
  })
}
