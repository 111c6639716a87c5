import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { loadConfig } from '../../src/config.js'
import { AlertService } from '../../src/help/alerts/alerts.service.js'
import { changesOn } from '../../src/areas.js'
import { ScheduleJobs } from '../../src/regular-help/schedule/schedule-jobs.js'
import { newPlace, TEST_ALERTS, volunteerAt, type Place } from '../helpers/alerts.js'
import { startApp, startSecondInstance, TEST_SECRET, type Account, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { engines } from '../helpers/engines.js'
import { requestInput } from '../helpers/requests.js'

/**
 * docs/api/schedule.md › Confirmation, reminders, expiry through HTTP, the clock moved by the tests: the volunteer asked to confirm the day before,
 * the deadline's withdrawal with urgent rounds, reminders, expiry, "still needed?", "please complete"; each
 * message once across two instances running at once, and none for a request whose state changed.
 * Settings are the defaults: confirm 24 h before, deadline 12 h before, reminder 120 min before, stale after 14 days.
 */

const MINUTE_MS = 60_000
const HOUR_MS = 60 * MINUTE_MS
const DAY_MS = 24 * HOUR_MS
const SETTINGS = loadConfig({ JWT_SECRET: TEST_SECRET }).schedule

interface Notice { type: string, request_id: number | null, data: Record<string, unknown> }

for (const engine of engines()) {
  describe(`schedule jobs: confirmation, deadline, reminders, expiry, still needed (${engine})`, () => {
    const clock = new ManualClock()
    let t: TestApp
    let jobs: ScheduleJobs
    before(async () => {
      t = await startApp(engine, {}, { alertTickMs: 0, clock })
      jobs = new ScheduleJobs(changesOn(t.db, clock), SETTINGS, clock)
    })
    after(() => t.close())

    /** Tokens live 15 minutes of the moved clock: each call signs in again at its time. */
    async function token (account: Account): Promise<string> {
      const login = await t.post('/auth/login', { email: account.email, password: account.password })
      assertStatus(login, 200)
      return login.body.access_token
    }

    async function notices (account: Account, requestId: number, type?: string): Promise<Notice[]> {
      const res = await t.get<Notice[]>('/notifications?limit=100', await token(account))
      assertStatus(res, 200)
      return res.body.filter((n) => n.request_id === requestId && (type === undefined || n.type === type))
    }

    const types = async (account: Account, requestId: number): Promise<string[]> => (await notices(account, requestId)).map((n) => n.type).sort()

    /** An approved request by `requester`, with a window starting `hours` from now (an hour long) unless `window` is false. */
    async function approved (requester: Account, hours: number | false, place: Place = newPlace()): Promise<{ id: number, start: string }> {
      const start = new Date(clock.now().getTime() + (hours === false ? 0 : hours * HOUR_MS))
      const window = hours === false ? {} : { window_start: start.toISOString(), window_end: new Date(start.getTime() + HOUR_MS).toISOString() }
      const created = await t.post('/requests', requestInput({ ...place, ...window }), await token(requester))
      assertStatus(created, 201)
      assertStatus(await t.post(`/moderation/requests/${created.body.id}/approve`, {}, await token(t.admin)), 200)
      return { id: created.body.id, start: start.toISOString() }
    }

    /** `volunteer` offers and the requester accepts: in_progress. */
    async function assign (requestId: number, requester: Account, volunteer: Account): Promise<void> {
      const offer = await t.post(`/requests/${requestId}/responses`, {}, await token(volunteer))
      assertStatus(offer, 201)
      assertStatus(await t.post(`/requests/${requestId}/responses/${offer.body.id}/accept`, undefined, await token(requester)), 200)
    }

    const detail = async (account: Account, id: number) => (await t.get(`/requests/${id}`, await token(account))).body

    it('asks the volunteer once; a confirmation tells the requester and keeps them; reminders and please_complete once', async () => {
      clock.set(new Date())
      const [requester, volunteer] = [await t.register(), await t.register()]
      const { id, start } = await approved(requester, 30)
      await assign(id, requester, volunteer)
      await jobs.runOnce()
      assert.deepEqual(await notices(volunteer, id, 'confirm_needed'), [], '30 h ahead: not yet')
      clock.advance(7 * HOUR_MS)
      await jobs.runOnce()
      await jobs.runOnce()
      assert.deepEqual((await notices(volunteer, id, 'confirm_needed')).map((n) => n.data), [{ window_start: start }])

      assertError(await t.post(`/requests/${id}/confirm`, undefined, await token(requester)), 400, 'only the assigned volunteer can confirm')
      const confirmed = await t.post(`/requests/${id}/confirm`, undefined, await token(volunteer))
      assertStatus(confirmed, 200)
      assert.equal(confirmed.body.confirmed_at, clock.now().toISOString())
      assert.equal(confirmed.body.contact_phone, requestInput().contact_phone, 'the assigned volunteer sees the contact details')
      assertStatus(await t.post(`/requests/${id}/confirm`, undefined, await token(volunteer)), 200)
      assert.deepEqual((await notices(requester, id, 'volunteer_confirmed')).map((n) => n.data), [{ window_start: start }], 'told once')

      clock.advance(12 * HOUR_MS) // 11 h before: past the deadline, but confirmed
      await jobs.runOnce()
      assert.equal((await detail(requester, id)).status, 'in_progress')
      clock.advance(9 * HOUR_MS + MINUTE_MS) // 119 minutes before
      await jobs.runOnce()
      await jobs.runOnce()
      for (const account of [requester, volunteer]) assert.equal((await notices(account, id, 'reminder')).length, 1)
      clock.advance(51 * HOUR_MS - 2 * MINUTE_MS) // a minute short of 48 h after the window's end
      await jobs.runOnce()
      assert.deepEqual(await notices(requester, id, 'please_complete'), [])
      clock.advance(2 * MINUTE_MS)
      await jobs.runOnce()
      await jobs.runOnce()
      assert.equal((await notices(requester, id, 'please_complete')).length, 1)
      assert.deepEqual(await types(volunteer, id), ['confirm_needed', 'reminder', 'response_accepted'])
    })

    it('withdraws an unconfirmed volunteer at the deadline, tells both, and alerts at the urgent interval; a later acceptance stays', async () => {
      clock.set(new Date())
      const place = newPlace()
      const [requester, volunteer] = [await t.register(), await t.register()]
      const { id } = await approved(requester, 30, place)
      await assign(id, requester, volunteer)
      clock.advance(7 * HOUR_MS)
      await jobs.runOnce() // asked
      const [near, far] = [await volunteerAt(t, place, 100), await volunteerAt(t, place, 2000)]
      clock.advance(11 * HOUR_MS - MINUTE_MS)
      await jobs.runOnce()
      assert.equal((await detail(requester, id)).status, 'in_progress', 'a minute before the deadline, 12 h before the start')
      clock.advance(MINUTE_MS)
      await jobs.runOnce()
      await jobs.runOnce()
      const back = await detail(requester, id)
      assert.deepEqual([back.status, back.assigned_volunteer, back.confirmed_at], ['approved', null, null])
      const responses = await t.get(`/requests/${id}/responses`, await token(requester))
      assert.deepEqual(responses.body.map((r: { status: string }) => r.status), ['cancelled'])
      assert.equal((await notices(requester, id, 'confirmation_missed')).length, 1)
      assert.equal((await notices(volunteer, id, 'confirmation_missed')).length, 1)
      assert.deepEqual(await notices(requester, id, 'response_withdrawn'), [], 'told by confirmation_missed instead')
      assertError(await t.post(`/requests/${id}/confirm`, undefined, await token(volunteer)), 400, 'only the assigned volunteer can confirm')

      // One volunteer a round: the second round follows the first after the urgent 60 s, not medium's 300 s.
      const rounds = new AlertService(changesOn(t.db, clock), { ...TEST_ALERTS, batch: 1 }, clock)
      await rounds.runDue()
      assert.equal((await notices(near, id, 'request_alert')).length, 1)
      clock.advance(61_000)
      await rounds.runDue()
      assert.equal((await notices(far, id, 'request_alert')).length, 1, 'round 2 ran at the urgent interval')

      // Accepted after the deadline: not asked, not withdrawn; may still confirm.
      await assign(id, requester, far)
      await jobs.runOnce()
      assert.equal((await detail(requester, id)).status, 'in_progress')
      assert.deepEqual(await notices(far, id, 'confirm_needed'), [])
      assertStatus(await t.post(`/requests/${id}/confirm`, undefined, await token(far)), 200)
    })

    it('expires an approved request whose window began untaken: cancelled as expired, offers closed, the requester told once', async () => {
      clock.set(new Date())
      const [requester, volunteer] = [await t.register(), await t.register()]
      const { id, start } = await approved(requester, 5)
      assertStatus(await t.post(`/requests/${id}/responses`, {}, await token(volunteer)), 201)
      clock.advance(5 * HOUR_MS - MINUTE_MS)
      await jobs.runOnce()
      assert.equal((await detail(requester, id)).status, 'approved')
      clock.advance(MINUTE_MS)
      await jobs.runOnce()
      await jobs.runOnce()
      const expired = await detail(requester, id)
      assert.deepEqual([expired.status, expired.cancel_reason], ['cancelled', 'expired'])
      assert.deepEqual(await types(requester, id), ['request_approved', 'request_expired', 'response_received'])
      assert.deepEqual((await notices(requester, id, 'request_expired')).map((n) => n.data), [{ window_start: start }])
      assert.equal((await notices(volunteer, id, 'request_cancelled')).length, 1, 'the pending offer closed as a cancel closes it')
    })

    it('asks "still needed?" after 14 days; an answer keeps it (asked again 14 days later), silence cancels it as expired', async () => {
      clock.set(new Date())
      const [requester, stranger] = [await t.register(), await t.register()]
      const kept = (await approved(requester, false)).id
      const silent = (await approved(requester, false)).id
      clock.advance(14 * DAY_MS - MINUTE_MS)
      await jobs.runOnce()
      assert.deepEqual(await notices(requester, kept, 'still_needed'), [])
      clock.advance(2 * MINUTE_MS)
      await jobs.runOnce()
      await jobs.runOnce()
      for (const id of [kept, silent]) assert.deepEqual((await notices(requester, id, 'still_needed')).map((n) => n.data), [{ window_start: null }])

      assertError(await t.post(`/requests/${kept}/still-needed`, undefined, await token(stranger)), 400, 'only the requester can say a request is still needed')
      const answer = await t.post(`/requests/${kept}/still-needed`, undefined, await token(requester))
      assertStatus(answer, 200)
      assert.equal(answer.body.status, 'approved')
      clock.advance(3 * DAY_MS)
      await jobs.runOnce()
      assert.equal((await detail(requester, kept)).status, 'approved')
      const gone = await detail(requester, silent)
      assert.deepEqual([gone.status, gone.cancel_reason], ['cancelled', 'expired'])
      assert.equal((await notices(requester, silent, 'request_expired')).length, 1)
      assertError(await t.post(`/requests/${silent}/still-needed`, undefined, await token(requester)), 400, 'request is not approved')
      assertError(await t.post(`/requests/${silent}/still-needed`, undefined, await token(stranger)), 404, 'request not found')

      clock.advance(11 * DAY_MS) // 14 days after the answer
      await jobs.runOnce()
      assert.equal((await notices(requester, kept, 'still_needed')).length, 2, 'asked again')
      assert.equal((await detail(requester, kept)).status, 'approved')
    })

    it('sends each message once with two instances running at once, and none for a request cancelled meanwhile', async () => {
      clock.set(new Date())
      const second = engine === 'postgres' ? await startSecondInstance(t, {}, { alertTickMs: 0, clock }) : t
      try {
        const runners = [jobs, new ScheduleJobs(changesOn(second.db, clock), SETTINGS, clock)]
        const both = async () => { await Promise.all(runners.map(async (runner) => { await runner.runOnce(); await runner.runOnce() })) }
        const requester = await t.register()
        // Three that go unconfirmed (the first cancelled before its deadline), one confirmed, one without a date.
        const volunteers = [await t.register(), await t.register(), await t.register(), await t.register()]
        const ids: number[] = []
        for (const volunteer of volunteers) {
          const { id } = await approved(requester, 30)
          await assign(id, requester, volunteer)
          ids.push(id)
        }
        const [cancelled, , , kept] = ids as [number, number, number, number]
        const undated = (await approved(requester, false)).id
        clock.advance(7 * HOUR_MS)
        await both()
        for (const [i, volunteer] of volunteers.entries()) assert.equal((await notices(volunteer, ids[i]!, 'confirm_needed')).length, 1)
        assertStatus(await t.post(`/requests/${kept}/confirm`, undefined, await token(volunteers[3]!)), 200)
        assertStatus(await t.post(`/requests/${cancelled}/cancel`, undefined, await token(requester)), 200)
        clock.advance(12 * HOUR_MS)
        await both()
        assert.deepEqual(await notices(volunteers[0]!, cancelled, 'confirmation_missed'), [], 'cancelled before the deadline')
        for (const i of [1, 2]) {
          assert.equal((await notices(volunteers[i]!, ids[i]!, 'confirmation_missed')).length, 1)
          assert.equal((await notices(requester, ids[i]!, 'confirmation_missed')).length, 1)
        }
        clock.advance(9 * HOUR_MS + MINUTE_MS)
        await both()
        for (const account of [requester, volunteers[3]!]) assert.equal((await notices(account, kept, 'reminder')).length, 1)
        clock.advance(2 * HOUR_MS)
        await both()
        for (const id of ids.slice(0, 3)) {
          const request = await detail(requester, id)
          assert.deepEqual([request.status, request.cancel_reason], ['cancelled', id === cancelled ? 'requester' : 'expired'])
          assert.equal((await notices(requester, id, 'request_expired')).length, id === cancelled ? 0 : 1)
        }
        clock.advance(49 * HOUR_MS)
        await both()
        assert.equal((await notices(requester, kept, 'please_complete')).length, 1)
        clock.advance(14 * DAY_MS)
        await both()
        assert.equal((await notices(requester, undated, 'still_needed')).length, 1)
      } finally {
        if (second !== t) await second.close()
      }
    })
  })
}
