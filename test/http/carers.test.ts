import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, startSecondInstance, uniqueEmail, type Account, type Response, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'
import { REQUEST_INPUT, respond } from '../helpers/lifecycle.js'
import { findGrant } from '../../src/on-behalf/carers/carers.repo.js'

/**
 * docs/api/on-behalf.md › Carers through HTTP: invitations (the same answer with or without an account, no enumeration), the
 * invited side, each grant × each operation a carer may take (table-driven), what a follower sees and what is
 * recorded of it, revocation at once (also racing an accept, on two instances under PostgreSQL), erasure, export.
 */

const NOT_ALLOWED = 'not allowed for this person'
const PHONE = '+493012345678'
const INPUT = { ...REQUEST_INPUT, contact_phone: PHONE }

for (const engine of engines()) {
  describe(`carers (${engine})`, () => {
    let t: TestApp
    let second: TestApp | undefined
    let moderator: Account

    before(async () => {
      t = await startApp(engine)
      if (engine === 'postgres') second = await startSecondInstance(t)
      moderator = await t.registerWithRole('moderator')
    })
    after(async () => {
      await second?.close()
      await t.close()
    })

    const person = (): Promise<Account> => t.register({ first_name: 'Erna', last_name: 'Schmidt' })
    const carerAccount = (): Promise<Account> => t.register({ first_name: 'Carla', last_name: 'Carer' })
    const invite = (owner: Account, email: string, can: unknown): Promise<Response> => t.post('/users/me/trusted-people', { email, can }, owner.token)

    /** `carer` invited by `owner` with `can`, accepted; returns the invitation's id. */
    async function trust (owner: Account, carer: Account, can: string[]): Promise<number> {
      const made = await invite(owner, carer.email, can)
      assertStatus(made, 201)
      assertStatus(await t.post(`/users/me/acting-for/${made.body.id}/accept`, undefined, carer.token), 200)
      return made.body.id
    }

    /** An approved request of `owner` (with a contact phone) with one offer; its id and the offer's. */
    async function openRequest (owner: Account): Promise<{ requestId: number, responseId: number }> {
      const created = await t.post('/requests', INPUT, owner.token)
      assertStatus(created, 201)
      assertStatus(await t.post(`/moderation/requests/${created.body.id}/approve`, {}, moderator.token), 200)
      return { requestId: created.body.id, responseId: await respond(t, created.body.id, await t.register()) }
    }

    async function inProgress (owner: Account): Promise<number> {
      const { requestId, responseId } = await openRequest(owner)
      return (await t.post(`/requests/${requestId}/responses/${responseId}/accept`, undefined, owner.token)).body.request_id
    }

    type Notice = { type: string, request_id: number | null, data: Record<string, unknown> }
    const notices = async (account: Account): Promise<Notice[]> => (await t.get('/notifications?limit=100', account.token)).body

    it('an invitation: the same answer with or without an account; the account is told; every refusal', async () => {
      const owner = await person()
      const existing = await carerAccount()
      const withAccount = await invite(owner, ` ${existing.email.toUpperCase()} `, ['create'])
      const without = await invite(owner, uniqueEmail('nobody'), ['create'])
      for (const [res, email] of [[withAccount, existing.email], [without, without.body.email]] as const) {
        assertStatus(res, 201)
        assert.deepEqual({ ...res.body, id: 0, created_at: '' }, { id: 0, email, name: null, can: ['create', 'follow'], status: 'invited', created_at: '' })
      }
      const told = (await notices(existing)).filter((n) => n.type === 'trust_invitation')
      assert.deepEqual(told.map((n) => [n.request_id, n.data]), [[null, { invitation_id: withAccount.body.id, from_name: 'Erna Schmidt' }]])
      // Again to the same address: the same invitation with the new `can`, nobody told twice.
      const again = await invite(owner, existing.email, ['cancel'])
      assert.deepEqual([again.status, again.body.id, again.body.can], [201, withAccount.body.id, ['follow', 'cancel']])
      assert.equal((await notices(existing)).filter((n) => n.type === 'trust_invitation').length, 1)
      const listed = await t.get('/users/me/trusted-people', owner.token)
      assert.deepEqual(listed.body.map((p: { id: number }) => p.id), [without.body.id, withAccount.body.id])

      for (const can of [['nope'], ['follow', 'admin'], 'create', [1], undefined]) assertError(await invite(owner, existing.email, can), 400, 'invalid can')
      assertError(await invite(owner, owner.email.toUpperCase(), []), 400, 'cannot invite yourself')
      assert.equal((await invite(owner, 'not an address', [])).status, 400)
      const stranger = await person()
      assertError(await t.delete(`/users/me/trusted-people/${withAccount.body.id}`, stranger.token), 404, 'invitation not found')
      assertError(await t.delete('/users/me/trusted-people/abc', owner.token), 400, 'invalid invitation id')
      assertError(await t.post(`/users/me/acting-for/${withAccount.body.id}/accept`, undefined, stranger.token), 404, 'invitation not found')
      assertError(await t.post(`/users/me/acting-for/${withAccount.body.id}/decline`, undefined, stranger.token), 404, 'invitation not found')
    })

    it('the invited side: nothing before acceptance; accept, an address registered later, decline, stop', async () => {
      const owner = await person()
      const carer = await carerAccount()
      const made = await invite(owner, carer.email, ['create', 'cancel'])
      const item = { id: made.body.id, user_id: owner.id, name: 'Erna Schmidt', can: ['create', 'follow', 'cancel'] }
      assert.deepEqual((await t.get('/users/me/acting-for', carer.token)).body, [{ ...item, status: 'invited' }])
      // Nothing before acceptance.
      assertError(await t.get(`/requests/my?for_user_id=${owner.id}`, carer.token), 403, NOT_ALLOWED)
      assertError(await t.post('/requests', { ...INPUT, on_behalf_of: { user_id: owner.id } }, carer.token), 403, NOT_ALLOWED)

      const accepted = await t.post(`/users/me/acting-for/${made.body.id}/accept`, undefined, carer.token)
      assert.deepEqual([accepted.status, accepted.body], [200, { ...item, status: 'accepted' }])
      assert.deepEqual((await t.post(`/users/me/acting-for/${made.body.id}/accept`, undefined, carer.token)).body, accepted.body)
      const seen = (await t.get('/users/me/trusted-people', owner.token)).body[0]
      assert.deepEqual([seen.name, seen.status], ['Carla Carer', 'accepted'])
      assertStatus(await t.get(`/requests/my?for_user_id=${owner.id}`, carer.token), 200)

      // The carer stops by declining, also after accepting: at once, and gone from their list.
      const declined = await t.post(`/users/me/acting-for/${made.body.id}/decline`, undefined, carer.token)
      assert.deepEqual([declined.status, declined.body.status], [200, 'declined'])
      assert.deepEqual((await t.get('/users/me/acting-for', carer.token)).body, [])
      assert.equal((await t.get('/users/me/trusted-people', owner.token)).body[0].status, 'declined')
      assertError(await t.get(`/requests/my?for_user_id=${owner.id}`, carer.token), 403, NOT_ALLOWED)
      assertError(await t.post(`/users/me/acting-for/${made.body.id}/accept`, undefined, carer.token), 404, 'invitation not found')
      // Invited again after a decline: invited once more, and told again.
      assert.equal((await invite(owner, carer.email, [])).body.status, 'invited')
      assert.equal((await notices(carer)).filter((n) => n.type === 'trust_invitation').length, 2)

      // An address without an account: its account, registered later, finds the invitation by its address.
      const email = uniqueEmail('later')
      const early = await invite(owner, email, [])
      const late = await t.register({ email, first_name: 'Lena', last_name: 'Later' })
      assert.deepEqual((await t.get('/users/me/acting-for', late.token)).body.map((i: { id: number }) => i.id), [early.body.id])
      assertStatus(await t.post(`/users/me/acting-for/${early.body.id}/accept`, undefined, late.token), 200)
      assertStatus(await t.get(`/requests/my?for_user_id=${owner.id}`, late.token), 200)
      assertError(await t.get('/requests/my?for_user_id=abc', late.token), 400, 'invalid for_user_id')
    })

    /**
     * Each operation a carer may take, with the grant it needs: allowed with it, 403 'not allowed for this
     * person' with every other grant (follow alone). `follow`'s refusal is for a carer of someone else.
     */
    interface Op { op: string, needs: string, run: (owner: Account, carer: Account) => Promise<[Response, number]> }
    const OPS: Op[] = [
      {
        op: 'create',
        needs: 'create',
        run: async (owner, carer) => [await t.post('/requests', { ...INPUT, on_behalf_of: { user_id: owner.id } }, carer.token), 201],
      },
      {
        op: 'follow',
        needs: 'follow',
        run: async (owner, carer) => {
          await openRequest(owner)
          return [await t.get(`/requests/my?for_user_id=${owner.id}`, carer.token), 200]
        },
      },
      {
        op: 'accept',
        needs: 'accept',
        run: async (owner, carer) => {
          const { requestId, responseId } = await openRequest(owner)
          return [await t.post(`/requests/${requestId}/responses/${responseId}/accept`, undefined, carer.token), 200]
        },
      },
      {
        op: 'reject an offer',
        needs: 'accept',
        run: async (owner, carer) => {
          const { requestId, responseId } = await openRequest(owner)
          return [await t.post(`/requests/${requestId}/responses/${responseId}/reject`, undefined, carer.token), 200]
        },
      },
      {
        op: 'cancel',
        needs: 'cancel',
        run: async (owner, carer) => [await t.post(`/requests/${(await openRequest(owner)).requestId}/cancel`, undefined, carer.token), 200],
      },
      {
        op: 'complete',
        needs: 'complete',
        run: async (owner, carer) => [await t.post(`/requests/${await inProgress(owner)}/complete`, { rating: 5 }, carer.token), 200],
      },
    ]
    for (const { op, needs, run } of OPS) {
      it(`${op}: allowed with '${needs}', refused without`, async () => {
        const owner = await person()
        const granted = await carerAccount()
        await trust(owner, granted, needs === 'follow' ? [] : [needs])
        const [allowed, ok] = await run(owner, granted)
        assertStatus(allowed, ok)
        const refused = await carerAccount()
        // Without the grant: every other one (follow is in all, so its refusal is a carer of someone else).
        if (needs === 'follow') await trust(await person(), refused, ['create', 'accept', 'cancel', 'complete'])
        else await trust(owner, refused, ['create', 'accept', 'cancel', 'complete'].filter((can) => can !== needs))
        const [denied] = await run(owner, refused)
        assertError(denied, 403, NOT_ALLOWED)
      })
    }

    it('a request a carer made: for the person, who is told by whom; the carer follows it as her side', async () => {
      const owner = await person()
      const carer = await carerAccount()
      await trust(owner, carer, ['create'])
      const created = await t.post('/requests', { ...INPUT, on_behalf_of: { user_id: owner.id } }, carer.token)
      assert.deepEqual([created.status, created.body.requester_id], [201, owner.id])
      const told = (await notices(owner)).filter((n) => n.type === 'request_created_for_you')
      assert.deepEqual(told.map((n) => [n.request_id, n.data]), [[created.body.id, { by_name: 'Carla Carer' }]])
      assert.deepEqual((await t.get(`/requests/my?for_user_id=${owner.id}`, carer.token)).body.map((r: { id: number }) => r.id), [created.body.id])
      // Her own requests are not the person's.
      assert.deepEqual((await t.get('/requests/my', carer.token)).body, [])

      // A cancelled request, its contact phone and every offer: the carer sees them as the person does; recorded.
      const { requestId } = await openRequest(owner)
      await respond(t, requestId, await t.register())
      assertStatus(await t.post(`/requests/${requestId}/cancel`, undefined, owner.token), 200)
      const detail = await t.get(`/requests/${requestId}`, carer.token)
      assert.deepEqual([detail.status, detail.body.contact_phone, detail.body.location.precision_meters], [200, PHONE, 0])
      assert.equal((await t.get(`/requests/${requestId}/responses`, carer.token)).body.length, 2)
      const log = await t.get(`/requests/${requestId}/access-log`, owner.token)
      assert.deepEqual(log.body.map((r: { viewer_id: number, viewer_role: string, fields: string[] }) => [r.viewer_id, r.viewer_role, r.fields]), [[carer.id, 'carer', ['contact_phone']]])
      // Someone else's carer sees none of it.
      const other = await carerAccount()
      await trust(await person(), other, [])
      assertError(await t.get(`/requests/${requestId}`, other.token), 404, 'request not found')
    })

    it('revocation holds at once: the next accept, cancel and read are refused', async () => {
      const owner = await person()
      const carer = await carerAccount()
      const id = await trust(owner, carer, ['accept', 'cancel'])
      const { requestId, responseId } = await openRequest(owner)
      assertStatus(await t.delete(`/users/me/trusted-people/${id}`, owner.token), 204)
      assert.deepEqual((await t.get('/users/me/trusted-people', owner.token)).body, [])
      assertError(await t.post(`/requests/${requestId}/responses/${responseId}/accept`, undefined, carer.token), 400, 'only the requester can accept a response')
      assertError(await t.post(`/requests/${requestId}/cancel`, undefined, carer.token), 400, 'only the requester can cancel a request')
      assertError(await t.get(`/requests/my?for_user_id=${owner.id}`, carer.token), 403, NOT_ALLOWED)
      assert.equal((await t.get(`/requests/${requestId}`, carer.token)).body.contact_phone, null)
      assertError(await t.delete(`/users/me/trusted-people/${id}`, owner.token), 404, 'invitation not found')
    })

    it('a revocation racing an accept: one of the two orders, never an accept the revocation already refused', async () => {
      const apps = second === undefined ? [t] : [t, second]
      const outcomes: number[] = []
      for (let round = 0; round < 6; round++) {
        const owner = await person()
        const carer = await carerAccount()
        const id = await trust(owner, carer, ['accept'])
        const { requestId, responseId } = await openRequest(owner)
        const [accept, revoke] = await Promise.all([
          apps[round % apps.length]!.post(`/requests/${requestId}/responses/${responseId}/accept`, undefined, carer.token),
          apps[(round + 1) % apps.length]!.delete(`/users/me/trusted-people/${id}`, owner.token),
        ])
        assertStatus(revoke, 204)
        const status = (await t.get(`/requests/${requestId}`, owner.token)).body.status
        if (accept.status === 200) assert.equal(status, 'in_progress')
        else {
          assertError(accept, 400, 'only the requester can accept a response')
          assert.equal(status, 'approved')
        }
        outcomes.push(accept.status)
        // Whichever order it was, after the revocation's answer nothing more is allowed.
        const later = await openRequest(owner)
        assertError(await t.post(`/requests/${later.requestId}/responses/${later.responseId}/accept`, undefined, carer.token), 400, 'only the requester can accept a response')
      }
      assert.ok(outcomes.every((status) => status === 200 || status === 400), String(outcomes))
    })

    it('a revocation waits for a change its grant already allowed (PostgreSQL: the grant is read FOR SHARE)', { skip: engine !== 'postgres' }, async () => {
      const owner = await person()
      const carer = await carerAccount()
      const id = await trust(owner, carer, ['accept'])
      let revoke: Promise<Response> | undefined
      await t.db.transaction(async (tx) => {
        // What an accept does once the request is locked: read the grant in its transaction.
        assert.deepEqual(await findGrant(tx, owner.id, carer.id), ['follow', 'accept'])
        revoke = second!.delete(`/users/me/trusted-people/${id}`, owner.token)
        // The revocation waits on the grant's row until this transaction ends (bounded: never a hang).
        for (let i = 0; ; i++) {
          const [row] = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%DELETE FROM trusted_people%'")
          if (row!.n === 1) break
          assert.ok(i < 2000, 'the revocation never waited')
        }
      })
      assertStatus(await revoke!, 204)
      assert.equal(await findGrant(t.db, owner.id, carer.id), undefined)
    })

    it('erasure removes the invitations the person made and those naming them; the export shows both sides', async () => {
      const owner = await person()
      const carer = await carerAccount()
      const id = await trust(owner, carer, ['create'])
      const exported = (await t.get('/users/me/export', owner.token)).body
      assert.deepEqual(exported.trusted_people.map((i: { id: number, user_id: number, can: string[], status: string }) => [i.id, i.user_id, i.can, i.status]), [[id, carer.id, ['create', 'follow'], 'accepted']])
      assert.equal(JSON.stringify(exported.trusted_people).includes(carer.email), false)
      assert.deepEqual((await t.get('/users/me/export', carer.token)).body.acting_for.map((i: { id: number, user_id: number }) => [i.id, i.user_id]), [[id, owner.id]])

      assertStatus(await t.request('DELETE', '/users/me', { token: carer.token, body: { password: carer.password } }), 200)
      assert.deepEqual((await t.get('/users/me/trusted-people', owner.token)).body, [])
      const next = await carerAccount()
      await trust(owner, next, [])
      const pending = uniqueEmail('pending')
      await invite(owner, pending, [])
      assertStatus(await t.request('DELETE', '/users/me', { token: owner.token, body: { password: owner.password } }), 200)
      assert.deepEqual((await t.get('/users/me/acting-for', next.token)).body, [])
      assert.deepEqual((await t.get('/users/me/acting-for', (await t.register({ email: pending })).token)).body, [])
    })
  })
}
