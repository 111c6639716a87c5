import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { changesOn } from '../../src/areas.js'
import { loadConfig } from '../../src/config.js'
import { VisitJobs } from '../../src/help/visits/visit-jobs.js'
import { startApp, startSecondInstance, TEST_SECRET, type Account, type TestApp } from '../helpers/app.js'
import { assertStatus } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { engines } from '../helpers/engines.js'
import { requestInput } from '../helpers/requests.js'

/**
 * docs/api/visit-checks.md › A visit, checked in and checked out: the visit job moved by the test's clock, never by waiting.
 * visit_not_started to the requester's side once after the grace; visit_overdue to the volunteer after
 * VISIT_OVERDUE_MINUTES or 60 minutes after the window's end, whichever is later; the urgent concern
 * VISIT_ESCALATE_MINUTES after that, once across two instances running at once and after a restart.
 * Settings are the defaults: grace 30, overdue 120, escalate 15 minutes.
 */

const MINUTE_MS = 60_000
const HOUR_MS = 60 * MINUTE_MS
const VISITS = { ...loadConfig({ JWT_SECRET: TEST_SECRET }).visits, checks: 'on' as const }
const SETTINGS = { ...VISITS, timeZone: 'UTC' }

interface Notice { type: string, request_id: number | null, data: Record<string, unknown> }
interface QueuedConcern { id: number, kind: string, reporter_id: number | null, reporter_name: string | null, subject_user_id: number | null, request_id: number, urgent: boolean, text: string }

for (const engine of engines()) {
  describe(`visit checks: the job by the clock (${engine})`, () => {
    const clock = new ManualClock()
    let t: TestApp
    let jobs: VisitJobs
    let moderator: Account
    before(async () => {
      t = await startApp(engine, { visits: VISITS }, { alertTickMs: 0, clock })
      jobs = new VisitJobs(changesOn(t.db, clock), SETTINGS)
      moderator = await t.registerWithRole('moderator')
    })
    after(() => t.close())

    /** Tokens live 15 minutes of the moved clock: each call signs in again at its time. */
    async function token (account: Account): Promise<string> {
      const login = await t.post('/auth/login', { email: account.email, password: account.password })
      assertStatus(login, 200)
      return login.body.access_token
    }

    async function notices (account: Account, requestId: number, type: string): Promise<Notice[]> {
      const res = await t.get<Notice[]>('/notifications?limit=100', await token(account))
      assertStatus(res, 200)
      return res.body.filter((n) => n.request_id === requestId && n.type === type)
    }

    async function concernsAbout (requestId: number): Promise<QueuedConcern[]> {
      const res = await t.get<QueuedConcern[]>('/moderation/concerns?limit=100', await token(moderator))
      assertStatus(res, 200)
      return res.body.filter((concern) => concern.request_id === requestId)
    }

    /** An in_progress request whose window starts in `hours` and lasts `length` hours; its requester and volunteer. */
    async function assigned (hours: number, length = 1): Promise<{ id: number, requester: Account, volunteer: Account, start: Date }> {
      const [requester, volunteer] = [await t.register(), await t.register({ first_name: 'Jonas' })]
      const start = new Date(clock.now().getTime() + hours * HOUR_MS)
      const created = await t.post('/requests', requestInput({ window_start: start.toISOString(), window_end: new Date(start.getTime() + length * HOUR_MS).toISOString() }), await token(requester))
      assertStatus(created, 201)
      const id = created.body.id as number
      assertStatus(await t.post(`/moderation/requests/${id}/approve`, {}, await token(moderator)), 200)
      const offer = await t.post(`/requests/${id}/responses`, {}, await token(volunteer))
      assertStatus(offer, 201)
      assertStatus(await t.post(`/requests/${id}/responses/${offer.body.id}/accept`, undefined, await token(requester)), 200)
      return { id, requester, volunteer, start }
    }

    const actions = async (id: number): Promise<string[]> =>
      (await t.get(`/requests/${id}/history`, await token(t.admin))).body
        .map((entry: { action: string, actor: { role: string } }) => `${entry.action}:${entry.actor.role}`)

    it('asks the requester and her carer once, 30 minutes after the start; never after a check-in', async () => {
      clock.set(new Date())
      const { id, requester, volunteer, start } = await assigned(1)
      const [carer, stranger] = [await t.register(), await t.register()]
      // Direct write: the invitations API is docs/api/on-behalf.md › Carers, tested there; a carer who only follows.
      await t.db.query(`INSERT INTO trusted_people (owner_id, email, carer_id, can, status, created_at, decided_at)
        VALUES ($1, $2, $3, $4, 'accepted', now(), now())`, [requester.id, carer.email, carer.id, ['follow']])
      const arrived = await assigned(1)
      clock.advance(HOUR_MS + 29 * MINUTE_MS)
      await jobs.runOnce()
      assert.deepEqual(await notices(requester, id, 'visit_not_started'), [], '29 minutes after the start: not yet')
      assertStatus(await t.post(`/requests/${arrived.id}/visit/check-in`, undefined, await token(arrived.volunteer)), 200)
      clock.advance(2 * MINUTE_MS)
      await jobs.runOnce()
      await jobs.runOnce()
      for (const account of [requester, carer]) {
        assert.deepEqual((await notices(account, id, 'visit_not_started')).map((n) => n.data), [{ volunteer_name: 'Jonas', visit_at: start.toISOString() }])
      }
      for (const account of [volunteer, stranger]) assert.deepEqual(await notices(account, id, 'visit_not_started'), [])
      assert.deepEqual(await notices(arrived.requester, arrived.id, 'visit_not_started'), [], 'checked in in time')
      clock.advance(3 * HOUR_MS)
      await jobs.runOnce()
      assert.equal((await notices(requester, id, 'visit_not_started')).length, 1, 'once')
      assert.deepEqual((await actions(id)).filter((a) => a.startsWith('visit')), ['visit_not_started:service'])
      // A check-in after the question is still taken.
      assertStatus(await t.post(`/requests/${id}/visit/check-in`, undefined, await token(volunteer)), 200)
    })

    it('asks the volunteer at the later of 120 minutes after check-in and 60 after the window\'s end, then raises the concern 15 minutes on', async () => {
      clock.set(new Date())
      // A window of 3 hours: its end + 60 min (4 h after the start) is later than check-in + 120 min.
      const { id, volunteer } = await assigned(1, 3)
      const early = await assigned(1, 1)
      clock.advance(HOUR_MS)
      const checkedIn = clock.now()
      for (const visit of [{ id, volunteer }, early]) assertStatus(await t.post(`/requests/${visit.id}/visit/check-in`, undefined, await token(visit.volunteer)), 200)
      clock.advance(2 * HOUR_MS + MINUTE_MS)
      await jobs.runOnce()
      assert.equal((await notices(early.volunteer, early.id, 'visit_overdue')).length, 1, 'a 1-hour window: 120 minutes after the check-in')
      assert.deepEqual(await notices(volunteer, id, 'visit_overdue'), [], 'a 3-hour window: not before 60 minutes after its end')
      // The early visit checks out before its escalation: no concern.
      assertStatus(await t.post(`/requests/${early.id}/visit/check-out`, undefined, await token(early.volunteer)), 200)
      clock.advance(2 * HOUR_MS - 2 * MINUTE_MS)
      await jobs.runOnce()
      assert.deepEqual(await notices(volunteer, id, 'visit_overdue'), [], 'a minute before')
      clock.advance(2 * MINUTE_MS)
      await jobs.runOnce()
      await jobs.runOnce()
      const asked = await notices(volunteer, id, 'visit_overdue')
      assert.deepEqual(asked.map((n) => n.data), [{ checked_in_at: checkedIn.toISOString() }])
      clock.advance(14 * MINUTE_MS)
      await jobs.runOnce()
      assert.deepEqual(await concernsAbout(id), [], '14 minutes after the question')
      clock.advance(2 * MINUTE_MS)
      await jobs.runOnce()
      await jobs.runOnce()
      const raised = await concernsAbout(id)
      assert.equal(raised.length, 1)
      const concern = raised[0]!
      assert.deepEqual([concern.kind, concern.reporter_id, concern.reporter_name, concern.subject_user_id, concern.urgent], ['visit_overdue', null, null, volunteer.id, true])
      assert.match(concern.text, /^Visit not checked out: the volunteer checked in on .+, was asked on .+ whether they are all right, and had not checked out by .+ \(UTC\)\.$/)
      const told = await notices(moderator, id, 'concern_raised')
      assert.deepEqual(told.map((n) => n.data), [{ concern_id: concern.id, urgent: true }])
      assert.deepEqual(await concernsAbout(early.id), [])
      assert.deepEqual((await actions(id)).filter((a) => a.startsWith('visit') || a.startsWith('checked')), ['checked_in:volunteer', 'visit_overdue:service'])
      // The concern outlives the visit: checking out now changes nothing of it; a later run raises none.
      assertStatus(await t.post(`/requests/${id}/visit/check-out`, undefined, await token(volunteer)), 200)
      clock.advance(HOUR_MS)
      await jobs.runOnce()
      assert.equal((await concernsAbout(id)).length, 1)
      // A moderator resolves it: there is no reporter to tell.
      const resolved = await t.post(`/moderation/concerns/${concern.id}/resolve`, { outcome: 'no_action', note: 'Phoned: all well, forgot to check out.' }, await token(moderator))
      assertStatus(resolved, 200)
      assert.equal(resolved.body.status, 'resolved')
    })

    it('sends each message and raises each concern once with two instances running at once, and after a restart', async () => {
      clock.set(new Date())
      let second = engine === 'postgres' ? await startSecondInstance(t, { visits: VISITS }, { alertTickMs: 0, clock }) : t
      try {
        const runners = [jobs, new VisitJobs(changesOn(second.db, clock), SETTINGS)]
        const both = async (): Promise<void> => { await Promise.all(runners.map(async (runner) => { await runner.runOnce(); await runner.runOnce() })) }
        const visits = [await assigned(1), await assigned(1), await assigned(1)]
        const late = await assigned(1)
        clock.advance(HOUR_MS)
        for (const visit of visits) assertStatus(await t.post(`/requests/${visit.id}/visit/check-in`, undefined, await token(visit.volunteer)), 200)
        clock.advance(31 * MINUTE_MS)
        await both()
        assert.equal((await notices(late.requester, late.id, 'visit_not_started')).length, 1)
        clock.advance(2 * HOUR_MS)
        await both()
        for (const visit of visits) assert.equal((await notices(visit.volunteer, visit.id, 'visit_overdue')).length, 1)
        clock.advance(16 * MINUTE_MS)
        await both()
        for (const visit of visits) assert.equal((await concernsAbout(visit.id)).length, 1, `one concern for request ${visit.id}`)
        // A restart: the second instance stops and a new one (its own pool and dispatcher) runs on the same database.
        if (second !== t) {
          await second.close()
          second = await startSecondInstance(t, { visits: VISITS }, { alertTickMs: 0, clock })
        }
        const restarted = new VisitJobs(changesOn(second.db, clock), SETTINGS)
        clock.advance(HOUR_MS)
        await Promise.all([restarted.runOnce(), jobs.runOnce()])
        for (const visit of visits) {
          assert.equal((await concernsAbout(visit.id)).length, 1, 'none again after the restart')
          assert.equal((await notices(visit.volunteer, visit.id, 'visit_overdue')).length, 1)
        }
        assert.equal((await notices(late.requester, late.id, 'visit_not_started')).length, 1)
        const stamped = await t.db.query<{ count: number }>('SELECT count(*)::int AS count FROM concerns WHERE kind = \'visit_overdue\' AND request_id = ANY($1::bigint[])', [visits.map((v) => v.id)])
        assert.equal(stamped[0]!.count, visits.length)
      } finally {
        if (second !== t) await second.close()
      }
    })
  })
}
