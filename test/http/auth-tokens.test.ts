import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { accessTokens } from '../../src/lib/tokens.js'
import { startApp, TEST_SECRET, TestApp, uniqueEmail } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { assertAuthResponse, PASSWORD, registration } from '../helpers/auth.js'
import { engines } from '../helpers/engines.js'

for (const engine of engines()) {
  describe(`auth: register, login, refresh, logout, me (${engine})`, () => {
    let t: TestApp
    before(async () => { t = await startApp(engine) })
    after(() => t.close())

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
}
