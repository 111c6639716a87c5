import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'
import { createRequest, insertRequests, REQUEST_FIELDS, setStatus, whileFailing } from '../helpers/requests.js'

const LIST_ITEM_FIELDS = ['address', 'city', 'confirmed_at', 'created_at', 'description', 'id', 'languages', 'location', 'needs', 'request_type_name', 'requester_name',
  'series_id', 'status', 'title', 'urgency', 'window_end', 'window_start']

for (const engine of engines()) {
  describe(`GET /requests/{id} (${engine})`, () => {
    let t: TestApp
    let requester: Account, volunteer: Account, other: Account, moderator: Account, admin: Account
    before(async () => {
      t = await startApp(engine)
      requester = await t.register({ first_name: 'Greta', last_name: 'Requester' })
      volunteer = await t.register({ first_name: 'Vera', last_name: 'Volunteer' })
      other = await t.register()
      moderator = await t.registerWithRole('moderator')
      admin = await t.registerWithRole('admin')
    })
    after(() => t.close())

    const get = (id: number | string, token: string) => t.get(`/requests/${id}`, token)

    it('returns the detail with requester, type and assigned volunteer', async () => {
      const created = await createRequest(t, requester.token, { request_type_id: 5 })
      const res = await get(created.id, requester.token)
      assert.equal(res.status, 200)
      assert.deepEqual(Object.keys(res.body).sort(), [...REQUEST_FIELDS, 'assigned_volunteer', 'client', 'location', 'request_type', 'requester', 'suitable'].sort())
      assert.equal(res.body.client, null, 'docs/api/on-behalf.md › Coordinators and clients: asked by its requester, for no client')
      assert.deepEqual({ ...res.body, requester: undefined, request_type: undefined, assigned_volunteer: undefined, location: undefined, client: undefined, suitable: undefined }, { ...created, requester: undefined, request_type: undefined, assigned_volunteer: undefined, location: undefined, client: undefined, suitable: undefined })
      assert.deepEqual(res.body.location, { latitude: 52.52, longitude: 13.405, precision_meters: 0 })
      assert.deepEqual(res.body.requester, { id: requester.id, email: requester.email, first_name: 'Greta', last_name: 'Requester', email_verified: false })
      assert.deepEqual(res.body.request_type, { id: 5, name: 'Technology help', description: 'Phones, computers, online forms and video calls', icon: 'laptop', is_active: true, default_needs: [] })
      assert.equal(res.body.assigned_volunteer, null)
      // Once a volunteer is assigned (set with SQL here; accepting a response does it in the product).
      await setStatus(t, created.id, 'in_progress', volunteer.id)
      const assigned = await get(created.id, requester.token)
      assert.deepEqual(assigned.body.assigned_volunteer, { id: volunteer.id, email: volunteer.email, first_name: 'Vera', last_name: 'Volunteer', email_verified: false })
      assert.equal(assigned.body.assigned_volunteer_id, volunteer.id)
      assert.equal(assigned.body.status, 'in_progress')
    })

    it('shows contact details only to the requester, the assigned volunteer, moderators and admins', async () => {
      const created = await createRequest(t, requester.token)
      await setStatus(t, created.id, 'in_progress', volunteer.id)
      for (const [who, account] of [['requester', requester], ['assigned volunteer', volunteer], ['moderator', moderator], ['admin', admin]] as const) {
        const res = await get(created.id, account.token)
        assert.equal(res.status, 200, who)
        assert.equal(res.body.contact_phone, '+4930123456', who)
        assert.equal(res.body.contact_notes, 'Ring twice, the bell is quiet.', who)
      }
      const res = await get(created.id, other.token)
      assert.equal(res.status, 200)
      assert.equal(res.body.contact_phone, null)
      assert.equal(res.body.contact_notes, null)
      assert.equal(res.body.title, created.title)
    })

    it('hides contact details from other volunteers in every visible status', async () => {
      const created = await createRequest(t, requester.token)
      for (const status of ['pending_moderation', 'approved', 'in_progress', 'completed']) {
        await setStatus(t, created.id, status, status === 'in_progress' || status === 'completed' ? volunteer.id : null)
        const res = await get(created.id, other.token)
        assert.equal(res.status, 200, status)
        assert.equal(res.body.status, status)
        assert.equal(res.body.contact_phone, null, status)
        assert.equal(res.body.contact_notes, null, status)
      }
    })

    for (const status of ['rejected', 'cancelled']) {
      it(`shows a ${status} request only to its requester, assigned volunteer, moderators and admins`, async () => {
        const created = await createRequest(t, requester.token)
        await setStatus(t, created.id, status, volunteer.id)
        for (const account of [requester, volunteer, moderator, admin]) {
          const res = await get(created.id, account.token)
          assert.equal(res.status, 200)
          assert.equal(res.body.status, status)
          assert.equal(res.body.contact_phone, '+4930123456')
        }
        const res = await get(created.id, other.token)
        assert.equal(res.status, 404)
        assert.deepEqual(res.body, { error: 'request not found' })
      })
    }

    it('answers 404 for an unknown id and 400 for one that is not an id', async () => {
      const missing = await get(987654321, requester.token)
      assert.equal(missing.status, 404)
      assert.deepEqual(missing.body, { error: 'request not found' })
      for (const id of ['abc', '0', '-1', '1.5', '9007199254740992', '1abc']) {
        const res = await get(id, requester.token)
        assert.equal(res.status, 400, id)
        assert.deepEqual(res.body, { error: 'invalid request id' }, id)
      }
    })

    it('needs a token', async () => {
      const res = await t.get('/requests/1')
      assert.equal(res.status, 401)
      assert.deepEqual(res.body, { error: 'unauthorized' })
    })

    it('reports a failure to load the request as 404 request not found (docs/api/conventions.md › Errors)', async () => {
      const created = await createRequest(t, requester.token)
      await get(created.id, requester.token) // the caller's roles are cached from here on
      const res = await whileFailing(t.db, /FROM requests r\s+JOIN users u/, () => get(created.id, requester.token))
      assert.equal(res.status, 404)
      assert.deepEqual(res.body, { error: 'request not found' })
    })
  })

  describe(`GET /requests/my (${engine})`, () => {
    let t: TestApp
    before(async () => { t = await startApp(engine) })
    after(() => t.close())

    it('lists the caller\'s requests in every status, newest first, as RequestListItem', async () => {
      const me = await t.register({ first_name: 'Mona', last_name: 'Lisa' })
      const someoneElse = await t.register()
      await createRequest(t, someoneElse.token)
      const base = Date.now() - 3600_000
      const statuses = ['pending_moderation', 'approved', 'in_progress', 'completed', 'cancelled', 'rejected']
      const ids = await insertRequests(t, me.id, statuses.map((status, i) => ({ lat: 1, lon: 1, status, createdAt: new Date(base + i * 1000) })))
      const created = await createRequest(t, me.token, { request_type_id: 3, title: 'Newest of all' })
      const res = await t.get('/requests/my', me.token)
      assert.equal(res.status, 200)
      assert.deepEqual(res.body.map((item: any) => item.id), [created.id, ...[...ids].reverse()])
      assert.deepEqual(res.body.map((item: any) => item.status), ['pending_moderation', ...[...statuses].reverse()])
      const [first] = res.body
      assert.deepEqual(Object.keys(first).sort(), LIST_ITEM_FIELDS)
      assert.deepEqual(first, {
        id: created.id,
        title: 'Newest of all',
        description: created.description,
        address: created.address,
        city: 'Berlin',
        urgency: 'medium',
        status: 'pending_moderation',
        requester_name: 'Mona Lisa',
        request_type_name: 'Household help',
        created_at: created.created_at,
        window_start: null,
        window_end: null,
        series_id: null,
        confirmed_at: null,
        needs: [],
        languages: [],
        // docs/api/help.md › Maps: the requester sees their own request's exact point.
        location: { latitude: 52.52, longitude: 13.405, precision_meters: 0 },
      })
    })

    it('breaks ties in time by id, newest id first', async () => {
      const me = await t.register()
      const at = new Date('2030-01-01T00:00:00Z')
      const ids = await insertRequests(t, me.id, [{ lat: 1, lon: 1, createdAt: at }, { lat: 1, lon: 1, createdAt: at }, { lat: 1, lon: 1, createdAt: at }])
      const res = await t.get('/requests/my', me.token)
      assert.deepEqual(res.body.map((item: any) => item.id), [...ids].reverse())
    })

    it('pages with limit and offset; bad values fall back to 20 and 0', async () => {
      const me = await t.register()
      const base = Date.now() - 86400_000
      const ids = await insertRequests(t, me.id, Array.from({ length: 25 }, (_, i) => ({ lat: 1, lon: 1, createdAt: new Date(base + i * 1000) })))
      const newestFirst = [...ids].reverse()
      const page = async (query: string) => {
        const res = await t.get(`/requests/my${query}`, me.token)
        assert.equal(res.status, 200, query)
        return res.body.map((item: any) => item.id)
      }
      assert.deepEqual(await page(''), newestFirst.slice(0, 20))
      assert.deepEqual(await page('?limit=10'), newestFirst.slice(0, 10))
      assert.deepEqual(await page('?limit=10&offset=10'), newestFirst.slice(10, 20))
      assert.deepEqual(await page('?limit=10&offset=20'), newestFirst.slice(20))
      assert.deepEqual(await page('?offset=25'), [])
      assert.deepEqual(await page('?limit=1'), newestFirst.slice(0, 1))
      assert.deepEqual(await page('?limit=100'), newestFirst)
      for (const limit of ['0', '101', '-5', 'abc', '', '2.5', '1e1', '%20']) {
        assert.deepEqual(await page(`?limit=${limit}`), newestFirst.slice(0, 20), `limit=${limit}`)
      }
      for (const offset of ['-1', 'abc', '', '1.5']) {
        assert.deepEqual(await page(`?limit=5&offset=${offset}`), newestFirst.slice(0, 5), `offset=${offset}`)
      }
      assert.deepEqual(await page('?limit=5&limit=6'), newestFirst.slice(0, 20))
      assert.deepEqual(await page('?offset=1&offset=2&limit=2'), newestFirst.slice(0, 2))
    })

    it('is empty for a caller with no requests', async () => {
      const me = await t.register()
      const res = await t.get('/requests/my', me.token)
      assert.equal(res.status, 200)
      assert.deepEqual(res.body, [])
    })

    it('is not taken for a request id, and needs a token', async () => {
      const res = await t.get('/requests/my')
      assert.equal(res.status, 401)
      assert.deepEqual(res.body, { error: 'unauthorized' })
    })

    it('answers 500 failed to get requests when the database fails', async () => {
      const me = await t.register()
      await t.get('/requests/my', me.token)
      const res = await whileFailing(t.db, /WHERE r\.requester_id = \$1/, () => t.get('/requests/my', me.token))
      assert.equal(res.status, 500)
      assert.deepEqual(res.body, { error: 'failed to get requests' })
    })
  })
}
