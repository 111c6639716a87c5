import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { AlertService } from '../../src/help/alerts/alerts.service.js'
import { changesOn } from '../../src/areas.js'
import { HorizonJob } from '../../src/regular-help/series/horizon.js'
import { alertsOf, newPlace, noticesOf, TEST_ALERTS, volunteerAt, type Place } from '../helpers/alerts.js'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { engines } from '../helpers/engines.js'
import { respond } from '../helpers/lifecycle.js'
import { requestInput } from '../helpers/requests.js'

/**
 * docs/api/schedule.md › Series › The same volunteer again, through HTTP with the clock moved: a rating of 5 makes the
 * volunteer preferred, one of 2 and a withdrawal clear them; a new occurrence invites them alone and holds
 * its alert rounds PREFERRED_HOLD_HOURS (24), not when that ends less than 48 h before the window, and not
 * after they decline; with auto_accept_preferred their offer is accepted, without it it waits for the requester;
 * a blocked one is not invited; a concern about them clears them and starts held rounds.
 */

/** Monday 15 March 2027, 09:00 UTC. */
const START = new Date('2027-03-15T09:00:00Z')
const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS
const silent = { error () {} }

interface Occurrence { id: number, status: string, window_start: string, series_id: number }

for (const engine of engines()) {
  describe(`the same volunteer again (${engine})`, () => {
    const clock = new ManualClock(START)
    let t: TestApp
    let moderator: Account
    let alerts: AlertService
    let horizon: HorizonJob
    before(async () => {
      t = await startApp(engine, { accessTokenTtlSeconds: 3650 * 86400 }, { alertTickMs: 0, clock })
      moderator = await t.registerWithRole('moderator')
      const changes = changesOn(t.db, clock)
      alerts = new AlertService(changes, TEST_ALERTS, clock)
      horizon = new HorizonJob(changes, { horizonDays: 28, mapGridMeters: 300, preferredHoldHours: 24, volunteerChecks: [], timeZone: 'UTC' }, silent)
    })
    after(() => t.close())

    /** An active weekly series (Tuesdays 10:00 UTC from 16 March) at `place`; its occurrences are created with the approval. */
    async function series (requester: Account, place: Place, template: Record<string, unknown> = {}): Promise<number> {
      const body = {
        template: requestInput({ ...place, ...template }), days: ['tue'], start_time: '10:00', duration_minutes: 60, starts_on: '2027-03-16', time_zone: 'UTC',
      }
      const created = await t.post('/request-series', body, requester.token)
      assertStatus(created, 201)
      assertStatus(await t.post(`/moderation/series/${created.body.id as number}/approve`, {}, moderator.token), 200)
      return created.body.id
    }
    /** The series' coming occurrences that are still open, earliest first. */
    async function open (requester: Account, seriesId: number): Promise<Occurrence[]> {
      const res = await t.get<Occurrence[]>('/requests/my?limit=100', requester.token)
      assertStatus(res, 200)
      const now = clock.now().getTime()
      return res.body.filter((r) => r.series_id === seriesId && r.status === 'approved' && Date.parse(r.window_start) > now)
        .sort((a, b) => a.window_start.localeCompare(b.window_start))
    }
    async function preferredOf (requester: Account, seriesId: number): Promise<number | null> {
      const res = await t.get(`/request-series/${seriesId}`, requester.token)
      assertStatus(res, 200)
      return res.body.preferred_volunteer_id
    }
    /** `volunteer` helps with the occurrence and the requester rates them `rating`. */
    async function helped (requester: Account, volunteer: Account, requestId: number, rating: number): Promise<void> {
      const responseId = await respond(t, requestId, volunteer)
      assertStatus(await t.post(`/requests/${requestId}/responses/${responseId}/accept`, undefined, requester.token), 200)
      assertStatus(await t.post(`/requests/${requestId}/complete`, { rating }, requester.token), 200)
    }
    const invitations = async (account: Account) => (await noticesOf(t, account)).filter((n) => n.type === 'series_invitation')
    /** Runs the due alert rounds; whether `bystander` has been alerted to the request by now. */
    async function alerted (bystander: Account, requestId: number): Promise<boolean> {
      await alerts.runDue()
      return (await alertsOf(t, bystander, requestId)).length > 0
    }

    it('a rating of 5 makes the volunteer preferred; a rating of 2 and a withdrawal clear them', async () => {
      clock.set(START)
      const requester = await t.register()
      const volunteer = await t.register()
      const other = await t.register()
      const id = await series(requester, newPlace())
      const [first, second, third, fourth] = await open(requester, id)
      assert.equal(await preferredOf(requester, id), null)
      await helped(requester, volunteer, first!.id, 5)
      assert.equal(await preferredOf(requester, id), volunteer.id)
      // Someone else's poor rating says nothing about the preferred volunteer.
      await helped(requester, other, second!.id, 2)
      assert.equal(await preferredOf(requester, id), volunteer.id)
      // A pending offer withdrawn clears them; helping again well makes them preferred again.
      const offer = await respond(t, third!.id, volunteer)
      assertStatus(await t.post(`/requests/${third!.id}/responses/${offer}/cancel`, undefined, volunteer.token), 200)
      assert.equal(await preferredOf(requester, id), null)
      await helped(requester, volunteer, third!.id, 5)
      assert.equal(await preferredOf(requester, id), volunteer.id)
      await helped(requester, volunteer, fourth!.id, 2)
      assert.equal(await preferredOf(requester, id), null)
    })

    it('invites the preferred volunteer alone to a new occurrence and holds its rounds 24 h; declining, a window within 48 h or a concern starts them at once', async () => {
      clock.set(START)
      const place = newPlace()
      const requester = await t.register()
      const volunteer = await t.register()
      const bystander = await volunteerAt(t, place, 200)
      const id = await series(requester, place)
      const [first] = await open(requester, id)
      await helped(requester, volunteer, first!.id, 5)
      assert.deepEqual(await invitations(volunteer), [], 'occurrences created before they were preferred invite nobody')

      // A week on, the horizon job creates Tuesday 13 April: the volunteer alone is asked first.
      clock.advance(7 * DAY_MS)
      await horizon.runOnce()
      const held = (await open(requester, id)).at(-1)!
      assert.equal(held.window_start, '2027-04-13T10:00:00.000Z')
      const invited = await invitations(volunteer)
      assert.deepEqual(invited.map((n) => [n.request_id, n.data]), [[held.id, { series_id: id, window_start: held.window_start }]])
      assert.deepEqual(await invitations(bystander), [])
      assert.equal(await alerted(bystander, held.id), false)
      clock.advance(24 * HOUR_MS - 60_000)
      assert.equal(await alerted(bystander, held.id), false, 'a minute before the hold ends')
      clock.advance(60_000)
      assert.equal(await alerted(bystander, held.id), true, 'the hold is over')

      // The next week's occurrence: declined, its rounds start at once; only the invited volunteer may decline.
      clock.advance(6 * DAY_MS)
      await horizon.runOnce()
      const declined = (await open(requester, id)).at(-1)!
      assertError(await t.post(`/requests/${declined.id}/decline`, undefined, bystander.token), 400, 'only the invited volunteer can decline')
      assertError(await t.post(`/requests/${declined.id}/decline`, undefined, requester.token), 400, 'only the invited volunteer can decline')
      assert.equal(await alerted(bystander, declined.id), false)
      const res = await t.post(`/requests/${declined.id}/decline`, undefined, volunteer.token)
      assertStatus(res, 200)
      assert.deepEqual(res.body, {})
      assert.equal(await alerted(bystander, declined.id), true)
      assert.equal(await preferredOf(requester, id), volunteer.id, 'declining one date keeps them preferred')

      // A change recreates the coming occurrences now: the one 25 hours ahead is not held, the later ones are.
      const patched = await t.request('PATCH', `/request-series/${id}`, { body: { start_time: '11:00' }, token: requester.token })
      assertStatus(patched, 200)
      const [soon, next] = await open(requester, id)
      assert.equal(soon!.window_start, '2027-03-30T11:00:00.000Z')
      assert.ok((await invitations(volunteer)).some((n) => n.request_id === soon!.id))
      assert.equal(await alerted(bystander, soon!.id), true, 'less than 48 h before the window: at once')
      assert.equal(await alerted(bystander, next!.id), false)
      // A concern about the preferred volunteer clears them, and the held rounds start at once.
      assertStatus(await t.post('/concerns', { subject_user_id: volunteer.id, text: 'She was rude to my mother on the phone.' }, requester.token), 201)
      assert.equal(await preferredOf(requester, id), null)
      assert.equal(await alerted(bystander, next!.id), true)
    })

    it('accepts the preferred volunteer\'s offer as the requester would with auto_accept_preferred; without it the offer waits; a concern clears them', async () => {
      clock.set(START)
      const requester = await t.register()
      const volunteer = await t.register()
      const rival = await t.register()
      const auto = await series(requester, newPlace(), { auto_accept_preferred: true })
      const plain = await series(requester, newPlace())
      for (const id of [auto, plain]) await helped(requester, volunteer, (await open(requester, id))[0]!.id, 5)

      const [target] = await open(requester, auto)
      const rivalOffer = await respond(t, target!.id, rival)
      const offer = await t.post(`/requests/${target!.id}/responses`, {}, volunteer.token)
      assertStatus(offer, 201)
      assert.equal(offer.body.status, 'accepted')
      const detail = await t.get(`/requests/${target!.id}`, requester.token)
      assert.deepEqual([detail.body.status, detail.body.assigned_volunteer_id], ['in_progress', volunteer.id])
      assert.ok((await noticesOf(t, volunteer, target!.id)).some((n) => n.type === 'response_accepted'))
      const rivalNotices = await noticesOf(t, rival, target!.id)
      assert.ok(rivalNotices.some((n) => n.type === 'response_rejected' && n.data.response_id === rivalOffer))

      const [waiting] = await open(requester, plain)
      const pending = await t.post(`/requests/${waiting!.id}/responses`, {}, volunteer.token)
      assert.equal(pending.body.status, 'pending')
      const still = await t.get(`/requests/${waiting!.id}`, requester.token)
      assert.equal(still.body.status, 'approved')

      // A preferred volunteer who may not offer help now (blocked) is not invited to the next occurrence.
      assertStatus(await t.post(`/admin/users/${volunteer.id}/block`, undefined, t.admin.token), 200)
      clock.advance(7 * DAY_MS)
      await horizon.runOnce()
      const unasked = (await open(requester, plain)).at(-1)!
      assert.equal(unasked.window_start, '2027-04-13T10:00:00.000Z')
      assertStatus(await t.post(`/admin/users/${volunteer.id}/unblock`, undefined, t.admin.token), 200)
      assert.ok(!(await invitations(volunteer)).some((n) => n.request_id === unasked.id))
      assert.equal(await preferredOf(requester, plain), volunteer.id)
      // A concern about the volunteer (docs/api/help.md › Concerns) clears them in every series where they are preferred.
      assertStatus(await t.post('/concerns', { subject_user_id: volunteer.id, text: 'He did not come and did not answer.' }, requester.token), 201)
      assert.deepEqual([await preferredOf(requester, auto), await preferredOf(requester, plain)], [null, null])
    })
  })
}
