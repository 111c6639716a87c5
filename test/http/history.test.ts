import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { loadConfig } from '../../src/config.js'
import { changesOn } from '../../src/areas.js'
import { ScheduleJobs } from '../../src/regular-help/schedule/schedule-jobs.js'
import { newPlace, noticesOf, RoundDriver, TEST_ALERTS, volunteerAt } from '../helpers/alerts.js'
import { startApp, TEST_SECRET, type Account, type Response, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { engines } from '../helpers/engines.js'
import { requestInput } from '../helpers/requests.js'

/**
 * docs/api/on-behalf.md › A request's history through HTTP: every change of a request's lifecycle writes its history entry with who did it,
 * in what capacity and for whom; a client's request by two coordinators, and a carer acting for a person, with
 * the notifications routed to them (› Notifications on someone's behalf); who may read it; an erased actor named "Former user".
 */

const HOUR_MS = 3_600_000
const SCHEDULE = loadConfig({ JWT_SECRET: TEST_SECRET }).schedule
const NAME = 'Test User'

interface Entry { at: string, action: string, actor: { id?: number, name?: string, role: string }, on_behalf_of: unknown, details: Record<string, unknown> }
type Expected = Omit<Entry, 'at'>

const person = (account: Account, role: string, name = NAME): Expected['actor'] => ({ id: account.id, name, role })
const SERVICE = { role: 'service' }
const entry = (action: string, actor: Expected['actor'], details: Record<string, unknown> = {}, onBehalfOf: unknown = null): Expected =>
  ({ action, actor, on_behalf_of: onBehalfOf, details })

for (const engine of engines()) {
  describe(`a request's history (${engine})`, () => {
    const clock = new ManualClock()
    let t: TestApp
    let jobs: ScheduleJobs
    let moderator: Account
    before(async () => {
      clock.set(new Date())
      t = await startApp(engine, {}, { alertTickMs: 0, clock })
      jobs = new ScheduleJobs(changesOn(t.db, clock), SCHEDULE, clock)
      moderator = await t.registerWithRole('moderator')
    })
    after(() => t.close())

    /** The answer's body, once its status is the expected one. */
    const bodyOf = async (answer: Promise<Response>, status = 200) => { const res = await answer; assertStatus(res, status); return res.body }
    const history = async (id: number, viewer: Account = t.admin): Promise<Entry[]> => await bodyOf(t.get(`/requests/${id}/history`, viewer.token))

    const withoutAt = (entries: Entry[]): Expected[] => entries.map(({ at: _at, ...rest }) => rest)

    const created = async (requester: Account, fields: Record<string, unknown> = {}, token = requester.token): Promise<number> =>
      (await bodyOf(t.post('/requests', requestInput(fields), token), 201)).id

    async function approved (requester: Account, fields: Record<string, unknown> = {}): Promise<number> {
      const id = await created(requester, fields)
      assertStatus(await t.post(`/moderation/requests/${id}/approve`, {}, moderator.token), 200)
      return id
    }

    const offer = async (id: number, volunteer: Account): Promise<number> => (await bodyOf(t.post(`/requests/${id}/responses`, {}, volunteer.token), 201)).id

    /** A window starting `hours` from the clock's now, an hour long. */
    const window = (hours: number) => {
      const start = clock.now().getTime() + hours * HOUR_MS
      return { window_start: new Date(start).toISOString(), window_end: new Date(start + HOUR_MS).toISOString() }
    }

    /** Runs the schedule job `hours` on, then puts the clock back, so the tokens issued before stay valid. */
    async function scheduleJobAfter (hours: number): Promise<void> {
      const now = clock.now()
      clock.advance(hours * HOUR_MS)
      await jobs.runOnce().finally(() => clock.set(now))
    }

    it('writes each change of the lifecycle with its actor, in the change', async () => {
      const [requester, volunteer, other] = [await t.register(), await t.register(), await t.register()]
      const assigned = async (fields: Record<string, unknown> = {}) => {
        const id = await approved(requester, fields)
        const response = await offer(id, volunteer)
        assertStatus(await t.post(`/requests/${id}/responses/${response}/accept`, undefined, requester.token), 200)
        return { id, response }
      }
      const cases: Array<{ op: string, run: () => Promise<{ id: number, expected: Expected[] }> }> = [
        { op: 'create', run: async () => ({ id: await created(requester), expected: [entry('created', person(requester, 'requester'))] }) },
        { op: 'approve', run: async () => ({ id: await approved(requester), expected: [entry('approved', person(moderator, 'moderator'))] }) },
        {
          op: 'reject',
          run: async () => {
            const id = await created(requester)
            assertStatus(await t.post(`/moderation/requests/${id}/reject`, { comment: 'Not something volunteers do' }, t.admin.token), 200)
            return { id, expected: [entry('rejected', person(t.admin, 'admin', 'Service Administrator'))] }
          },
        },
        {
          op: 'offer',
          run: async () => {
            const id = await approved(requester)
            return { id, expected: [entry('offer_made', person(volunteer, 'volunteer'), { response_id: await offer(id, volunteer) })] }
          },
        },
        {
          op: 'withdraw',
          run: async () => {
            const id = await approved(requester)
            const response = await offer(id, volunteer)
            assertStatus(await t.post(`/requests/${id}/responses/${response}/cancel`, undefined, volunteer.token), 200)
            return { id, expected: [entry('offer_withdrawn', person(volunteer, 'volunteer'), { response_id: response, was_accepted: false })] }
          },
        },
        {
          op: 'reject an offer',
          run: async () => {
            const id = await approved(requester)
            const response = await offer(id, volunteer)
            assertStatus(await t.post(`/requests/${id}/responses/${response}/reject`, undefined, requester.token), 200)
            return { id, expected: [entry('offer_rejected', person(requester, 'requester'), { response_id: response })] }
          },
        },
        {
          op: 'accept with another offer pending',
          run: async () => {
            const id = await approved(requester)
            const [chosen, passed] = [await offer(id, volunteer), await offer(id, other)]
            assertStatus(await t.post(`/requests/${id}/responses/${chosen}/accept`, undefined, requester.token), 200)
            return {
              id,
              expected: [entry('accepted', person(requester, 'requester'), { response_id: chosen }), entry('offer_rejected', person(requester, 'requester'), { response_id: passed })],
            }
          },
        },
        {
          op: 'confirm',
          run: async () => {
            const { id } = await assigned(window(30))
            assertStatus(await t.post(`/requests/${id}/confirm`, undefined, volunteer.token), 200)
            return { id, expected: [entry('confirmed', person(volunteer, 'volunteer'))] }
          },
        },
        {
          op: 'remind (the schedule job)',
          run: async () => {
            const { id } = await assigned(window(30))
            await scheduleJobAfter(29) // an hour before the window: requester and volunteer reminded
            return { id, expected: [entry('reminded', SERVICE, { people: 2 })] }
          },
        },
        {
          op: 'say it is still needed (a change in place)',
          run: async () => {
            const id = await approved(requester)
            assertStatus(await t.post(`/requests/${id}/still-needed`, undefined, requester.token), 200)
            return { id, expected: [entry('edited', person(requester, 'requester'), { still_needed: true })] }
          },
        },
        ...(['requester', 'moderator'] as const).map((role) => ({
          op: `cancel by the ${role}`,
          run: async () => {
            const id = await approved(requester)
            const by = role === 'requester' ? requester : moderator
            assertStatus(await t.post(`/requests/${id}/cancel`, undefined, by.token), 200)
            return { id, expected: [entry('cancelled', person(by, role), { reason: role })] }
          },
        })),
        {
          op: 'expire (the schedule job)',
          run: async () => {
            const id = await approved(requester, window(2))
            await scheduleJobAfter(3)
            return { id, expected: [entry('cancelled', SERVICE, { reason: 'expired' })] }
          },
        },
        {
          op: 'complete',
          run: async () => {
            const { id } = await assigned()
            assertStatus(await t.post(`/requests/${id}/complete`, { rating: 5 }, requester.token), 200)
            return { id, expected: [entry('completed', person(requester, 'requester'), { rated: true })] }
          },
        },
        {
          op: 'alert round',
          run: async () => {
            const place = newPlace()
            await volunteerAt(t, place, 100)
            const id = await approved(requester, { ...place })
            await new RoundDriver(t, TEST_ALERTS, undefined, clock).run()
            return { id, expected: [entry('alert_round', SERVICE, { round: 1, alerted: 1 })] }
          },
        },
      ]
      for (const { op, run } of cases) {
        const { id, expected } = await run()
        const entries = await history(id)
        assert.deepEqual(withoutAt(entries.slice(-expected.length)), expected, op)
        assert.equal(entries[0]?.action, 'created', `${op}: the creation first`)
        for (const e of entries) assert.ok(!Number.isNaN(Date.parse(e.at)), `${op}: at`)
      }
    })

    it('a client\'s request through its lifecycle by two coordinators: each action theirs, the notifications to both', async () => {
      const coordinator = async () => {
        const account = await t.register()
        assertStatus(await t.post(`/admin/users/${account.id}/roles/4`, undefined, t.admin.token), 200)
        return account
      }
      const [a, b, idle, volunteer] = [await coordinator(), await coordinator(), await coordinator(), await t.register()]
      // Direct write: the clients API is another part of docs/api/on-behalf.md; this test needs only a client's row.
      const [client] = await t.db.query<{ id: number }>(
        "INSERT INTO clients (first_name, last_name, phone, consent_how, consent_recorded_at, created_at, updated_at) VALUES ('Sofia', 'Schulz', '+4930555', 'phone', now(), now(), now()) RETURNING id")
      const clientId = Number(client!.id)
      const forClient = { client_id: clientId }
      const id = await created(a, { ...window(30), on_behalf_of: forClient })
      assertStatus(await t.post(`/moderation/requests/${id}/approve`, {}, moderator.token), 200)
      const response = await offer(id, volunteer)
      assertStatus(await t.post(`/requests/${id}/responses/${response}/accept`, undefined, b.token), 200)
      assertStatus(await t.post(`/requests/${id}/confirm`, undefined, volunteer.token), 200)
      assertStatus(await t.post(`/requests/${id}/complete`, { rating: 4 }, a.token), 200)

      assert.deepEqual(withoutAt(await history(id, b)), [
        entry('created', person(a, 'coordinator'), {}, forClient),
        entry('approved', person(moderator, 'moderator')),
        entry('offer_made', person(volunteer, 'volunteer'), { response_id: response }),
        entry('accepted', person(b, 'coordinator'), { response_id: response }, forClient),
        entry('confirmed', person(volunteer, 'volunteer')),
        entry('completed', person(a, 'coordinator'), { rated: true }, forClient),
      ])
      const types = async (account: Account) => (await noticesOf(t, account, id)).map((n) => n.type)
      assert.deepEqual(await types(a), ['request_approved', 'response_received', 'volunteer_confirmed'], 'the creator: every requester notification')
      assert.deepEqual(await types(b), ['volunteer_confirmed'], 'the other coordinator: those after they acted on it')
      assert.deepEqual(await types(idle), [], 'a coordinator who never acted on it')
      assertStatus(await t.get(`/requests/${id}/history`, idle.token), 200)
    })

    it('a carer acting for a person: recorded as the carer for the person, and told what the person is told', async () => {
      const [owner, carer, invited, volunteer, stranger] = [await t.register(), await t.register(), await t.register(), await t.register(), await t.register()]
      // Direct write: the carers' invitation API is another part of docs/api/on-behalf.md (› Carers); an accepted and a pending invitation.
      await t.db.query(`INSERT INTO trusted_people (owner_id, email, carer_id, can, status, created_at, decided_at)
        VALUES ($1, $2, $3, $4, 'accepted', now(), now()), ($1, $5, $6, $7, 'invited', now(), NULL)`,
      [owner.id, carer.email, carer.id, ['create', 'follow', 'accept', 'cancel', 'complete'], invited.email, invited.id, ['follow']])
      const id = await created(owner, { on_behalf_of: { user_id: owner.id } }, carer.token)
      assertStatus(await t.post(`/moderation/requests/${id}/approve`, {}, moderator.token), 200)
      const response = await offer(id, volunteer)
      assertStatus(await t.post(`/requests/${id}/responses/${response}/accept`, undefined, carer.token), 200)

      const forOwner = { user_id: owner.id }
      const expected = [
        entry('created', person(carer, 'carer'), {}, forOwner),
        entry('approved', person(moderator, 'moderator')),
        entry('offer_made', person(volunteer, 'volunteer'), { response_id: response }),
        entry('accepted', person(carer, 'carer'), { response_id: response }, forOwner),
      ]
      assert.deepEqual(withoutAt(await history(id, owner)), expected, 'the person sees everything done for her, by whom')
      assert.deepEqual(withoutAt(await history(id, carer)), expected)
      const types = async (account: Account) => (await noticesOf(t, account, id)).map((n) => n.type).filter((type) => type !== 'request_created_for_you')
      assert.deepEqual(await types(owner), ['request_approved', 'response_received'])
      assert.deepEqual(await types(carer), ['request_approved', 'response_received'], 'the person\'s notifications reach the carer')
      assert.deepEqual(await types(invited), [], 'nothing before acceptance')

      // A carer cancels a request the person made herself: she is told, and the carer, who did it, is not.
      const own = await created(owner)
      assertStatus(await t.post(`/requests/${own}/cancel`, undefined, carer.token), 200)
      assert.deepEqual(withoutAt(await history(own, owner)).at(-1), entry('cancelled', person(carer, 'carer'), { reason: 'requester' }, forOwner))
      assert.deepEqual((await noticesOf(t, owner, own)).map((n) => n.type), ['request_cancelled'])
      assert.deepEqual(await noticesOf(t, carer, own), [])

      for (const viewer of [invited, stranger]) assertError(await t.get(`/requests/${id}/history`, viewer.token), 404, 'request not found')
      assertError(await t.get('/requests/999999999/history', owner.token), 404, 'request not found')
      assertError(await t.get('/requests/0/history', owner.token), 400, 'invalid request id')
    })

    it('the assigned volunteer sees only their own offer\'s entries; others who offered see nothing; an erased actor is "Former user"', async () => {
      const [requester, chosen, passed, leaving] = [await t.register(), await t.register(), await t.register(), await t.register()]
      const id = await approved(requester)
      const [mine, theirs] = [await offer(id, chosen), await offer(id, passed)]
      const gone = await offer(id, leaving)
      assertStatus(await t.request('DELETE', '/users/me', { body: { password: leaving.password }, token: leaving.token }), 200)
      assertStatus(await t.post(`/requests/${id}/responses/${mine}/accept`, undefined, requester.token), 200)

      const all = await history(id, requester)
      assert.deepEqual(withoutAt(all.filter((e) => e.details.response_id === gone)), [
        entry('offer_made', { id: leaving.id, name: 'Former user', role: 'volunteer' }, { response_id: gone }),
        entry('offer_withdrawn', { id: leaving.id, name: 'Former user', role: 'volunteer' }, { response_id: gone, was_accepted: false }),
      ], 'the erasure withdrew the offer, as the volunteer')
      const seen = (await history(id, chosen)).map((e) => e.details.response_id).filter((r) => r !== undefined)
      assert.deepEqual(new Set(seen), new Set([mine]), 'not who else offered')
      assert.ok(all.some((e) => e.details.response_id === theirs))
      assertError(await t.get(`/requests/${id}/history`, passed.token), 404, 'request not found')
    })
  })
}
