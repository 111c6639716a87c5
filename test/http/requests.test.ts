import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'
import { createRequest, insertRequests, requestInput, setStatus, whileFailing } from '../helpers/requests.js'

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/
const REQUEST_FIELDS = ['address', 'assigned_volunteer_id', 'cancel_reason', 'city', 'client_id', 'confirmed_at', 'contact_notes', 'contact_phone', 'created_at', 'description',
  'desired_completion_date', 'id', 'request_type_id', 'requester_id', 'return_of', 'series_id', 'status', 'title', 'updated_at', 'urgency',
  'window_end', 'window_start']
const LIST_ITEM_FIELDS = ['address', 'city', 'confirmed_at', 'created_at', 'description', 'id', 'location', 'request_type_name', 'requester_name',
  'series_id', 'status', 'title', 'urgency', 'window_end', 'window_start']

const letters = (n: number) => 'x'.repeat(n)

for (const engine of engines()) {
  describe(`POST /requests (${engine})`, () => {
    let t: TestApp
    let user: Account
    before(async () => {
      t = await startApp(engine)
      user = await t.register()
    })
    after(() => t.close())

    const expect400 = async (body: unknown, error: string) => {
      const res = await t.post('/requests', body, user.token)
      assert.equal(res.status, 400, res.text)
      assert.deepEqual(res.body, { error })
    }
    const expect201 = async (body: unknown) => {
      const res = await t.post('/requests', body, user.token)
      assert.equal(res.status, 201, res.text)
      return res.body
    }

    it('creates a pending request for the caller and returns the Request without coordinates', async () => {
      const res = await t.post('/requests', requestInput({ desired_completion_date: '2099-05-01T10:00:00Z' }), user.token)
      assert.equal(res.status, 201)
      assert.deepEqual(Object.keys(res.body).sort(), REQUEST_FIELDS)
      assert.equal(res.body.requester_id, user.id)
      assert.equal(res.body.status, 'pending_moderation')
      assert.equal(res.body.assigned_volunteer_id, null)
      assert.equal(res.body.title, 'Groceries for the week')
      assert.equal(res.body.city, 'Berlin')
      assert.equal(res.body.urgency, 'medium')
      assert.equal(res.body.contact_phone, '+4930123456')
      assert.equal(res.body.contact_notes, 'Ring twice, the bell is quiet.')
      assert.equal(res.body.desired_completion_date, '2099-05-01T10:00:00.000Z')
      assert.match(res.body.created_at, ISO)
      assert.match(res.body.updated_at, ISO)
      assert.equal(typeof res.body.id, 'number')
    })

    it('leaves the optional fields null when they are not sent', async () => {
      const body = await expect201(requestInput({ city: undefined, contact_phone: undefined, contact_notes: undefined }))
      assert.equal(body.city, null)
      assert.equal(body.contact_phone, null)
      assert.equal(body.contact_notes, null)
      assert.equal(body.desired_completion_date, null)
      assert.equal((await expect201(requestInput({ desired_completion_date: null }))).desired_completion_date, null)
    })

    it('ignores a requester id (or any unknown field) in the body', async () => {
      const other = await t.register()
      const body = await expect201(requestInput({ requester_id: other.id, status: 'approved', assigned_volunteer_id: other.id }))
      assert.equal(body.requester_id, user.id)
      assert.equal(body.status, 'pending_moderation')
      assert.equal(body.assigned_volunteer_id, null)
    })

    it('takes a title of 5 to 200 characters', async () => {
      await expect400(requestInput({ title: letters(4) }), 'title must be at least 5 characters long')
      assert.equal((await expect201(requestInput({ title: letters(5) }))).title, letters(5))
      await expect201(requestInput({ title: letters(200) }))
      await expect400(requestInput({ title: letters(201) }), 'title must be at most 200 characters long')
      await expect400(requestInput({ title: '       ' }), 'title must not be blank')
      await expect400(requestInput({ title: undefined }), 'title is required')
      await expect400(requestInput({ title: 12345 }), 'title must be of type string')
    })

    it('counts characters, not bytes', async () => {
      assert.equal((await expect201(requestInput({ title: 'ÄÖÜßé' }))).title, 'ÄÖÜßé')
      await expect201(requestInput({ title: '🙂'.repeat(200) }))
    })

    it('takes a description of 10 to 2000 characters', async () => {
      await expect400(requestInput({ description: letters(9) }), 'description must be at least 10 characters long')
      await expect201(requestInput({ description: letters(10) }))
      await expect201(requestInput({ description: letters(2000) }))
      await expect400(requestInput({ description: letters(2001) }), 'description must be at most 2000 characters long')
      await expect400(requestInput({ description: ' '.repeat(12) }), 'description must not be blank')
      await expect400(requestInput({ description: undefined }), 'description is required')
    })

    it('takes a latitude from -90 to 90 and a longitude from -180 to 180', async () => {
      await expect400(requestInput({ latitude: -90.0001 }), 'invalid latitude')
      await expect201(requestInput({ latitude: -90 }))
      await expect201(requestInput({ latitude: 90 }))
      await expect400(requestInput({ latitude: 90.0001 }), 'invalid latitude')
      await expect400(requestInput({ longitude: -180.0001 }), 'invalid longitude')
      await expect201(requestInput({ longitude: -180 }))
      await expect201(requestInput({ longitude: 180 }))
      await expect400(requestInput({ longitude: 180.0001 }), 'invalid longitude')
    })

    it('refuses coordinates that are not JSON numbers, and missing ones', async () => {
      await expect400(requestInput({ latitude: '52.5' }), 'invalid latitude')
      await expect400(requestInput({ longitude: '13.4' }), 'invalid longitude')
      await expect400(requestInput({ latitude: null }), 'invalid latitude')
      await expect400(requestInput({ latitude: true }), 'invalid latitude')
      await expect400(requestInput({ latitude: undefined }), 'latitude is required')
      await expect400(requestInput({ longitude: undefined }), 'longitude is required')
    })

    it('takes the four urgencies and nothing else', async () => {
      for (const urgency of ['low', 'medium', 'high', 'urgent']) {
        assert.equal((await expect201(requestInput({ urgency }))).urgency, urgency)
      }
      await expect400(requestInput({ urgency: 'critical' }), 'urgency must be one of: low, medium, high, urgent')
      await expect400(requestInput({ urgency: 'HIGH' }), 'urgency must be one of: low, medium, high, urgent')
      await expect400(requestInput({ urgency: undefined }), 'urgency is required')
    })

    it('needs the address', async () => {
      await expect400(requestInput({ address: undefined }), 'address is required')
      await expect400(requestInput({ address: '' }), 'address must be at least 1 character long')
      await expect400(requestInput({ address: '   ' }), 'address must not be blank')
    })

    it('refuses a desired completion date in the past or not a date-time', async () => {
      await expect400(requestInput({ desired_completion_date: '2020-01-01T00:00:00Z' }), 'desired_completion_date must be in the future')
      await expect400(requestInput({ desired_completion_date: new Date(Date.now() - 1000).toISOString() }), 'desired_completion_date must be in the future')
      await expect400(requestInput({ desired_completion_date: 'next tuesday' }), 'desired_completion_date must be a valid date-time')
      await expect400(requestInput({ desired_completion_date: '2099-05-01' }), 'desired_completion_date must be a valid date-time')
      const inAnHour = new Date(Date.now() + 3600_000).toISOString()
      assert.equal((await expect201(requestInput({ desired_completion_date: inAnHour }))).desired_completion_date, inAnHour)
    })

    it('takes a time window (schedule.md § 1): both or neither, in order, at most 24 hours, in the future; its end becomes the date', async () => {
      const at = (hours: number) => new Date(Date.now() + hours * 3600_000).toISOString()
      await expect400(requestInput({ window_start: at(2) }), 'window_start and window_end go together')
      await expect400(requestInput({ window_end: at(2) }), 'window_start and window_end go together')
      await expect400(requestInput({ window_start: at(3), window_end: at(2) }), 'window_end must be after window_start')
      await expect400(requestInput({ window_start: at(3), window_end: at(3) }), 'window_end must be after window_start')
      await expect400(requestInput({ window_start: at(2), window_end: at(26.01) }), 'window is longer than 24 hours')
      await expect400(requestInput({ window_start: at(-1), window_end: at(1) }), 'window must be in the future')
      await expect400(requestInput({ window_start: at(2), window_end: at(3), desired_completion_date: at(4) }), 'desired_completion_date must equal window_end')
      await expect400(requestInput({ window_start: 'tuesday', window_end: at(3) }), 'window_start must be a valid date-time')
      const [start, end] = [at(2), at(26)]
      const created = await expect201(requestInput({ window_start: start, window_end: end, desired_completion_date: end.replace('Z', '+00:00') }))
      assert.deepEqual([created.window_start, created.window_end, created.desired_completion_date], [start, end, end])
      assert.deepEqual([created.series_id, created.return_of, created.confirmed_at, created.cancel_reason], [null, null, null, null])
      const detail = await t.get(`/requests/${created.id}`, user.token)
      assert.deepEqual([detail.body.window_start, detail.body.window_end, detail.body.series_id, detail.body.confirmed_at, detail.body.cancel_reason], [start, end, null, null, null])
      const mine = await t.get('/requests/my', user.token)
      const item = mine.body.find((r: { id: number }) => r.id === created.id)
      assert.deepEqual([item.window_start, item.window_end, item.series_id, item.confirmed_at], [start, end, null, null])
      const plain = await expect201(requestInput({}))
      assert.deepEqual([plain.window_start, plain.window_end], [null, null])
    })

    it('needs an active request type', async () => {
      await expect400(requestInput({ request_type_id: 999999 }), 'invalid request type')
      await expect400(requestInput({ request_type_id: '1' }), 'invalid request type')
      await expect400(requestInput({ request_type_id: 0 }), 'invalid request type')
      await expect400(requestInput({ request_type_id: 1.5 }), 'invalid request type')
      await expect400(requestInput({ request_type_id: undefined }), 'request_type_id is required')
      const [retired] = await t.db.query<{ id: number }>("INSERT INTO request_types (name, is_active) VALUES ('Retired kind', false) RETURNING id")
      await expect400(requestInput({ request_type_id: retired!.id }), 'invalid request type')
      for (const id of [1, 2, 3, 4, 5, 6]) assert.equal((await expect201(requestInput({ request_type_id: id }))).request_type_id, id)
    })

    it('refuses a body that is not a JSON object', async () => {
      for (const payload of ['', '{', '[]', '"text"', 'null']) {
        const res = await t.request('POST', '/requests', { token: user.token, payload, headers: { 'content-type': 'application/json' } })
        assert.equal(res.status, 400, payload)
        assert.deepEqual(res.body, { error: 'invalid request body' }, payload)
      }
    })

    it('needs a token', async () => {
      const res = await t.post('/requests', requestInput())
      assert.equal(res.status, 401)
      assert.deepEqual(res.body, { error: 'unauthorized' })
    })

    it('needs permission create_request: an account left without roles gets 403', async () => {
      const roleless = await t.register()
      await t.db.query('DELETE FROM user_roles WHERE user_id = $1', [roleless.id])
      const res = await t.post('/requests', requestInput(), roleless.token)
      assert.equal(res.status, 403)
      assert.deepEqual(res.body, { error: 'create_request permission required' })
    })
  })

  describe(`GET /requests/{id} (${engine})`, () => {
    let t: TestApp
    let requester: Account, volunteer: Account, other: Account, moderator: Account, admin: Account
    before(async () => {
      t = await startApp(engine)
      requester = await t.register({ first_name: 'Greta', last_name: 'Requester' })
      volunteer = await t.register({ first_name: 'Vera', last_name: 'Volunteer' })
      other = await t.register()
      moderator = await t.registerWithRole(2)
      admin = await t.registerWithRole(3)
    })
    after(() => t.close())

    const get = (id: number | string, token: string) => t.get(`/requests/${id}`, token)

    it('returns the detail with requester, type and assigned volunteer', async () => {
      const created = await createRequest(t, requester.token, { request_type_id: 5 })
      const res = await get(created.id, requester.token)
      assert.equal(res.status, 200)
      assert.deepEqual(Object.keys(res.body).sort(), [...REQUEST_FIELDS, 'assigned_volunteer', 'client', 'location', 'request_type', 'requester'].sort())
      assert.equal(res.body.client, null, 'behalf.md § 1: asked by its requester, for no client')
      assert.deepEqual({ ...res.body, requester: undefined, request_type: undefined, assigned_volunteer: undefined, location: undefined, client: undefined }, { ...created, requester: undefined, request_type: undefined, assigned_volunteer: undefined, location: undefined, client: undefined })
      assert.deepEqual(res.body.location, { latitude: 52.52, longitude: 13.405, precision_meters: 0 })
      assert.deepEqual(res.body.requester, { id: requester.id, email: requester.email, first_name: 'Greta', last_name: 'Requester', email_verified: false })
      assert.deepEqual(res.body.request_type, { id: 5, name: 'Technology help', description: 'Phones, computers, online forms and video calls', icon: 'laptop', is_active: true })
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

    it('reports a failure to load the request as 404 request not found (interface.md › Errors)', async () => {
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
        // docs/privacy.md › The grid: the requester sees their own request's exact point.
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

  describe(`POST /requests/{id}/cancel (${engine})`, () => {
    let t: TestApp
    let requester: Account, volunteer: Account, other: Account, moderator: Account, admin: Account
    before(async () => {
      t = await startApp(engine)
      requester = await t.register()
      volunteer = await t.register()
      other = await t.register()
      moderator = await t.registerWithRole(2)
      admin = await t.registerWithRole(3)
    })
    after(() => t.close())

    const cancel = (id: number | string, token?: string) => t.post(`/requests/${id}/cancel`, undefined, token)
    const statusOf = async (id: number) => (await t.db.query<{ status: string }>('SELECT status FROM requests WHERE id = $1', [id]))[0]?.status

    for (const status of ['pending_moderation', 'approved', 'in_progress']) {
      it(`lets the requester cancel a request in ${status}`, async () => {
        const created = await createRequest(t, requester.token)
        await setStatus(t, created.id, status, status === 'in_progress' ? volunteer.id : null)
        const res = await cancel(created.id, requester.token)
        assert.equal(res.status, 200, res.text)
        assert.deepEqual(Object.keys(res.body).sort(), REQUEST_FIELDS)
        assert.equal(res.body.id, created.id)
        assert.equal(res.body.status, 'cancelled')
        assert.equal(res.body.cancel_reason, 'requester')
        assert.equal(res.body.contact_phone, '+4930123456')
        assert.ok(Date.parse(res.body.updated_at) >= Date.parse(created.updated_at))
        assert.equal(await statusOf(created.id), 'cancelled')
      })
    }

    it('cancels the request\'s pending and accepted responses with it, and leaves the others', async () => {
      const created = await createRequest(t, requester.token)
      await setStatus(t, created.id, 'in_progress', volunteer.id)
      // Responses are written with SQL: these tests are about the request, not the offer.
      const helpers = await Promise.all([t.register(), t.register(), t.register()])
      await t.db.query(/* sql */ `
        INSERT INTO volunteer_responses (request_id, volunteer_id, status, accepted_at, rejected_at, cancelled_at) VALUES
          ($1, $2, 'accepted', now(), NULL, NULL), ($1, $3, 'pending', NULL, NULL, NULL),
          ($1, $4, 'rejected', NULL, now(), NULL), ($1, $5, 'cancelled', NULL, NULL, '2020-01-01T00:00:00Z')`,
      [created.id, volunteer.id, helpers[0].id, helpers[1].id, helpers[2].id])
      const res = await cancel(created.id, requester.token)
      assert.equal(res.status, 200)
      const rows = await t.db.query<{ volunteer_id: number, status: string, cancelled_at: Date | null }>(
        'SELECT volunteer_id, status, cancelled_at FROM volunteer_responses WHERE request_id = $1 ORDER BY id', [created.id])
      assert.deepEqual(rows.map((r) => r.status), ['cancelled', 'cancelled', 'rejected', 'cancelled'])
      assert.ok(rows[0]!.cancelled_at !== null && rows[1]!.cancelled_at !== null)
      assert.equal(rows[2]!.cancelled_at, null)
      assert.equal(new Date(rows[3]!.cancelled_at!).toISOString(), '2020-01-01T00:00:00.000Z')
    })

    for (const [who, pick] of [['a moderator', () => moderator], ['an admin', () => admin]] as const) {
      it(`lets ${who} cancel someone else's request`, async () => {
        const created = await createRequest(t, requester.token)
        await setStatus(t, created.id, 'approved')
        const res = await cancel(created.id, pick().token)
        assert.equal(res.status, 200)
        assert.equal(res.body.status, 'cancelled')
        assert.equal(res.body.cancel_reason, 'moderator')
      })
    }

    it('refuses anyone else, the assigned volunteer included', async () => {
      const created = await createRequest(t, requester.token)
      await setStatus(t, created.id, 'in_progress', volunteer.id)
      for (const account of [other, volunteer]) {
        const res = await cancel(created.id, account.token)
        assert.equal(res.status, 400)
        assert.deepEqual(res.body, { error: 'only the requester can cancel a request' })
      }
      assert.equal(await statusOf(created.id), 'in_progress')
    })

    for (const status of ['completed', 'cancelled', 'rejected']) {
      it(`refuses to cancel a ${status} request`, async () => {
        const created = await createRequest(t, requester.token)
        await setStatus(t, created.id, status)
        for (const account of [requester, moderator]) {
          const res = await cancel(created.id, account.token)
          assert.equal(res.status, 400)
          assert.deepEqual(res.body, { error: 'request cannot be cancelled in its current status' })
        }
        assert.equal(await statusOf(created.id), status)
      })
    }

    it('answers 404 for a request the caller may not see, or none at all', async () => {
      const created = await createRequest(t, requester.token)
      await setStatus(t, created.id, 'rejected')
      for (const id of [created.id, 987654321]) {
        const res = await cancel(id, other.token)
        assert.equal(res.status, 404)
        assert.deepEqual(res.body, { error: 'request not found' })
      }
    })

    it('answers 400 for a bad id and 401 without a token', async () => {
      const bad = await cancel('abc', requester.token)
      assert.equal(bad.status, 400)
      assert.deepEqual(bad.body, { error: 'invalid request id' })
      const anonymous = await cancel(1)
      assert.equal(anonymous.status, 401)
      assert.deepEqual(anonymous.body, { error: 'unauthorized' })
    })

    it('of two cancels at once, exactly one succeeds', async () => {
      const created = await createRequest(t, requester.token)
      await setStatus(t, created.id, 'approved')
      const results = await Promise.all([cancel(created.id, requester.token), cancel(created.id, moderator.token)])
      assert.deepEqual(results.map((r) => r.status).sort(), [200, 400])
      assert.deepEqual(results.find((r) => r.status === 400)?.body, { error: 'request cannot be cancelled in its current status' })
    })

    it('takes the request out of sight of other volunteers', async () => {
      const created = await createRequest(t, requester.token)
      await setStatus(t, created.id, 'approved')
      assert.equal((await t.get(`/requests/${created.id}`, other.token)).status, 200)
      await cancel(created.id, requester.token)
      assert.equal((await t.get(`/requests/${created.id}`, other.token)).status, 404)
      assert.equal((await t.get(`/requests/${created.id}`, requester.token)).body.status, 'cancelled')
    })

    it('is marked as an extension in the OpenAPI document', async () => {
      const res = await t.get('/openapi.json')
      const operation = res.body.paths['/api/v1/requests/{id}/cancel'].post
      assert.equal(operation['x-beyond-1.0.1'], true)
      assert.ok(operation.tags.includes('beyond-1.0.1'))
    })
  })
}
