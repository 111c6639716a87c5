import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildApp } from '../../src/app.js'
import { OWASP_SCRYPT } from '../../src/config.js'
import { accessTokens } from '../../src/lib/tokens.js'
import { startApp, TEST_SECRET, TestApp, testConfig, uniqueEmail } from '../helpers/app.js'
import { assertError, assertStatus, sleep } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'

const PASSWORD = 'correct horse battery'

function registration (fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { email: uniqueEmail('auth'), password: PASSWORD, first_name: 'Ada', last_name: 'Lovelace', ...fields }
}

function assertAuthResponse (body: any, email: string): void {
  assert.deepEqual(Object.keys(body).sort(), ['access_token', 'expires_in', 'refresh_token', 'user'])
  assert.match(body.access_token, /^[\w-]+\.[\w-]+\.[\w-]+$/)
  assert.match(body.refresh_token, /^[\w-]{43}$/, '256 random bits, base64url')
  assert.equal(body.expires_in, 900)
  assert.deepEqual(Object.keys(body.user).sort(), ['email', 'email_verified', 'first_name', 'id', 'last_name'])
  assert.equal(body.user.email, email)
  assert.equal(typeof body.user.id, 'number')
}

for (const engine of engines()) {
  describe(`auth: register, login, refresh, logout, me (${engine})`, () => {
    let t: TestApp
    before(async () => { t = await startApp(engine) })
    after(() => t.close())

    it('register answers 201 with an AuthResponse whose access token works', async () => {
      const body = registration()
      const res = await t.post('/auth/register', body)
      assertStatus(res, 201)
      assertAuthResponse(res.body, body.email as string)
      assert.equal(res.body.user.first_name, 'Ada')
      assert.equal(res.body.user.last_name, 'Lovelace')
      assert.equal(res.body.user.email_verified, false)
      const me = await t.get('/auth/me', res.body.access_token)
      assertStatus(me, 200)
      assert.deepEqual(me.body, { id: res.body.user.id, email: body.email })
    })

    it('register stores the e-mail trimmed and in lower case; login ignores case', async () => {
      const email = uniqueEmail('Mixed.Case')
      const shouted = `  ${email.toUpperCase()} `
      const res = await t.post('/auth/register', registration({ email: shouted }))
      assertStatus(res, 201)
      assert.equal(res.body.user.email, email.toLowerCase())
      const login = await t.post('/auth/login', { email: email.toUpperCase(), password: PASSWORD })
      assertStatus(login, 200)
      assert.equal(login.body.user.id, res.body.user.id)
    })

    it('an e-mail registered again, differing only in case, is 400 email already registered', async () => {
      const email = uniqueEmail('dup')
      assertStatus(await t.post('/auth/register', registration({ email })), 201)
      assertError(await t.post('/auth/register', registration({ email: email.toUpperCase() })), 400, 'email already registered')
      assertError(await t.post('/auth/register', registration({ email })), 400, 'email already registered')
    })

    it('register gives every new account the volunteer role and ignores fields it does not know', async () => {
      const res = await t.post('/auth/register', registration({ roles: ['admin'], role_id: 3, is_verified: true, is_blocked: true, email_verified: true }))
      assertStatus(res, 201)
      const token = res.body.access_token
      assert.deepEqual((await t.get('/users/me/roles', token)).body.map((role: any) => role.name), ['volunteer'])
      const profile = (await t.get('/users/me', token)).body
      assert.equal(profile.is_verified, false)
      assert.equal(profile.is_blocked, false)
      assert.equal(profile.email_verified, false)
    })

    it('register stores the optional fields', async () => {
      const res = await t.post('/auth/register', registration({ phone: '+4915112345678', latitude: 52.52, longitude: 13.405, address: 'Unter den Linden 1', city: 'Berlin', bio: 'Happy to help' }))
      assertStatus(res, 201)
      const profile = (await t.get('/users/me', res.body.access_token)).body
      assert.equal(profile.phone, '+4915112345678')
      assert.equal(profile.address, 'Unter den Linden 1')
      assert.equal(profile.city, 'Berlin')
      assert.equal(profile.bio, 'Happy to help')
      const [row] = await t.db.query<{ latitude: number, longitude: number }>('SELECT latitude, longitude FROM users WHERE id = $1', [res.body.user.id])
      assert.deepEqual(row, { latitude: 52.52, longitude: 13.405 })
    })

    describe('register validation: one below, at, and one above each limit', () => {
      const accepted: Array<[string, Record<string, unknown>]> = [
        ['password of 8 characters', { password: 'a'.repeat(8) }],
        ['password of 128 characters', { password: 'a'.repeat(128) }],
        ['first_name of 1 character', { first_name: 'A' }],
        ['first_name of 100 characters', { first_name: 'A'.repeat(100) }],
        ['last_name of 1 character', { last_name: 'B' }],
        ['last_name of 100 characters', { last_name: 'B'.repeat(100) }],
        ['bio of 500 characters', { bio: 'x'.repeat(500) }],
        ['empty bio', { bio: '' }],
        ['phone with plus and 2 digits', { phone: '+12' }],
        ['phone of 15 digits', { phone: '123456789012345' }],
        ['phone with plus and 15 digits', { phone: '+123456789012345' }],
        ['latitude -90 and longitude -180', { latitude: -90, longitude: -180 }],
        ['latitude 90 and longitude 180', { latitude: 90, longitude: 180 }],
        ['latitude 0 and longitude 0', { latitude: 0, longitude: 0 }],
      ]
      for (const [name, fields] of accepted) {
        it(`accepts ${name}`, async () => {
          assertStatus(await t.post('/auth/register', registration(fields)), 201)
        })
      }

      const refused: Array<[string, Record<string, unknown>, string]> = [
        ['a missing e-mail', { email: undefined }, 'email is required'],
        ['a malformed e-mail', { email: 'not-an-email' }, 'invalid email'],
        ['an e-mail without a domain dot', { email: 'someone@localhost' }, 'invalid email'],
        ['an e-mail that is a number', { email: 42 }, 'invalid email'],
        ['a missing password', { password: undefined }, 'password is required'],
        ['a password of 7 characters', { password: 'a'.repeat(7) }, 'password must be at least 8 characters long'],
        ['a password of 129 characters', { password: 'a'.repeat(129) }, 'password must be at most 128 characters long'],
        ['a missing first_name', { first_name: undefined }, 'first_name is required'],
        ['an empty first_name', { first_name: '' }, 'first_name must not be blank'],
        ['a blank first_name', { first_name: '   ' }, 'first_name must not be blank'],
        ['a first_name of 101 characters', { first_name: 'A'.repeat(101) }, 'first_name must be at most 100 characters long'],
        ['a missing last_name', { last_name: undefined }, 'last_name is required'],
        ['an empty last_name', { last_name: '' }, 'last_name must not be blank'],
        ['a blank last_name', { last_name: '\t' }, 'last_name must not be blank'],
        ['a last_name of 101 characters', { last_name: 'B'.repeat(101) }, 'last_name must be at most 100 characters long'],
        ['a bio of 501 characters', { bio: 'x'.repeat(501) }, 'bio must be at most 500 characters long'],
        ['a phone of one digit', { phone: '1' }, 'invalid phone'],
        ['a phone starting with 0', { phone: '+0123456' }, 'invalid phone'],
        ['a phone of 16 digits', { phone: '1234567890123456' }, 'invalid phone'],
        ['a phone with a space', { phone: '+49 151 1234' }, 'invalid phone'],
        ['a phone that is a number', { phone: 4915112345678 }, 'invalid phone'],
        ['latitude -90.0001', { latitude: -90.0001, longitude: 0 }, 'invalid latitude'],
        ['latitude 90.0001', { latitude: 90.0001, longitude: 0 }, 'invalid latitude'],
        ['longitude -180.0001', { latitude: 0, longitude: -180.0001 }, 'invalid longitude'],
        ['longitude 180.0001', { latitude: 0, longitude: 180.0001 }, 'invalid longitude'],
        ['latitude as a string', { latitude: '10', longitude: 10 }, 'invalid latitude'],
        ['longitude as a string', { latitude: 10, longitude: '10' }, 'invalid longitude'],
        ['latitude without longitude', { latitude: 10 }, 'latitude and longitude must be given together'],
        ['longitude without latitude', { longitude: 10 }, 'latitude and longitude must be given together'],
        ['first_name as a number', { first_name: 7 }, 'first_name must be of type string'],
      ]
      for (const [name, fields, text] of refused) {
        it(`refuses ${name}: 400 ${text}`, async () => {
          assertError(await t.post('/auth/register', registration(fields)), 400, text)
        })
      }
    })

    it('login answers 200 with an AuthResponse', async () => {
      const account = await t.register()
      const res = await t.post('/auth/login', { email: account.email, password: account.password })
      assertStatus(res, 200)
      assertAuthResponse(res.body, account.email)
      assert.equal(res.body.user.id, account.id)
      assertStatus(await t.get('/auth/me', res.body.access_token), 200)
    })

    it('login with a wrong password or an unknown e-mail is 401 invalid email or password', async () => {
      const account = await t.register()
      assertError(await t.post('/auth/login', { email: account.email, password: 'wrong password' }), 401, 'invalid email or password')
      assertError(await t.post('/auth/login', { email: uniqueEmail('nobody'), password: PASSWORD }), 401, 'invalid email or password')
      // Longer than any password can be: simply wrong.
      assertError(await t.post('/auth/login', { email: account.email, password: 'x'.repeat(2000) }), 401, 'invalid email or password')
    })

    it('login with an unreadable body is 400', async () => {
      assertError(await t.request('POST', '/auth/login', { payload: '{"email":', headers: { 'content-type': 'application/json' } }), 400, 'invalid request body')
      assertError(await t.post('/auth/login', { password: PASSWORD }), 400, 'email is required')
      assertError(await t.post('/auth/login', { email: uniqueEmail() }), 400, 'password is required')
      assertError(await t.post('/auth/login', { email: uniqueEmail(), password: '' }), 400, 'password is required')
      assertError(await t.post('/auth/login', { email: uniqueEmail(), password: 12345678 }), 400, 'password must be of type string')
      assertError(await t.post('/auth/login', { email: 'nope', password: PASSWORD }), 400, 'invalid email')
      assertError(await t.post('/auth/login', []), 400, 'invalid request body')
    })

    it('passwords are compared after Unicode NFKC normalisation', async () => {
      // Full-width letters and digits, as some mobile keyboards type them, equal their ASCII forms under NFKC.
      const email = uniqueEmail('nfkc')
      assertStatus(await t.post('/auth/register', registration({ email, password: 'ｐａｓｓｗｏｒｄ１２' })), 201)
      assertStatus(await t.post('/auth/login', { email, password: 'password12' }), 200)
      assertStatus(await t.post('/auth/login', { email, password: 'ｐａｓｓｗｏｒｄ１２' }), 200)
    })

    it('refresh rotates: a new pair that works, and the old refresh token is used up', async () => {
      const account = await t.register()
      const res = await t.post('/auth/refresh', { refresh_token: account.refresh })
      assertStatus(res, 200)
      assertAuthResponse(res.body, account.email)
      assert.notEqual(res.body.refresh_token, account.refresh)
      assertStatus(await t.get('/auth/me', res.body.access_token), 200)
      // The new refresh token works once more.
      assertStatus(await t.post('/auth/refresh', { refresh_token: res.body.refresh_token }), 200)
    })

    it('refresh with an already-rotated token revokes every refresh token of the user (reuse detection)', async () => {
      const account = await t.register()
      const otherSession = await t.post('/auth/login', { email: account.email, password: account.password })
      const rotated = await t.post('/auth/refresh', { refresh_token: account.refresh })
      assertStatus(rotated, 200)
      // The old token again: someone else holds it.
      assertError(await t.post('/auth/refresh', { refresh_token: account.refresh }), 401, 'invalid refresh token')
      // Every session of the user is over, the legitimate new token and the other device included.
      assertError(await t.post('/auth/refresh', { refresh_token: rotated.body.refresh_token }), 401, 'invalid refresh token')
      assertError(await t.post('/auth/refresh', { refresh_token: otherSession.body.refresh_token }), 401, 'invalid refresh token')
      // Logging in again starts a fresh session.
      const again = await t.post('/auth/login', { email: account.email, password: account.password })
      assertStatus(await t.post('/auth/refresh', { refresh_token: again.body.refresh_token }), 200)
    })

    it('refresh refuses unknown, expired, missing and mistyped tokens', async () => {
      assertError(await t.post('/auth/refresh', { refresh_token: 'no-such-token' }), 401, 'invalid refresh token')
      assertError(await t.post('/auth/refresh', { refresh_token: 'x'.repeat(5000) }), 401, 'invalid refresh token')
      const account = await t.register()
      await t.db.query("UPDATE refresh_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1", [account.id])
      assertError(await t.post('/auth/refresh', { refresh_token: account.refresh }), 401, 'invalid refresh token')
      assertError(await t.post('/auth/refresh', {}), 400, 'refresh_token is required')
      assertError(await t.post('/auth/refresh', { refresh_token: '' }), 400, 'refresh_token is required')
      assertError(await t.post('/auth/refresh', { refresh_token: 42 }), 400, 'refresh_token must be of type string')
      assertError(await t.request('POST', '/auth/refresh', { payload: '{', headers: { 'content-type': 'application/json' } }), 400, 'invalid request body')
    })

    it('logout revokes every refresh token of the caller; access tokens stay valid until they expire', async () => {
      const account = await t.register()
      const otherSession = await t.post('/auth/login', { email: account.email, password: account.password })
      const res = await t.post('/auth/logout', undefined, account.token)
      assertStatus(res, 200)
      assert.deepEqual(res.body, { message: 'logged out' })
      assertError(await t.post('/auth/refresh', { refresh_token: account.refresh }), 401, 'invalid refresh token')
      assertError(await t.post('/auth/refresh', { refresh_token: otherSession.body.refresh_token }), 401, 'invalid refresh token')
      assertStatus(await t.get('/auth/me', account.token), 200)
      // Logging out twice is fine.
      assertStatus(await t.post('/auth/logout', undefined, account.token), 200)
    })

    it('logout and me without a valid token are 401 unauthorized', async () => {
      assertError(await t.post('/auth/logout'), 401, 'unauthorized')
      assertError(await t.get('/auth/me'), 401, 'unauthorized')
      assertError(await t.get('/auth/me', 'not-a-jwt'), 401, 'unauthorized')
      const account = await t.register()
      assertError(await t.request('GET', '/auth/me', { headers: { authorization: `Basic ${account.token}` } }), 401, 'unauthorized')
      assertError(await t.request('GET', '/auth/me', { headers: { authorization: account.token } }), 401, 'unauthorized')
      const foreign = accessTokens('another-secret-that-is-long-enough-0123456789', 900).sign(account.id)
      assertError(await t.get('/auth/me', foreign), 401, 'unauthorized')
      // A well-signed token for a user that does not exist.
      assertError(await t.get('/auth/me', accessTokens(TEST_SECRET, 900).sign(987654321)), 401, 'unauthorized')
    })

    it('the refresh token is stored only as a hash', async () => {
      const account = await t.register()
      const rows = await t.db.query<{ token_hash: string }>('SELECT token_hash FROM refresh_tokens WHERE user_id = $1', [account.id])
      assert.equal(rows.length, 1)
      assert.notEqual(rows[0]?.token_hash, account.refresh)
      assert.equal(rows[0]?.token_hash.length, 43)
    })

    if (engine === 'postgres') {
      it('two refreshes racing with one token: exactly one gets a new pair', async () => {
        const account = await t.register()
        const results = await Promise.all([1, 2, 3].map(() => t.post('/auth/refresh', { refresh_token: account.refresh })))
        assert.deepEqual(results.map((res) => res.status).sort(), [200, 401, 401])
        for (const res of results.filter((res) => res.status === 401)) assertError(res, 401, 'invalid refresh token')
      })
    }
  })

  describe(`auth: blocked users, principal cache off (${engine})`, () => {
    let t: TestApp
    // authCacheTtlMs 0: every request reads the user's blocked flag and roles from the database.
    before(async () => { t = await startApp(engine, { authCacheTtlMs: 0 }) })
    after(() => t.close())

    it('a blocked user is refused at login, at refresh, and with an access token already issued', async () => {
      const account = await t.register()
      assertStatus(await t.post(`/admin/users/${account.id}/block`, undefined, t.admin.token), 200)
      assertError(await t.post('/auth/login', { email: account.email, password: account.password }), 401, 'account is blocked')
      // A wrong password does not reveal that the account exists, blocked or not.
      assertError(await t.post('/auth/login', { email: account.email, password: 'wrong password' }), 401, 'invalid email or password')
      assertError(await t.post('/auth/refresh', { refresh_token: account.refresh }), 401, 'account is blocked')
      assertError(await t.get('/auth/me', account.token), 401, 'unauthorized')
      assertError(await t.get('/users/me', account.token), 401, 'unauthorized')
    })

    it('a block written by another instance stops an access token on the next request', async () => {
      const account = await t.register()
      assertStatus(await t.get('/auth/me', account.token), 200)
      // As another instance would: straight in the shared database, so this instance's cache is not told.
      await t.db.query('UPDATE users SET is_blocked = true WHERE id = $1', [account.id])
      assertError(await t.get('/auth/me', account.token), 401, 'unauthorized')
      // A live refresh token of a user blocked this way is refused too.
      assertError(await t.post('/auth/refresh', { refresh_token: account.refresh }), 401, 'account is blocked')
    })

    it('an unblocked user can log in again; refresh tokens revoked by the block stay revoked', async () => {
      const account = await t.register()
      assertStatus(await t.post(`/admin/users/${account.id}/block`, undefined, t.admin.token), 200)
      assertStatus(await t.post(`/admin/users/${account.id}/unblock`, undefined, t.admin.token), 200)
      assertError(await t.post('/auth/refresh', { refresh_token: account.refresh }), 401, 'invalid refresh token')
      const login = await t.post('/auth/login', { email: account.email, password: account.password })
      assertStatus(login, 200)
      assertStatus(await t.get('/auth/me', login.body.access_token), 200)
      // The old access token works again too: it was refused because of the block, not revoked.
      assertStatus(await t.get('/auth/me', account.token), 200)
    })

    it('with a principal cache, another instance\'s block is honoured once the cache TTL has passed', async () => {
      // A second instance on the same database, caching principals for 200 ms.
      const cached = await buildApp({ config: testConfig({ authCacheTtlMs: 200 }), db: t.db, jwtSecret: TEST_SECRET })
      const other = new TestApp(cached, t.db, engine, t.scratch, t.admin)
      try {
        const account = await t.register()
        assertStatus(await other.get('/auth/me', account.token), 200)
        // The block goes through the first instance: the second one is not told.
        assertStatus(await t.post(`/admin/users/${account.id}/block`, undefined, t.admin.token), 200)
        await sleep(300)
        assertError(await other.get('/auth/me', account.token), 401, 'unauthorized')
      } finally {
        await cached.close()
      }
    })
  })

  describe(`auth: production password hashing (${engine})`, () => {
    let t: TestApp
    before(async () => { t = await startApp(engine, { scrypt: OWASP_SCRYPT }) })
    after(() => t.close())

    it('hashes with scrypt at OWASP parameters N=16384, r=8, p=5; login still works', async () => {
      assert.deepEqual({ ...OWASP_SCRYPT }, { N: 16384, r: 8, p: 5 })
      const account = await t.register()
      const [row] = await t.db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [account.id])
      assert.match(row?.password_hash ?? '', /^scrypt\$16384\$8\$5\$[\w-]{22}\$[\w-]{43}$/)
      assertStatus(await t.post('/auth/login', { email: account.email, password: account.password }), 200)
      assertError(await t.post('/auth/login', { email: account.email, password: 'wrong password' }), 401, 'invalid email or password')
    })
  })
}
