import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { loadConfig } from '../../src/config.js'
import { startApp, TEST_SECRET, type Account, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'
import { requestInput } from '../helpers/requests.js'

/**
 * docs/api/visit-checks.md › A visit, checked in and checked out, through HTTP: every step and refusal, a worried
 * check-out's concern (and nothing of it on the requester's side), "my helper has left" by the requester and by a
 * carer, completion checking the visit out, and each step in the request's history. VISIT_CHECKS=off answers 404.
 */

const ON = { visits: { ...loadConfig({ JWT_SECRET: TEST_SECRET }).visits, checks: 'on' as const } }
const WORRIED_TEXT = 'The volunteer checked out of this visit and said they are worried. Please get in touch with them soon.'

for (const engine of engines()) {
  describe(`visit checks: check-in, check-out, helper left (${engine})`, () => {
    let t: TestApp
    let moderator: Account
    before(async () => {
      t = await startApp(engine, ON)
      moderator = await t.registerWithRole('moderator')
    })
    after(() => t.close())

    /** An in_progress request of `requester` (a new one unless given) with `volunteer` assigned. */
    async function assigned (requester?: Account, input: Record<string, unknown> = {}, token?: string): Promise<{ id: number, requester: Account, volunteer: Account }> {
      const owner = requester ?? await t.register()
      const volunteer = await t.register()
      const created = await t.post('/requests', requestInput(input), token ?? owner.token)
      assertStatus(created, 201)
      const id = created.body.id as number
      assertStatus(await t.post(`/moderation/requests/${id}/approve`, {}, moderator.token), 200)
      const offer = await t.post(`/requests/${id}/responses`, {}, volunteer.token)
      assertStatus(offer, 201)
      assertStatus(await t.post(`/requests/${id}/responses/${offer.body.id}/accept`, undefined, token ?? owner.token), 200)
      return { id, requester: owner, volunteer }
    }

    const visit = (id: number, step: string, token: string, body?: unknown) => t.post(`/requests/${id}/visit/${step}`, body, token)
    const history = async (id: number): Promise<Array<{ action: string, actor: { role: string, id?: number }, details: Record<string, unknown> }>> => {
      const res = await t.get(`/requests/${id}/history`, t.admin.token)
      assertStatus(res, 200)
      return res.body
    }

    it('checks in and out once each, answers a repeat unchanged, and refuses everyone but the assigned volunteer', async () => {
      const { id, requester, volunteer } = await assigned()
      const stranger = await t.register()
      for (const step of ['check-in', 'check-out']) {
        for (const account of [requester, stranger, moderator, t.admin]) assertError(await visit(id, step, account.token), 403, 'only the assigned volunteer can do this')
        assertError(await t.post(`/requests/${id}/visit/${step}`), 401, 'unauthorized')
      }
      assertError(await visit(id, 'check-out', volunteer.token), 400, 'not checked in')
      const first = await visit(id, 'check-in', volunteer.token)
      assertStatus(first, 200)
      assert.deepEqual(Object.keys(first.body).sort(), ['checked_in_at', 'checked_out_at'])
      assert.equal(first.body.checked_out_at, null)
      assert.ok(!Number.isNaN(Date.parse(first.body.checked_in_at)))
      const again = await visit(id, 'check-in', volunteer.token)
      assert.deepEqual(again.body, first.body, 'a second check-in changes nothing')
      const out = await visit(id, 'check-out', volunteer.token)
      assertStatus(out, 200)
      assert.equal(out.body.checked_in_at, first.body.checked_in_at)
      assert.ok(Date.parse(out.body.checked_out_at) >= Date.parse(first.body.checked_in_at))
      assert.deepEqual((await visit(id, 'check-out', volunteer.token)).body, out.body, 'a second check-out changes nothing')
      assert.deepEqual((await visit(id, 'check-in', volunteer.token)).body, out.body, 'a check-in after the check-out changes nothing')
      const visits = (await history(id)).filter((entry) => entry.action.startsWith('checked'))
      assert.deepEqual(visits.map((entry) => [entry.action, entry.actor.role, entry.actor.id, entry.details]), [
        ['checked_in', 'volunteer', volunteer.id, {}],
        ['checked_out', 'volunteer', volunteer.id, { by: 'volunteer' }],
      ])
    })

    it('refuses a request not in progress, and one the caller may not see, and bad ids', async () => {
      const requester = await t.register()
      const created = await t.post('/requests', requestInput(), requester.token)
      const volunteer = await t.register()
      assertError(await visit(created.body.id, 'check-in', volunteer.token), 403, 'only the assigned volunteer can do this')
      const { id, volunteer: helper } = await assigned()
      assertStatus(await visit(id, 'check-in', helper.token), 200)
      assertError(await visit(999_999_999, 'check-in', helper.token), 404, 'request not found')
      assertError(await visit(0, 'check-in', helper.token), 400, 'invalid request id')
      assertError(await visit(id, 'check-out', helper.token, { worried: 'yes' }), 400, 'invalid worried')
      // Completed: the visit was checked out by the completion, and every step is refused.
      const done = await assigned()
      assertStatus(await visit(done.id, 'check-in', done.volunteer.token), 200)
      assertStatus(await t.post(`/requests/${done.id}/complete`, { rating: 5 }, done.requester.token), 200)
      for (const step of ['check-in', 'check-out']) assertError(await visit(done.id, step, done.volunteer.token), 400, 'request is not in progress')
      assertError(await visit(done.id, 'helper-left', done.requester.token), 400, 'request is not in progress')
      const entries = await history(done.id)
      assert.deepEqual(entries.slice(-2).map((entry) => [entry.action, entry.actor.role, entry.details.by ?? null]), [['completed', 'requester', null], ['checked_out', 'requester', 'completion']])
      // A cancelled request: hidden from strangers, refused to its former volunteer as not in progress.
      const gone = await assigned()
      assertStatus(await t.post(`/requests/${gone.id}/cancel`, undefined, gone.requester.token), 200)
      assertError(await visit(gone.id, 'check-in', (await t.register()).token), 404, 'request not found')
    })

    it('a worried check-out raises one urgent concern for the moderators, shown nowhere on the requester\'s side', async () => {
      const { id, requester, volunteer } = await assigned()
      assertError(await visit(id, 'check-out', volunteer.token, { worried: true }), 400, 'not checked in')
      assertStatus(await visit(id, 'check-in', volunteer.token), 200)
      const out = await visit(id, 'check-out', volunteer.token, { worried: true })
      assertStatus(out, 200)
      assertStatus(await visit(id, 'check-out', volunteer.token, { worried: true }), 200)
      const queue = await t.get('/moderation/concerns?limit=100', moderator.token)
      const raised = queue.body.filter((concern: { request_id: number }) => concern.request_id === id)
      assert.equal(raised.length, 1, 'once per visit')
      assert.deepEqual([raised[0].kind, raised[0].reporter_id, raised[0].subject_user_id, raised[0].urgent, raised[0].text], ['report', volunteer.id, null, true, WORRIED_TEXT])
      assert.equal(queue.body.indexOf(raised[0]) >= 0 && queue.body[0].urgent, true, 'urgent first')
      const mine = await t.get('/concerns/mine', volunteer.token)
      assert.deepEqual(mine.body.map((concern: { id: number }) => concern.id), [raised[0].id])
      // The requester's side: no notification, no concern, and a history that says only "checked out".
      const inbox = await t.get('/notifications?limit=100', requester.token)
      assert.ok(inbox.body.every((n: { type: string }) => n.type !== 'concern_raised'))
      assert.deepEqual((await t.get('/concerns/mine', requester.token)).body, [])
      const seen = await t.get(`/requests/${id}/history`, requester.token)
      assertStatus(seen, 200)
      assert.ok(!JSON.stringify(seen.body).includes('worr'), 'nothing of the worry in the history')
      // The volunteer's export has her visit with its stamps, the worry as a time; the requester's has none of it.
      const [own] = (await t.get('/users/me/export', volunteer.token)).body.visits.filter((row: { request_id: number }) => row.request_id === id)
      assert.deepEqual([own.checked_in_at, own.checked_out_at, own.worried_at].map((at: string | null) => typeof at), ['string', 'string', 'string'])
      assert.equal(own.worried_at, own.checked_out_at)
      const theirs = await t.get('/users/me/export', requester.token)
      assert.deepEqual(theirs.body.visits, [])
      assert.ok(!theirs.text.includes('worr'), 'nothing of the worry in the requester\'s export')
      const told = await t.get('/notifications?limit=100', moderator.token)
      assert.ok(told.body.some((n: { type: string, request_id: number, data: { urgent: boolean } }) => n.type === 'concern_raised' && n.request_id === id && n.data.urgent))
    })

    it('the requester, or a carer allowed to complete, says the helper has left; a follower and others may not', async () => {
      const { id, requester, volunteer } = await assigned()
      const [carer, follower, stranger] = [await t.register(), await t.register(), await t.register()]
      // Direct write: the invitations API is docs/api/on-behalf.md › Carers, tested there; two accepted grants.
      await t.db.query(`INSERT INTO trusted_people (owner_id, email, carer_id, can, status, created_at, decided_at)
        VALUES ($1, $2, $3, $4, 'accepted', now(), now()), ($1, $5, $6, $7, 'accepted', now(), now())`,
      [requester.id, carer.email, carer.id, ['follow', 'complete'], follower.email, follower.id, ['follow']])
      const empty = await visit(id, 'helper-left', requester.token)
      assert.deepEqual(empty.body, { checked_in_at: null, checked_out_at: null }, 'not checked in: answered unchanged')
      for (const account of [volunteer, stranger, moderator]) assertError(await visit(id, 'helper-left', account.token), 403, 'only the requester can do this')
      assertError(await visit(id, 'helper-left', follower.token), 403, 'not allowed for this person')
      assertStatus(await visit(id, 'check-in', volunteer.token), 200)
      const left = await visit(id, 'helper-left', carer.token)
      assertStatus(left, 200)
      assert.notEqual(left.body.checked_out_at, null)
      assert.deepEqual((await visit(id, 'helper-left', requester.token)).body, left.body, 'again: unchanged')
      assert.deepEqual((await visit(id, 'check-out', volunteer.token)).body, left.body, 'the volunteer\'s check-out after it: unchanged')
      const entry = (await history(id)).find((e) => e.action === 'checked_out')!
      assert.deepEqual([entry.actor.role, entry.actor.id, entry.details], ['carer', carer.id, { by: 'requester' }])
    })

    it('the visit as it stands, for its volunteer and the requester\'s side; a new volunteer\'s starts afresh', async () => {
      const { id, requester, volunteer } = await assigned()
      const [follower, stranger] = [await t.register(), await t.register()]
      await t.db.query(`INSERT INTO trusted_people (owner_id, email, carer_id, can, status, created_at, decided_at)
        VALUES ($1, $2, $3, $4, 'accepted', now(), now())`, [requester.id, follower.email, follower.id, ['follow']])
      const read = async (account: Account) => {
        const res = await t.get(`/requests/${id}/visit`, account.token)
        assertStatus(res, 200)
        return res.body
      }
      for (const account of [volunteer, requester, follower]) assert.deepEqual(await read(account), { checked_in_at: null, checked_out_at: null })
      for (const account of [stranger, moderator, t.admin]) assertError(await t.get(`/requests/${id}/visit`, account.token), 403, 'only the assigned volunteer or the requester can see this')
      assertError(await t.get(`/requests/${id}/visit`), 401, 'unauthorized')
      assertError(await t.get('/requests/999999999/visit', volunteer.token), 404, 'request not found')
      assertError(await t.get('/requests/0/visit', volunteer.token), 400, 'invalid request id')
      const checkedIn = (await visit(id, 'check-in', volunteer.token)).body
      for (const account of [volunteer, requester, follower]) assert.deepEqual(await read(account), checkedIn)
      const out = (await visit(id, 'helper-left', requester.token)).body
      assert.deepEqual(await read(volunteer), out)
      // The volunteer withdraws and another is accepted: the new visit has not started.
      const [offer] = (await t.get(`/requests/${id}/responses`, requester.token)).body as Array<{ id: number }>
      assertStatus(await t.post(`/requests/${id}/responses/${offer!.id}/cancel`, undefined, volunteer.token), 200)
      const next = await t.register()
      const again = await t.post(`/requests/${id}/responses`, {}, next.token)
      assertStatus(again, 201)
      assertStatus(await t.post(`/requests/${id}/responses/${again.body.id}/accept`, undefined, requester.token), 200)
      assert.deepEqual(await read(requester), { checked_in_at: null, checked_out_at: null })
      assertError(await t.get(`/requests/${id}/visit`, volunteer.token), 403, 'only the assigned volunteer or the requester can see this')
    })

    it('a coordinator of a client\'s request says the helper has left for the client', async () => {
      const coordinator = await t.registerWithRole('coordinator')
      const client = await t.post('/clients', { first_name: 'Erna', last_name: 'Client', phone: '+4917011223344', address: '5 Linden Way', city: 'Berlin', latitude: 52.4, longitude: 13.3, consent: { how: 'phone' } }, coordinator.token)
      assertStatus(client, 201)
      const other = await t.registerWithRole('coordinator')
      const { id, volunteer } = await assigned(coordinator, { on_behalf_of: { client_id: client.body.id } })
      assertStatus(await visit(id, 'check-in', volunteer.token), 200)
      const left = await visit(id, 'helper-left', other.token)
      assertStatus(left, 200)
      assert.notEqual(left.body.checked_out_at, null)
    })
  })

  describe(`visit checks off (${engine})`, () => {
    let t: TestApp
    before(async () => { t = await startApp(engine) })
    after(() => t.close())

    it('every visit route answers 404 visit checks are off; expenses are not gated', async () => {
      const account = await t.register()
      for (const step of ['check-in', 'check-out', 'helper-left']) assertError(await t.post(`/requests/1/visit/${step}`, undefined, account.token), 404, 'visit checks are off')
      assertError(await t.get('/requests/1/visit', account.token), 404, 'visit checks are off')
      assertError(await t.post('/requests/999999/visit/expenses', { minutes: 5 }, account.token), 404, 'request not found')
    })
  })
}
