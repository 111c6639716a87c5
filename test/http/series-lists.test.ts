import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, type Account, type Response, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { engines } from '../helpers/engines.js'
import { requestInput } from '../helpers/requests.js'

/**
 * docs/api/on-behalf.md › Series for someone: GET /request-series/mine lists whose series the caller may read one by one,
 * a client's for every coordinator (`client_id`), a person's for her carers (`for_user_id`), and refuses as reading
 * the person's requests or asking for the client does.
 */

const START = new Date('2027-03-15T10:00:00Z')

for (const engine of engines()) {
  describe(`series lists for someone (${engine})`, () => {
    const clock = new ManualClock(START)
    let t: TestApp
    before(async () => { t = await startApp(engine, { timeZone: 'UTC' }, { alertTickMs: 0, horizonTickMs: 0, scheduleTickMs: 0, clock }) })
    after(() => t.close())

    const bodyOf = async (answer: Promise<Response>, status = 200) => { const res = await answer; assertStatus(res, status); return res.body }
    const input = (title: string, onBehalfOf?: Record<string, number>) => ({
      template: requestInput({ title, ...(onBehalfOf !== undefined ? { on_behalf_of: onBehalfOf } : {}) }), days: ['tue'], start_time: '07:30', duration_minutes: 120, starts_on: '2027-03-16',
    })
    const titles = async (path: string, viewer: Account): Promise<string[]> =>
      (await bodyOf(t.get(path, viewer.token)) as Array<{ template: { title: string } }>).map((series) => series.template.title).sort()
    async function coordinator (): Promise<Account> {
      const account = await t.register()
      assertStatus(await t.post(`/admin/users/${account.id}/roles/4`, undefined, t.admin.token), 200)
      return account
    }
    const newClient = async (by: Account): Promise<number> =>
      (await bodyOf(t.post('/clients', { first_name: 'Erna', last_name: 'Schmidt', latitude: 52.5, longitude: 13.4, address: 'Hauptstr. 1', consent: { how: 'phone' } }, by.token), 201)).id
    async function grant (owner: Account, carer: Account, can: string[]): Promise<number> {
      const invitation = await bodyOf(t.post('/users/me/trusted-people', { email: carer.email, can }, owner.token), 201)
      assertStatus(await t.post(`/users/me/acting-for/${invitation.id as number}/accept`, undefined, carer.token), 200)
      return invitation.id
    }

    it('client_id: every coordinator lists a client\'s series, whoever made it; others are refused', async () => {
      const [a, b, plain] = [await coordinator(), await coordinator(), await t.register()]
      const [erna, other] = [await newClient(a), await newClient(a)]
      await bodyOf(t.post('/request-series', input('Weekly shopping', { client_id: erna }), a.token), 201)
      await bodyOf(t.post('/request-series', input('Lift to church', { client_id: erna }), b.token), 201)
      await bodyOf(t.post('/request-series', input('Someone else', { client_id: other }), a.token), 201)
      await bodyOf(t.post('/request-series', input('A own'), a.token), 201)
      assert.deepEqual(await titles(`/request-series/mine?client_id=${erna}`, b), ['Lift to church', 'Weekly shopping'], 'made by either coordinator')
      assert.deepEqual(await titles(`/request-series/mine?client_id=${erna}`, a), ['Lift to church', 'Weekly shopping'])
      assert.deepEqual(await titles('/request-series/mine', b), ['Lift to church'], 'without it, as before: her own')
      assertError(await t.get(`/request-series/mine?client_id=${erna}`, plain.token), 403, 'coordinator role required')
      assertError(await t.get('/request-series/mine?client_id=999999', a.token), 404, 'client not found')
      assertError(await t.get('/request-series/mine?client_id=abc', a.token), 400, 'invalid client_id')
      assertError(await t.get(`/request-series/mine?client_id=${erna}&for_user_id=${a.id}`, a.token), 400, 'invalid client_id')
      assertStatus(await t.delete(`/clients/${other}`, a.token), 200)
      assertError(await t.get(`/request-series/mine?client_id=${other}`, a.token), 404, 'client not found')
    })

    it('for_user_id: a carer lists the person\'s series (also a follower), never the client series she made as a coordinator', async () => {
      const [person, carer, follower, stranger] = [await coordinator(), await t.register(), await t.register(), await t.register()]
      await grant(person, carer, ['create'])
      const followed = await grant(person, follower, ['follow'])
      await bodyOf(t.post('/request-series', input('Her own lift'), person.token), 201)
      await bodyOf(t.post('/request-series', input('Weekly lift', { user_id: person.id }), carer.token), 201)
      await bodyOf(t.post('/request-series', input('For her client', { client_id: await newClient(person) }), person.token), 201)
      assert.deepEqual(await titles(`/request-series/mine?for_user_id=${person.id}`, carer), ['Her own lift', 'Weekly lift'])
      assert.deepEqual(await titles(`/request-series/mine?for_user_id=${person.id}`, follower), ['Her own lift', 'Weekly lift'])
      assert.deepEqual(await titles(`/request-series/mine?for_user_id=${person.id}`, person), ['For her client', 'Her own lift', 'Weekly lift'], 'her own id: her own list')
      assertError(await t.get(`/request-series/mine?for_user_id=${person.id}`, stranger.token), 403, 'not allowed for this person')
      assertError(await t.get('/request-series/mine?for_user_id=0', carer.token), 400, 'invalid for_user_id')
      // Stopped: refused at once.
      assertStatus(await t.delete(`/users/me/trusted-people/${followed}`, person.token), 204)
      assertError(await t.get(`/request-series/mine?for_user_id=${person.id}`, follower.token), 403, 'not allowed for this person')
    })
  })
}
