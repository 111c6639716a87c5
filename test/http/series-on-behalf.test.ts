import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { noticesOf } from '../helpers/alerts.js'
import { startApp, type Account, type Response, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { engines } from '../helpers/engines.js'
import { requestInput } from '../helpers/requests.js'

/**
 * docs/api/on-behalf.md › Series for someone through HTTP: a coordinator's series for a client and a carer's for the
 * person, through their lifecycle (create, occurrences, confirm, skip, end) with each action's actor in the
 * occurrences' history; the refusals of POST /requests (no grant, a carer without create, unknown client);
 * and a client's erasure ending their series.
 */

/** Monday 15 March 2027, 10:00 UTC. */
const START = new Date('2027-03-15T10:00:00Z')
const NAME = 'Test User'

interface Occurrence { id: number, status: string, window_start: string, series_id: number, client_id: number | null, requester_id: number }
interface Entry { at: string, action: string, actor: { id?: number, name?: string, role: string }, on_behalf_of: unknown, details: Record<string, unknown> }

const person = (account: Account, role: string) => ({ id: account.id, name: NAME, role })
const SERVICE = { role: 'service' }
const entry = (action: string, actor: Entry['actor'], details: Record<string, unknown> = {}, onBehalfOf: unknown = null) => ({ action, actor, on_behalf_of: onBehalfOf, details })

for (const engine of engines()) {
  describe(`series on someone's behalf (${engine})`, () => {
    const clock = new ManualClock(START)
    let t: TestApp
    let moderator: Account
    before(async () => {
      t = await startApp(engine, { timeZone: 'UTC' }, { alertTickMs: 0, horizonTickMs: 0, scheduleTickMs: 0, clock })
      moderator = await t.registerWithRole('moderator')
    })
    after(() => t.close())

    const bodyOf = async (answer: Promise<Response>, status = 200) => { const res = await answer; assertStatus(res, status); return res.body }
    const input = (template: Record<string, unknown> = {}, rest: Record<string, unknown> = {}) => ({
      template: requestInput({ title: 'Lift to dialysis', ...template }), days: ['tue', 'thu'], start_time: '07:30', duration_minutes: 120, starts_on: '2027-03-16', ...rest,
    })
    async function coordinator (): Promise<Account> {
      const account = await t.register()
      assertStatus(await t.post(`/admin/users/${account.id}/roles/4`, undefined, t.admin.token), 200)
      return account
    }
    async function newClient (by: Account): Promise<number> {
      return (await bodyOf(t.post('/clients', { first_name: 'Sofia', last_name: 'Schulz', phone: '+4930555111', latitude: 52.5, longitude: 13.4, address: 'Hauptstr. 1', consent: { how: 'phone' } }, by.token), 201)).id
    }
    /** `owner` lets `carer` act for her with `can`, accepted. */
    async function grant (owner: Account, carer: Account, can: string[]): Promise<void> {
      const invitation = await bodyOf(t.post('/users/me/trusted-people', { email: carer.email, can }, owner.token), 201)
      assertStatus(await t.post(`/users/me/acting-for/${invitation.id as number}/accept`, undefined, carer.token), 200)
    }
    const approve = async (id: number) => assertStatus(await t.post(`/moderation/series/${id}/approve`, {}, moderator.token), 200)
    /** The series' occurrences from the database's view of requests, oldest first. */
    async function occurrencesOf (seriesId: number, viewer: Account): Promise<Occurrence[]> {
      const rows = await t.db.query<{ id: number }>('SELECT id FROM requests WHERE series_id = $1 ORDER BY window_start, id', [seriesId])
      return await Promise.all(rows.map(async (row) => await bodyOf(t.get(`/requests/${Number(row.id)}`, viewer.token))))
    }
    const history = async (id: number, viewer: Account): Promise<Array<Omit<Entry, 'at'>>> =>
      (await bodyOf(t.get(`/requests/${id}/history`, viewer.token)) as Entry[]).map(({ at: _at, ...rest }) => rest)
    async function offerAndAccept (occurrence: number, volunteer: Account, accepter: Account): Promise<number> {
      const response = (await bodyOf(t.post(`/requests/${occurrence}/responses`, {}, volunteer.token), 201)).id
      assertStatus(await t.post(`/requests/${occurrence}/responses/${response}/accept`, undefined, accepter.token), 200)
      return response
    }

    it('refuses as POST /requests refuses: no grant, a carer without create, an unknown client, someone else for a client', async () => {
      clock.set(START)
      const [owner, stranger, follower] = [await t.register(), await t.register(), await t.register()]
      await grant(owner, follower, ['follow', 'accept'])
      const a = await coordinator()
      assertError(await t.post('/request-series', input({ on_behalf_of: { user_id: owner.id } }), stranger.token), 403, 'not allowed for this person')
      assertError(await t.post('/request-series', input({ on_behalf_of: { user_id: owner.id } }), follower.token), 403, 'not allowed for this person')
      assertError(await t.post('/request-series', input({ on_behalf_of: { client_id: await newClient(a) } }), stranger.token), 403, 'coordinator role required')
      assertError(await t.post('/request-series', input({ on_behalf_of: { client_id: 999_999 } }), a.token), 404, 'client not found')
      assert.equal((await t.db.query('SELECT 1 FROM request_series WHERE requester_id = ANY ($1::bigint[])', [[owner.id, stranger.id, follower.id, a.id]])).length, 0, 'nothing was made')
      // For oneself by one's own id is one's own series.
      const own = await bodyOf(t.post('/request-series', input({ on_behalf_of: { user_id: stranger.id } }), stranger.token), 201)
      assert.deepEqual([own.requester_id, own.client_id], [stranger.id, null])
    })

    it('a coordinator\'s series for a client: the client\'s defaults, occurrences for the client, any coordinator acts, history and notices', async () => {
      clock.set(START)
      const [a, b, volunteer, other] = [await coordinator(), await coordinator(), await t.register(), await t.register()]
      const clientId = await newClient(a)
      const forClient = { client_id: clientId }
      const { latitude: _lat, longitude: _lon, address: _addr, contact_phone: _phone, ...bare } = requestInput()
      const series = await bodyOf(t.post('/request-series', { ...input(), template: { ...bare, title: 'Lift to dialysis', on_behalf_of: forClient } }, a.token), 201)
      assert.deepEqual([series.requester_id, series.client_id, series.template.contact_phone, series.template.address, series.template.latitude],
        [a.id, clientId, '+4930555111', 'Hauptstr. 1', 52.5], 'the client\'s record fills what the coordinator left out')
      assert.equal('on_behalf_of' in series.template, false, 'the template does not keep it: the series says it')

      // Another coordinator reads and changes it; people outside it do not see it.
      assertStatus(await t.get(`/request-series/${series.id as number}`, b.token), 200)
      assertError(await t.get(`/request-series/${series.id as number}`, other.token), 404, 'series not found')
      assertError(await t.patch(`/request-series/${series.id as number}`, { start_time: '08:00' }, other.token), 404, 'series not found')
      assertError(await t.patch(`/request-series/${series.id as number}`, { template: { ...requestInput(), on_behalf_of: { client_id: await newClient(a) } } }, b.token), 400, 'on_behalf_of cannot be changed')
      assert.equal((await bodyOf(t.patch(`/request-series/${series.id as number}`, { start_time: '08:00' }, b.token))).start_time, '08:00')
      await approve(series.id)

      const occurrences = await occurrencesOf(series.id, b)
      assert.ok(occurrences.length >= 4, 'occurrences to the horizon')
      for (const o of occurrences) assert.deepEqual([o.requester_id, o.client_id], [a.id, clientId], 'each occurrence carries the client')
      const [first, skipped, ...coming] = occurrences
      // Confirm: a volunteer offers, the other coordinator accepts, the volunteer confirms; both coordinators are told.
      const response = await offerAndAccept(first!.id, volunteer, b)
      assertStatus(await t.post(`/requests/${first!.id}/confirm`, undefined, volunteer.token), 200)
      assert.ok((await noticesOf(t, a, first!.id)).some((n) => n.type === 'volunteer_confirmed'), 'the creating coordinator')
      // Skip: one occurrence cancelled by a coordinator, as a client's request is.
      assertStatus(await t.post(`/requests/${skipped!.id}/cancel`, undefined, b.token), 200)
      // End: by the other coordinator; the coming unaccepted ones cancelled in their capacity.
      const ended = await bodyOf(t.post(`/request-series/${series.id as number}/end`, undefined, b.token))
      assert.equal(ended.status, 'ended')

      const [created, ...rest] = await history(first!.id, a)
      assert.deepEqual([created?.action, created?.actor], ['created', SERVICE], 'the occurrence is made by the service')
      assert.deepEqual(rest, [
        entry('offer_made', person(volunteer, 'volunteer'), { response_id: response }),
        entry('accepted', person(b, 'coordinator'), { response_id: response }, forClient),
        entry('confirmed', person(volunteer, 'volunteer')),
        entry('cancelled', person(b, 'coordinator'), { reason: 'requester' }, forClient),
      ], 'the end cancels a coming accepted one too, in the coordinator\'s capacity')
      assert.deepEqual((await history(skipped!.id, a)).at(-1), entry('cancelled', person(b, 'coordinator'), { reason: 'requester' }, forClient))
      assert.deepEqual((await history(coming[0]!.id, a)).at(-1), entry('cancelled', person(b, 'coordinator'), { reason: 'requester' }, forClient))
    })

    it('a carer\'s series for the person: the person\'s requests, the carer acts by her grant, the person sees all', async () => {
      clock.set(START)
      const [owner, carer, volunteer, follower] = [await t.register(), await t.register(), await t.register(), await t.register()]
      await grant(owner, carer, ['create', 'accept', 'cancel'])
      await grant(owner, follower, ['follow'])
      const forOwner = { user_id: owner.id }
      const series = await bodyOf(t.post('/request-series', input({ on_behalf_of: forOwner }), carer.token), 201)
      assert.deepEqual([series.requester_id, series.client_id], [owner.id, null])
      assert.ok((await bodyOf(t.get('/request-series/mine', owner.token))).some((s: { id: number }) => s.id === series.id), 'the person\'s own list')

      // The follower reads it but may not change or end it; the carer changes it.
      assertStatus(await t.get(`/request-series/${series.id as number}`, follower.token), 200)
      assertError(await t.patch(`/request-series/${series.id as number}`, { start_time: '09:00' }, follower.token), 403, 'not allowed for this person')
      assertError(await t.post(`/request-series/${series.id as number}/end`, undefined, follower.token), 403, 'not allowed for this person')
      assertStatus(await t.patch(`/request-series/${series.id as number}`, { start_time: '09:00', template: requestInput({ title: 'Lift to dialysis', on_behalf_of: forOwner }) }, carer.token), 200)
      await approve(series.id)

      const occurrences = await occurrencesOf(series.id, owner)
      assert.ok(occurrences.length >= 4)
      for (const o of occurrences) assert.deepEqual([o.requester_id, o.client_id], [owner.id, null], 'the person is the requester')
      const [first, skipped, ...coming] = occurrences
      const response = await offerAndAccept(first!.id, volunteer, carer)
      assertStatus(await t.post(`/requests/${first!.id}/confirm`, undefined, volunteer.token), 200)
      assertStatus(await t.post(`/requests/${skipped!.id}/cancel`, undefined, carer.token), 200)
      assert.equal((await bodyOf(t.post(`/request-series/${series.id as number}/end`, undefined, carer.token))).status, 'ended')

      const accepted = (await history(first!.id, owner)).find((e) => e.action === 'accepted')
      assert.deepEqual(accepted, entry('accepted', person(carer, 'carer'), { response_id: response }, forOwner))
      assert.deepEqual((await history(skipped!.id, owner)).at(-1), entry('cancelled', person(carer, 'carer'), { reason: 'requester' }, forOwner))
      assert.deepEqual((await history(coming[0]!.id, owner)).at(-1), entry('cancelled', person(carer, 'carer'), { reason: 'requester' }, forOwner))
      assert.ok((await noticesOf(t, owner, first!.id)).some((n) => n.type === 'volunteer_confirmed'), 'the person is told')
      assert.ok((await noticesOf(t, follower, first!.id)).some((n) => n.type === 'volunteer_confirmed'), 'and her carers')
      const reports = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM requests WHERE series_id = $1 AND created_by_carer = $2', [series.id, carer.id])
      assert.equal(Number(reports[0]!.n), occurrences.length, 'the occurrences count as asked by a carer')
    })

    it('a client\'s erasure ends their series, so no occurrence is made for them after', async () => {
      clock.set(START)
      const a = await coordinator()
      const clientId = await newClient(a)
      const series = await bodyOf(t.post('/request-series', input({ on_behalf_of: { client_id: clientId } }), a.token), 201)
      await approve(series.id)
      assertStatus(await t.delete(`/clients/${clientId}`, a.token), 200)
      assert.equal((await bodyOf(t.get(`/request-series/${series.id as number}`, a.token))).status, 'ended')
      const active = await t.db.query("SELECT 1 FROM requests WHERE series_id = $1 AND status NOT IN ('cancelled', 'completed')", [series.id])
      assert.equal(active.length, 0)
    })
  })
}
