import assert from 'node:assert/strict'
import { randomInt } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'
import { REQUEST_INPUT, respond } from '../helpers/lifecycle.js'

/** docs/api/on-behalf.md › Coordinators and clients through HTTP: coordinators, their clients, and the requests they ask for them. */

const COORDINATOR_REQUIRED = [403, 'coordinator role required'] as const
const CLIENT_NOT_FOUND = [404, 'client not found'] as const

/** A phone number no other client of the run has: +49 170 and seven random digits. */
const newPhone = (): { stored: string, local: string } => {
  const rest = String(randomInt(1_000_000, 9_999_999))
  return { stored: `+49170${rest}`, local: `170 ${rest.slice(0, 4)} ${rest.slice(4)}` }
}
/** A name no other client of the run has. */
const newName = (): string => `Erna${randomInt(1e9)}`
const CLIENT_POINT = { latitude: 52.4, longitude: 13.3 }

for (const engine of engines()) {
  describe(`coordinators and their clients (${engine})`, () => {
    let t: TestApp
    let moderator: Account
    let coordinator: Account
    let second: Account
    let volunteer: Account

    async function newCoordinator (): Promise<Account> {
      const account = await t.register()
      assertStatus(await t.post(`/admin/users/${account.id}/roles/4`, undefined, t.admin.token), 200)
      return account
    }

    async function newClient (fields: Record<string, unknown> = {}): Promise<{ id: number, phone: string, local: string, first_name: string }> {
      const phone = newPhone()
      const record = { first_name: newName(), last_name: 'Schmidt', phone: phone.stored, address: '5 Linden Way', city: 'Berlin', ...CLIENT_POINT }
      const res = await t.post('/clients', { ...record, needs: 'wheelchair, needs help on stairs', consent: { how: 'phone' }, ...fields }, coordinator.token)
      assertStatus(res, 201)
      return { ...res.body, local: phone.local }
    }

    /** A request a coordinator asks for the client, taking the client's phone and point; approved when `approve`. */
    async function clientRequest (clientId: number, by: Account = coordinator, approve = true, extra: Record<string, unknown> = {}): Promise<number> {
      const { latitude: _lat, longitude: _lon, address: _address, ...rest } = REQUEST_INPUT
      const res = await t.post('/requests', { ...rest, ...extra, on_behalf_of: { client_id: clientId } }, by.token)
      assertStatus(res, 201)
      if (approve) assertStatus(await t.post(`/moderation/requests/${res.body.id}/approve`, {}, moderator.token), 200)
      return res.body.id
    }

    /** The client's request accepted for `volunteer` by `by`: in_progress. */
    async function assign (requestId: number, by: Account = coordinator): Promise<void> {
      const responseId = await respond(t, requestId, volunteer)
      assertStatus(await t.post(`/requests/${requestId}/responses/${responseId}/accept`, undefined, by.token), 200)
    }

    before(async () => {
      t = await startApp(engine, { addressPrivacy: 'parties' })
      moderator = await t.registerWithRole('moderator')
      coordinator = await newCoordinator()
      second = await newCoordinator()
      volunteer = await t.register()
    })
    after(() => t.close())

    it('refuses every client operation to anyone without coordinate_requests, and writes to moderators: 403 coordinator role required', async () => {
      const client = await newClient()
      const plain = await t.register()
      const cases: Array<[string, 'GET' | 'POST' | 'PATCH' | 'DELETE', string, unknown, Account]> = [
        ['create', 'POST', '/clients', { first_name: 'A', last_name: 'B', consent: { how: 'phone' } }, plain],
        ['list', 'GET', '/clients', undefined, plain],
        ['read', 'GET', `/clients/${client.id}`, undefined, plain],
        ['change', 'PATCH', `/clients/${client.id}`, { needs: 'x' }, plain],
        ['erase', 'DELETE', `/clients/${client.id}`, undefined, plain],
        ['coordinated list', 'GET', '/requests/coordinated', undefined, plain],
        ['ask for a client', 'POST', '/requests', { ...REQUEST_INPUT, on_behalf_of: { client_id: client.id } }, plain],
        ['create as moderator', 'POST', '/clients', { first_name: 'A', last_name: 'B', consent: { how: 'phone' } }, moderator],
        ['change as moderator', 'PATCH', `/clients/${client.id}`, { needs: 'x' }, moderator],
        ['erase as moderator', 'DELETE', `/clients/${client.id}`, undefined, moderator],
        ['coordinated list as moderator', 'GET', '/requests/coordinated', undefined, moderator],
      ]
      for (const [name, method, path, body, account] of cases) {
        const res = await t.request(method, path, { token: account.token, body })
        assert.deepEqual([res.status, res.body], [COORDINATOR_REQUIRED[0], { error: COORDINATOR_REQUIRED[1] }], name)
      }
      // Moderators and admins read clients.
      for (const reader of [moderator, t.admin]) {
        assertStatus(await t.get(`/clients/${client.id}`, reader.token), 200)
        assertStatus(await t.get('/clients', reader.token), 200)
      }
    })

    it('refuses bad client input with a clear 400, and unknown clients with 404 client not found', async () => {
      const base = { first_name: 'Erna', last_name: 'Schmidt', consent: { how: 'phone' } }
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ first_name: 'Erna', last_name: 'Schmidt' }, 'consent is required'],
        [{ ...base, consent: null }, 'consent is required'],
        [{ ...base, consent: {} }, 'consent is required'],
        [{ ...base, consent: { how: 'email' } }, 'invalid consent'],
        [{ ...base, first_name: '' }, 'first_name must be at least 1 character long'],
        [{ ...base, last_name: 'x'.repeat(101) }, 'last_name must be at most 100 characters long'],
        [{ ...base, first_name: '   ' }, 'first_name must not be blank'],
        [{ ...base, phone: '+49 170 1234567' }, 'invalid phone'],
        [{ ...base, needs: 'x'.repeat(1001) }, 'needs must be at most 1000 characters long'],
        [{ ...base, latitude: 52.5 }, 'latitude and longitude must be given together'],
        [{ ...base, latitude: 91, longitude: 13 }, 'invalid latitude'],
      ]
      for (const [body, error] of cases) assertError(await t.post('/clients', body, coordinator.token), 400, error)
      const client = await newClient()
      assertError(await t.patch(`/clients/${client.id}`, { longitude: 13.5 }, coordinator.token), 400, 'latitude and longitude must be given together')
      assertError(await t.patch(`/clients/${client.id}`, { consent: { how: 'carrier pigeon' } }, coordinator.token), 400, 'invalid consent')
      assertError(await t.get('/clients/abc', coordinator.token), 400, 'invalid client id')
      assertError(await t.get('/requests/coordinated?status=lost', coordinator.token), 400, 'invalid status')
      for (const [method, body] of [['GET', undefined], ['PATCH', { needs: 'x' }], ['DELETE', undefined]] as const) {
        assertError(await t.request(method, '/clients/999999999', { token: coordinator.token, body }), ...CLIENT_NOT_FOUND)
      }
      const { latitude: _lat, longitude: _lon, ...rest } = REQUEST_INPUT
      assertError(await t.post('/requests', { ...rest, on_behalf_of: { client_id: 999999999 } }, coordinator.token), ...CLIENT_NOT_FOUND)
    })

    it('creates a client with the consent recorded by the caller, finds them by name and by phone in any spelling, and changes them', async () => {
      const client = await newClient()
      const read = await t.get(`/clients/${client.id}`, second.token)
      assertStatus(read, 200)
      assert.equal(read.body.consent.how, 'phone')
      assert.equal(read.body.consent.recorded_by, coordinator.id)
      assert.equal(read.body.needs, 'wheelchair, needs help on stairs')
      const digits = client.phone.slice(1)
      const spellings = [client.first_name, `${client.first_name.toLowerCase()} sch`, client.phone, `+49 ${digits.slice(2, 5)} ${digits.slice(5)}`,
        `00${digits}`, `0049 ${digits.slice(2)}`, client.local, `0${digits.slice(2)}`]
      for (const q of spellings) {
        const found = await t.get(`/clients?q=${encodeURIComponent(q)}`, coordinator.token)
        assertStatus(found, 200)
        assert.deepEqual(found.body.map((c: { id: number }) => c.id), [client.id], q)
      }
      // A name with digits in it is no phone search: two of the phone's digits after a name find nobody.
      const named = await t.get(`/clients?q=${encodeURIComponent(`Nobody ${digits.slice(3, 5)}`)}`, coordinator.token)
      assert.deepEqual(named.body, [])
      const changed = await t.patch(`/clients/${client.id}`, { needs: 'deaf: knock loudly', phone: null, consent: { how: 'written' } }, second.token)
      assertStatus(changed, 200)
      assert.deepEqual([changed.body.needs, changed.body.phone, changed.body.consent.how, changed.body.consent.recorded_by, changed.body.first_name],
        ['deaf: knock loudly', null, 'written', second.id, client.first_name])
      assert.deepEqual((await t.get(`/clients?q=${encodeURIComponent(client.local)}`, coordinator.token)).body, [], 'the phone is gone')
      // Most recently updated first: the changed client comes before a newer, unchanged one.
      const newer = await newClient({ first_name: `${client.first_name}b` })
      await t.patch(`/clients/${client.id}`, { city: 'Potsdam' }, coordinator.token)
      assert.deepEqual((await t.get(`/clients?q=${client.first_name}`, coordinator.token)).body.map((c: { id: number }) => c.id), [client.id, newer.id])
    })

    it('asks for a client: the coordinator is the requester, the client\'s phone and point are taken when left out, the detail shows the client to parties', async () => {
      const client = await newClient()
      const id = await clientRequest(client.id, coordinator, false)
      const detail = await t.get(`/requests/${id}`, coordinator.token)
      assertStatus(detail, 200)
      assert.deepEqual([detail.body.requester_id, detail.body.client_id, detail.body.contact_phone, detail.body.address, detail.body.location],
        [coordinator.id, client.id, client.phone, '5 Linden Way', { ...CLIENT_POINT, precision_meters: 0 }])
      assert.deepEqual(detail.body.client, { id: client.id, first_name: client.first_name, last_name: 'S.', full_name: `${client.first_name} Schmidt`, needs: 'wheelchair, needs help on stairs' })
      // Given ones win over the client's.
      const own = await t.post('/requests', { ...REQUEST_INPUT, contact_phone: '+4930111222', on_behalf_of: { client_id: client.id } }, coordinator.token)
      assert.deepEqual([own.body.contact_phone, own.body.address], ['+4930111222', REQUEST_INPUT.address])
      // Every coordinator and moderators see the client; a volunteer who is no party does not.
      assertStatus(await t.post(`/moderation/requests/${id}/approve`, {}, moderator.token), 200)
      for (const [account, sees] of [[second, true], [moderator, true], [volunteer, false]] as const) {
        assert.equal((await t.get(`/requests/${id}`, account.token)).body.client !== null, sees)
      }
      // Every coordinator is a party: the second sees the exact point and address, is recorded as `coordinator`, and reads the log.
      const seen = await t.get(`/requests/${id}`, second.token)
      assert.deepEqual([seen.body.address, seen.body.location.precision_meters, seen.body.contact_phone], ['5 Linden Way', 0, client.phone])
      const log = await t.get(`/requests/${id}/access-log`, second.token)
      assertStatus(log, 200)
      assert.ok(log.body.some((r: { viewer_id: number, viewer_role: string }) => r.viewer_id === second.id && r.viewer_role === 'coordinator'))
      assertError(await t.get(`/requests/${id}/access-log`, volunteer.token), 404, 'request not found')
    })

    it('lets every coordinator act on a client\'s request: a second one accepts and completes, a third cancels another', async () => {
      const client = await newClient()
      const id = await clientRequest(client.id)
      await assign(id, second)
      assertStatus(await t.post(`/requests/${id}/complete`, { rating: 5 }, second.token), 200)
      assert.equal((await t.get(`/requests/${id}`, coordinator.token)).body.status, 'completed')
      const other = await clientRequest(client.id)
      const third = await newCoordinator()
      const cancelled = await t.post(`/requests/${other}/cancel`, undefined, third.token)
      assertStatus(cancelled, 200)
      assert.equal(cancelled.body.status, 'cancelled')
      // A coordinator is nobody on another person's own request.
      const own = await t.post('/requests', REQUEST_INPUT, (await t.register()).token)
      assertError(await t.post(`/requests/${own.body.id}/cancel`, undefined, third.token), 400, 'only the requester can cancel a request')
    })

    it('shows the assigned volunteer the client\'s phone and address, with an access record in the requester\'s log, under both address settings', async () => {
      for (const addressPrivacy of ['parties', 'full'] as const) {
        const app = addressPrivacy === 'parties' ? t : await startApp(engine, { addressPrivacy })
        const [saved, savedCoordinator, savedModerator, savedVolunteer] = [t, coordinator, moderator, volunteer]
        try {
          if (app !== t) {
            t = app
            moderator = await t.registerWithRole('moderator')
            coordinator = await newCoordinator()
            volunteer = await t.register()
          }
          const client = await newClient()
          const id = await clientRequest(client.id)
          const before = await t.get(`/requests/${id}`, volunteer.token)
          assert.equal(before.body.contact_phone, null, addressPrivacy)
          assert.equal(before.body.address === '5 Linden Way', addressPrivacy === 'full', addressPrivacy)
          await assign(id)
          assert.equal(before.body.client, null, 'no name of the client before acceptance')
          const seen = await t.get(`/requests/${id}`, volunteer.token)
          // A party now, the volunteer reads the surname in full for the doorbell (full_name), the interface's initial beside it.
          assert.deepEqual([seen.body.contact_phone, seen.body.address, seen.body.client?.last_name, seen.body.client?.full_name],
            [client.phone, '5 Linden Way', 'S.', `${client.first_name} Schmidt`], addressPrivacy)
          const log = await t.get(`/requests/${id}/access-log`, coordinator.token)
          assertStatus(log, 200)
          const fields = addressPrivacy === 'parties' ? ['contact_phone', 'address'] : ['contact_phone']
          assert.ok(log.body.some((r: { viewer_id: number, viewer_role: string, fields: string[] }) =>
            r.viewer_id === volunteer.id && r.viewer_role === 'assigned volunteer' && fields.every((f) => r.fields.includes(f))), addressPrivacy)
        } finally {
          if (app !== saved) await app.close()
          ;[t, coordinator, moderator, volunteer] = [saved, savedCoordinator, savedModerator, savedVolunteer]
        }
      }
    })

    it('lists every client request for coordinators, soonest needed first, with whom to phone', async () => {
      const client = await newClient()
      const day = 86_400_000
      const at = (days: number) => new Date(Date.now() + days * day).toISOString()
      const window = { window_start: at(3), window_end: new Date(Date.now() + 3 * day + 3_600_000).toISOString() }
      const undated = await clientRequest(client.id, coordinator, true)
      const later = await clientRequest(client.id, second, true, { desired_completion_date: at(5) })
      const sooner = await clientRequest(client.id, coordinator, true, window)
      const own = await t.post('/requests', REQUEST_INPUT, (await t.register()).token)
      const list = await t.get('/requests/coordinated?status=approved&limit=100', second.token)
      assertStatus(list, 200)
      const ids = list.body.map((item: { id: number }) => item.id)
      assert.ok(!ids.includes(own.body.id), 'only client requests')
      const mine = ids.filter((id: number) => [undated, later, sooner].includes(id))
      assert.deepEqual(mine, [sooner, later, undated])
      const item = list.body.find((i: { id: number }) => i.id === sooner)
      assert.deepEqual([item.client_id, item.client_name, item.address, item.location.precision_meters], [client.id, `${client.first_name} S.`, '5 Linden Way', 0])
      assert.ok(!('contact_phone' in item))
      assert.ok(list.body.every((i: { status: string }) => i.status === 'approved'))
      assertStatus(await t.get('/requests/coordinated', t.admin.token), 200)
    })

    it('erases a client as an account is erased: refused while a request is in_progress, then active ones cancelled, finished ones minimised, the record gone', async () => {
      const client = await newClient()
      const busy = await clientRequest(client.id)
      await assign(busy)
      const open = await clientRequest(client.id)
      assertError(await t.delete(`/clients/${client.id}`, second.token), 400, 'finish or cancel your open requests first')
      assert.equal((await t.get(`/requests/${open}`, coordinator.token)).body.status, 'approved', 'the refusal changed nothing')
      assertStatus(await t.get(`/clients/${client.id}`, coordinator.token), 200)
      assertStatus(await t.post(`/requests/${busy}/complete`, { rating: 4 }, coordinator.token), 200)
      const erased = await t.delete(`/clients/${client.id}`, second.token)
      assertStatus(erased, 200)
      assert.deepEqual(erased.body, { message: 'client erased' })
      assertError(await t.get(`/clients/${client.id}`, coordinator.token), ...CLIENT_NOT_FOUND)
      assert.deepEqual((await t.get(`/clients?q=${client.first_name}`, coordinator.token)).body, [])
      const cancelled = await t.get(`/requests/${open}`, coordinator.token)
      assert.deepEqual([cancelled.body.status, cancelled.body.client_id, cancelled.body.client], ['cancelled', client.id, null])
      const done = await t.get(`/requests/${busy}`, coordinator.token)
      assert.deepEqual([done.body.status, done.body.client_id, done.body.client, done.body.contact_phone, done.body.address],
        ['completed', client.id, null, '(removed)', '(removed)'])
      // The creating coordinator, the requester of record, hears of the cancel as of any other.
      const inbox = await t.get('/notifications?limit=100', coordinator.token)
      assert.ok(inbox.body.some((n: { type: string, request_id: number }) => n.type === 'request_cancelled' && n.request_id === open))
      // Asking for a client while another coordinator erases them: the request is either refused or cancelled and minimised with the rest.
      for (let round = 0; round < 5; round += 1) {
        const racing = await newClient()
        const { latitude: _lat, longitude: _lon, address: _address, ...rest } = REQUEST_INPUT
        const [asked, gone] = await Promise.all([
          t.post('/requests', { ...rest, on_behalf_of: { client_id: racing.id } }, coordinator.token),
          t.delete(`/clients/${racing.id}`, second.token),
        ])
        assertStatus(gone, 200)
        if (asked.status === 201) {
          const left = await t.get(`/requests/${asked.body.id}`, coordinator.token)
          assert.deepEqual([left.body.status, left.body.contact_phone, left.body.client], ['cancelled', '(removed)', null])
        } else assertError(asked, ...CLIENT_NOT_FOUND)
      }
      // A coordinator's own erasure leaves her clients' requests to the other coordinators.
      const leaving = await newCoordinator()
      const kept = await clientRequest((await newClient()).id, leaving)
      assertStatus(await t.request('DELETE', '/users/me', { token: leaving.token, body: { password: leaving.password } }), 200)
      assert.equal((await t.get(`/requests/${kept}`, coordinator.token)).body.status, 'approved')
    })
  })
}
