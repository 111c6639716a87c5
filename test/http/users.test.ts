import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'

const PROFILE_FIELDS = [
  'address', 'avatar_url', 'bio', 'capabilities', 'checks', 'city', 'completed_requests_count', 'created_at', 'email', 'email_verified', 'first_name',
  'id', 'is_blocked', 'is_verified', 'languages', 'last_name', 'locale', 'phone', 'updated_at', 'volunteer_rating',
]
/** docs/api/visits.md › Needs and matching: the person's own profile alone also holds their gender. */
const OWN_PROFILE_FIELDS = [...PROFILE_FIELDS, 'gender'].sort()

const CONTACT = { phone: '+4915112345678', address: 'Hauptstrasse 5', city: 'Hamburg', bio: 'Retired nurse' }

for (const engine of engines()) {
  describe(`users: own profile, location, e-mail verification, other profiles (${engine})`, () => {
    let t: TestApp
    before(async () => { t = await startApp(engine) })
    after(() => t.close())

    /** A request between two users in a given status, written straight to the table (the requests API is elsewhere). */
    async function sharedRequest (requester: Account, volunteer: Account, status: string): Promise<number> {
      const [row] = await t.db.query<{ id: number }>(/* sql */ `
        INSERT INTO requests (requester_id, request_type_id, assigned_volunteer_id, title, description, latitude, longitude, address, urgency, status)
        VALUES ($1, 1, $2, 'Groceries please', 'Milk, bread and apples', 53.55, 9.99, 'Hauptstrasse 5', 'medium', $3)
        RETURNING id`, [requester.id, volunteer.id, status])
      return row!.id
    }

    it('GET /users/me answers the whole profile', async () => {
      const account = await t.register(CONTACT)
      const res = await t.get('/users/me', account.token)
      assertStatus(res, 200)
      assert.deepEqual(Object.keys(res.body).sort(), OWN_PROFILE_FIELDS)
      assert.deepEqual({ ...res.body, created_at: undefined, updated_at: undefined }, {
        id: account.id,
        email: account.email,
        first_name: 'Test',
        last_name: 'User',
        ...CONTACT,
        avatar_url: null,
        volunteer_rating: null,
        completed_requests_count: 0,
        is_verified: false,
        is_blocked: false,
        email_verified: false,
        checks: [],
        locale: 'en',
        capabilities: [],
        languages: [],
        gender: null,
        created_at: undefined,
        updated_at: undefined,
      })
      assert.match(res.body.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
      assert.match(res.body.updated_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    })

    it('GET /users/me without a token is 401 unauthorized', async () => {
      assertError(await t.get('/users/me'), 401, 'unauthorized')
    })

    it('PATCH /users/me changes the listed fields and answers a message', async () => {
      const account = await t.register()
      const before = (await t.get('/users/me', account.token)).body
      const res = await t.patch('/users/me', { first_name: 'Grace', last_name: 'Hopper', ...CONTACT }, account.token)
      assertStatus(res, 200)
      assert.deepEqual(res.body, { message: 'profile updated' })
      const after = (await t.get('/users/me', account.token)).body
      assert.deepEqual({ ...after, updated_at: undefined }, { ...before, first_name: 'Grace', last_name: 'Hopper', ...CONTACT, updated_at: undefined })
      assert.ok(after.updated_at >= before.updated_at)
    })

    it('PATCH /users/me leaves fields it is not given as they were, and null clears an optional field', async () => {
      const account = await t.register(CONTACT)
      assertStatus(await t.patch('/users/me', { bio: 'New bio' }, account.token), 200)
      let profile = (await t.get('/users/me', account.token)).body
      assert.equal(profile.bio, 'New bio')
      assert.equal(profile.phone, CONTACT.phone)
      assert.equal(profile.first_name, 'Test')
      assertStatus(await t.patch('/users/me', { phone: null, address: null, city: null, bio: null }, account.token), 200)
      profile = (await t.get('/users/me', account.token)).body
      assert.deepEqual([profile.phone, profile.address, profile.city, profile.bio], [null, null, null, null])
      assertStatus(await t.patch('/users/me', {}, account.token), 200)
    })

    it('PATCH /users/me never writes fields outside the list (mass assignment)', async () => {
      const account = await t.register()
      const before = (await t.get('/users/me', account.token)).body
      const res = await t.patch('/users/me', {
        first_name: 'Allowed',
        id: 1,
        email: 'someone.else@example.org',
        password: 'new password 123',
        password_hash: 'scrypt$1$1$1$x$y',
        is_verified: true,
        is_blocked: true,
        email_verified: true,
        volunteer_rating: 5,
        completed_requests_count: 99,
        avatar_url: 'https://example.org/me.png',
        created_at: '2000-01-01T00:00:00.000Z',
        roles: ['admin'],
        role_id: 3,
        latitude: 1,
        longitude: 1,
      }, account.token)
      assertStatus(res, 200)
      const after = (await t.get('/users/me', account.token)).body
      assert.deepEqual({ ...after, updated_at: undefined }, { ...before, first_name: 'Allowed', updated_at: undefined })
      assert.deepEqual((await t.get('/users/me/roles', account.token)).body.map((role: any) => role.name), ['volunteer'])
      assertStatus(await t.post('/auth/login', { email: account.email, password: account.password }), 200)
      const [row] = await t.db.query<{ latitude: number | null }>('SELECT latitude FROM users WHERE id = $1', [account.id])
      assert.equal(row?.latitude, null)
    })

    describe('PATCH /users/me validation: one below, at, and one above each limit', () => {
      const accepted: Array<[string, Record<string, unknown>]> = [
        ['first_name of 1 character', { first_name: 'A' }],
        ['first_name of 100 characters', { first_name: 'A'.repeat(100) }],
        ['last_name of 1 character', { last_name: 'B' }],
        ['last_name of 100 characters', { last_name: 'B'.repeat(100) }],
        ['bio of 500 characters', { bio: 'x'.repeat(500) }],
        ['phone with plus and 2 digits', { phone: '+12' }],
        ['phone of 15 digits', { phone: '123456789012345' }],
      ]
      for (const [name, fields] of accepted) {
        it(`accepts ${name}`, async () => {
          const account = await t.register()
          assertStatus(await t.patch('/users/me', fields, account.token), 200)
          const profile = (await t.get('/users/me', account.token)).body
          for (const [field, value] of Object.entries(fields)) assert.equal(profile[field], value)
        })
      }

      const refused: Array<[string, Record<string, unknown>, string]> = [
        ['an empty first_name', { first_name: '' }, 'first_name must not be blank'],
        ['a blank first_name', { first_name: '  ' }, 'first_name must not be blank'],
        ['a first_name of 101 characters', { first_name: 'A'.repeat(101) }, 'first_name must be at most 100 characters long'],
        ['a null first_name', { first_name: null }, 'first_name must be of type string'],
        ['an empty last_name', { last_name: '' }, 'last_name must not be blank'],
        ['a last_name of 101 characters', { last_name: 'B'.repeat(101) }, 'last_name must be at most 100 characters long'],
        ['a bio of 501 characters', { bio: 'x'.repeat(501) }, 'bio must be at most 500 characters long'],
        ['a bio that is a number', { bio: 5 }, 'bio must be of type string or null'],
        ['a phone of one digit', { phone: '1' }, 'invalid phone'],
        ['a phone of 16 digits', { phone: '1234567890123456' }, 'invalid phone'],
        ['a phone with letters', { phone: '+49abc' }, 'invalid phone'],
        ['a phone that is a number', { phone: 4915112345678 }, 'invalid phone'],
      ]
      for (const [name, fields, text] of refused) {
        it(`refuses ${name}: 400 ${text}`, async () => {
          const account = await t.register()
          assertError(await t.patch('/users/me', fields, account.token), 400, text)
        })
      }

      it('refuses a body that is not an object, and no body at all', async () => {
        const account = await t.register()
        assertError(await t.patch('/users/me', ['first_name'], account.token), 400, 'invalid request body')
        assertError(await t.patch('/users/me', undefined, account.token), 400, 'invalid request body')
        assertError(await t.request('PATCH', '/users/me', { token: account.token, payload: '{"bio":', headers: { 'content-type': 'application/json' } }), 400, 'invalid request body')
      })
    })

    it('PATCH /users/me without a token is 401 unauthorized', async () => {
      assertError(await t.patch('/users/me', { first_name: 'X' }), 401, 'unauthorized')
    })

    it('POST /users/me/location stores the home location', async () => {
      const account = await t.register()
      const res = await t.post('/users/me/location', { latitude: 48.1374, longitude: 11.5755 }, account.token)
      assertStatus(res, 200)
      assert.deepEqual(res.body, { message: 'location updated' })
      const [row] = await t.db.query('SELECT latitude, longitude FROM users WHERE id = $1', [account.id])
      assert.deepEqual(row, { latitude: 48.1374, longitude: 11.5755 })
    })

    describe('POST /users/me/location validation', () => {
      const accepted: Array<[number, number]> = [[-90, -180], [90, 180], [0, 0], [-89.9999, 179.9999]]
      for (const [latitude, longitude] of accepted) {
        it(`accepts latitude ${latitude}, longitude ${longitude}`, async () => {
          const account = await t.register()
          assertStatus(await t.post('/users/me/location', { latitude, longitude }, account.token), 200)
        })
      }
      const refused: Array<[string, Record<string, unknown>, string]> = [
        ['latitude -90.0001', { latitude: -90.0001, longitude: 0 }, 'invalid latitude'],
        ['latitude 90.0001', { latitude: 90.0001, longitude: 0 }, 'invalid latitude'],
        ['longitude -180.0001', { latitude: 0, longitude: -180.0001 }, 'invalid longitude'],
        ['longitude 180.0001', { latitude: 0, longitude: 180.0001 }, 'invalid longitude'],
        ['latitude as a string', { latitude: '10', longitude: 0 }, 'invalid latitude'],
        ['longitude as null', { latitude: 10, longitude: null }, 'invalid longitude'],
        ['a missing latitude', { longitude: 0 }, 'latitude and longitude are required'],
        ['a missing longitude', { latitude: 0 }, 'latitude and longitude are required'],
        ['an empty object', {}, 'latitude and longitude are required'],
      ]
      for (const [name, body, text] of refused) {
        it(`refuses ${name}: 400 ${text}`, async () => {
          const account = await t.register()
          assertError(await t.post('/users/me/location', body, account.token), 400, text)
        })
      }
      it('without a token is 401 unauthorized', async () => {
        assertError(await t.post('/users/me/location', { latitude: 1, longitude: 1 }), 401, 'unauthorized')
      })
    })

    it('POST /users/me/verify-email marks the e-mail verified (idempotent)', async () => {
      const account = await t.register()
      const res = await t.post('/users/me/verify-email', undefined, account.token)
      assertStatus(res, 200)
      assert.deepEqual(res.body, { message: 'email verified' })
      assert.equal((await t.get('/users/me', account.token)).body.email_verified, true)
      const login = await t.post('/auth/login', { email: account.email, password: account.password })
      assert.equal(login.body.user.email_verified, true)
      assertStatus(await t.post('/users/me/verify-email', undefined, account.token), 200)
      assertError(await t.post('/users/me/verify-email'), 401, 'unauthorized')
    })

    it('GET /users/{id}: another user sees the profile without phone and address', async () => {
      const owner = await t.register(CONTACT)
      const stranger = await t.register()
      const res = await t.get(`/users/${owner.id}`, stranger.token)
      assertStatus(res, 200)
      assert.deepEqual(Object.keys(res.body).sort(), PROFILE_FIELDS)
      assert.equal(res.body.id, owner.id)
      assert.equal(res.body.email, owner.email)
      assert.equal(res.body.phone, null)
      assert.equal(res.body.address, null)
      assert.equal(res.body.city, CONTACT.city)
      assert.equal(res.body.bio, CONTACT.bio)
    })

    it('GET /users/{id}: the user, moderators and admins see phone and address', async () => {
      const owner = await t.register(CONTACT)
      const moderator = await t.registerWithRole('moderator')
      for (const viewer of [owner, moderator, t.admin]) {
        const res = await t.get(`/users/${owner.id}`, viewer.token)
        assertStatus(res, 200)
        assert.equal(res.body.phone, CONTACT.phone)
        assert.equal(res.body.address, CONTACT.address)
      }
    })

    it('GET /users/{id}: the two sides of an in_progress request see each other\'s phone and address, and only then', async () => {
      const requester = await t.register(CONTACT)
      const volunteer = await t.register({ phone: '+33612345678', address: 'Rue de Rivoli 1' })
      const requestId = await sharedRequest(requester, volunteer, 'in_progress')
      assert.equal((await t.get(`/users/${requester.id}`, volunteer.token)).body.phone, CONTACT.phone)
      assert.equal((await t.get(`/users/${volunteer.id}`, requester.token)).body.address, 'Rue de Rivoli 1')
      const outsider = await t.register()
      assert.equal((await t.get(`/users/${requester.id}`, outsider.token)).body.phone, null)
      await t.db.query("UPDATE requests SET status = 'completed' WHERE id = $1", [requestId])
      assert.equal((await t.get(`/users/${requester.id}`, volunteer.token)).body.phone, null)
      assert.equal((await t.get(`/users/${volunteer.id}`, requester.token)).body.address, null)
    })

    it('GET /users/{id} with an id that is not a positive decimal integer is 400 invalid user id', async () => {
      const account = await t.register()
      for (const id of ['abc', '0', '-1', '1.5', '0x10', '1e3', '%20', '9007199254740992', '1%00']) {
        assertError(await t.get(`/users/${id}`, account.token), 400, 'invalid user id')
      }
    })

    it('GET /users/{id} of an unknown user is 404 user not found; without a token 401', async () => {
      const account = await t.register()
      assertError(await t.get('/users/987654321', account.token), 404, 'user not found')
      assertError(await t.get(`/users/${account.id}`), 401, 'unauthorized')
    })
  })
}
