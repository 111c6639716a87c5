import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { ISO_TIME } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'
import { REQUEST_FIELDS, requestInput } from '../helpers/requests.js'

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
      assert.match(res.body.created_at, ISO_TIME)
      assert.match(res.body.updated_at, ISO_TIME)
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

    it('takes a time window (docs/api/schedule.md): both or neither, in order, at most 24 hours, in the future; its end becomes the date', async () => {
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
}
