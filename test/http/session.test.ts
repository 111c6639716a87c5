import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, uniqueEmail, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'

const CSRF = { 'x-vcs-csrf': '1' }
const PASSWORD = 'correct horse battery'

function cookieOf (res: { headers: Record<string, unknown> }): string {
  const header = res.headers['set-cookie']
  assert.equal(typeof header, 'string', 'one Set-Cookie header')
  return header as string
}

/** The cookie's value, as a browser would send it back. */
const valueOf = (setCookie: string): string => setCookie.split(';')[0]!

/** Every attribute of a Set-Cookie, sorted: their order means nothing to a browser (RFC 6265 § 5.2). */
const attributesOf = (setCookie: string): string[] => setCookie.split('; ').slice(1).sort()

/** What every session cookie carries, with its Max-Age. */
const sessionAttributes = (maxAge: number, ...more: string[]) =>
  [`Max-Age=${maxAge}`, 'Path=/api/v1/session', 'HttpOnly', 'SameSite=Strict', ...more].sort()

for (const engine of engines()) {
  describe(`web app sessions: refresh token in an httpOnly cookie (${engine})`, () => {
    let t: TestApp
    let email: string
    before(async () => {
      t = await startApp(engine)
      email = (await t.register()).email
    })
    after(() => t.close())

    const signIn = (headers: Record<string, string> = CSRF, body: unknown = { email, password: PASSWORD }) =>
      t.request('POST', '/session', { body, headers })

    it('sign-in answers like /auth/login without the refresh token, which goes into a strict httpOnly cookie', async () => {
      const res = await signIn()
      assertStatus(res, 200)
      assert.deepEqual(Object.keys(res.body).sort(), ['access_token', 'expires_in', 'user'])
      assert.equal(res.body.user.email, email)
      assert.equal(res.headers['cache-control'], 'no-store')
      const cookie = cookieOf(res)
      assert.match(valueOf(cookie), /^vcs_refresh=[\w-]{43}$/)
      // Max-Age: REFRESH_TOKEN_TTL_DAYS, 30 by default. No Secure on plain HTTP: such a cookie would never be sent back.
      assert.deepEqual(attributesOf(cookie), sessionAttributes(2592000))
      assertStatus(await t.get('/auth/me', res.body.access_token), 200)
    })

    it('refresh rotates the cookie; the old cookie presented again revokes the session', async () => {
      const first = valueOf(cookieOf(await signIn()))
      const refreshed = await t.request('POST', '/session/refresh', { headers: { ...CSRF, cookie: first } })
      assertStatus(refreshed, 200)
      assert.deepEqual(Object.keys(refreshed.body).sort(), ['access_token', 'expires_in', 'user'])
      const second = valueOf(cookieOf(refreshed))
      assert.notEqual(second, first)
      assertStatus(await t.get('/auth/me', refreshed.body.access_token), 200)
      // Reuse of a spent token looks like theft: every refresh token of the user is revoked.
      assertError(await t.request('POST', '/session/refresh', { headers: { ...CSRF, cookie: first } }), 401, 'invalid refresh token')
      assertError(await t.request('POST', '/session/refresh', { headers: { ...CSRF, cookie: second } }), 401, 'invalid refresh token')
    })

    it('refresh without the cookie is 204 with no body (signed out, not an error); other cookies are ignored', async () => {
      for (const headers of [CSRF, { ...CSRF, cookie: 'other=1; vcs_refresh=' }]) {
        const res = await t.request('POST', '/session/refresh', { headers })
        assertStatus(res, 204)
        assert.equal(res.body, '')
        assert.equal(res.headers['set-cookie'], undefined)
        assert.equal(res.headers['cache-control'], 'no-store')
      }
    })

    it('refresh with a dead cookie is 401 invalid refresh token, and clears the cookie', async () => {
      const res = await t.request('POST', '/session/refresh', { headers: { ...CSRF, cookie: 'vcs_refresh=not-a-token' } })
      assertError(res, 401, 'invalid refresh token')
      const cleared = String(res.headers['set-cookie'])
      assert.match(cleared, /^vcs_refresh=; /)
      assert.deepEqual(attributesOf(cleared), sessionAttributes(0))
    })

    it('without the cookie the CSRF header and the Origin check still apply (403 before the 204)', async () => {
      assertError(await t.request('POST', '/session/refresh', {}), 403, 'header x-vcs-csrf: 1 is required')
      assertError(await t.request('POST', '/session/refresh', { headers: { ...CSRF, origin: 'https://evil.example' } }), 403, 'cross-site request refused')
    })

    it('every session route refuses a call without the CSRF header (403), before it does anything', async () => {
      const cookie = valueOf(cookieOf(await signIn()))
      assertError(await signIn({}), 403, 'header x-vcs-csrf: 1 is required')
      assertError(await signIn({ 'x-vcs-csrf': 'yes' }), 403, 'header x-vcs-csrf: 1 is required')
      assertError(await t.request('POST', '/session/register', { body: { email: uniqueEmail(), password: PASSWORD, first_name: 'A', last_name: 'B' } }), 403, 'header x-vcs-csrf: 1 is required')
      assertError(await t.request('POST', '/session/refresh', { headers: { cookie } }), 403, 'header x-vcs-csrf: 1 is required')
      const { token } = await t.register()
      assertError(await t.request('POST', '/session/logout', { token }), 403, 'header x-vcs-csrf: 1 is required')
      // The cookie was not spent by the refused refresh.
      assertStatus(await t.request('POST', '/session/refresh', { headers: { ...CSRF, cookie } }), 200)
    })

    it('a call from another origin is refused (403); from this origin it is served', async () => {
      assertError(await signIn({ ...CSRF, origin: 'https://evil.example' }), 403, 'cross-site request refused')
      assertError(await signIn({ ...CSRF, origin: 'null' }), 403, 'cross-site request refused')
      assertError(await signIn({ ...CSRF, host: 'app.example', origin: 'http://app.example.evil' }), 403, 'cross-site request refused')
      assertStatus(await signIn({ ...CSRF, host: 'app.example', origin: 'http://app.example' }), 200)
      assertStatus(await signIn({ ...CSRF, host: 'app.example:8080', origin: 'http://app.example:8080' }), 200)
    })

    it('wrong password is 401 invalid email or password, and sets no cookie', async () => {
      const res = await signIn(CSRF, { email, password: 'wrong password' })
      assertError(res, 401, 'invalid email or password')
      assert.equal(res.headers['set-cookie'], undefined)
      assertError(await signIn(CSRF, { email: 'not an email', password: 'x' }), 400, 'invalid email')
    })

    it('register signs the new account in with a cookie; the e-mail is stored trimmed and in lower case', async () => {
      const newEmail = uniqueEmail('Session')
      const res = await t.request('POST', '/session/register', { body: { email: `  ${newEmail.toUpperCase()} `, password: PASSWORD, first_name: 'Grace', last_name: 'Hopper' }, headers: CSRF })
      assertStatus(res, 201)
      assert.deepEqual(Object.keys(res.body).sort(), ['access_token', 'expires_in', 'user'])
      assert.equal(res.body.user.email, newEmail.toLowerCase())
      assert.match(valueOf(cookieOf(res)), /^vcs_refresh=[\w-]{43}$/)
      assert.deepEqual(attributesOf(cookieOf(res)), sessionAttributes(2592000))
      assertError(await t.request('POST', '/session/register', { body: { email: newEmail, password: PASSWORD, first_name: 'G', last_name: 'H' }, headers: CSRF }), 400, 'email already registered')
      assertError(await t.request('POST', '/session/register', { body: { email: uniqueEmail(), password: 'short', first_name: 'G', last_name: 'H' }, headers: CSRF }), 400, 'password must be at least 8 characters long')
    })

    it('logout ends this device\'s session only, and clears its cookie', async () => {
      const here = await signIn()
      const elsewhere = valueOf(cookieOf(await signIn()))
      const cookie = valueOf(cookieOf(here))
      const out = await t.request('POST', '/session/logout', { token: here.body.access_token, headers: { ...CSRF, cookie } })
      assertStatus(out, 200)
      assert.deepEqual(out.body, { message: 'logged out' })
      assert.equal(valueOf(cookieOf(out)), 'vcs_refresh=')
      assert.deepEqual(attributesOf(cookieOf(out)), sessionAttributes(0))
      assertError(await t.request('POST', '/session/refresh', { headers: { ...CSRF, cookie } }), 401, 'invalid refresh token')
      // The other device goes on: its cookie still renews its session.
      assertStatus(await t.request('POST', '/session/refresh', { headers: { ...CSRF, cookie: elsewhere } }), 200)
      assertError(await t.request('POST', '/session/logout', { headers: CSRF }), 401, 'unauthorized')
    })

    it('logout without a cookie (the access token alone) ends no session', async () => {
      const here = await signIn()
      const cookie = valueOf(cookieOf(here))
      assertStatus(await t.request('POST', '/session/logout', { token: here.body.access_token, headers: CSRF }), 200)
      assertStatus(await t.request('POST', '/session/refresh', { headers: { ...CSRF, cookie } }), 200)
    })

    it('logout with another person\'s cookie ends neither session', async () => {
      const other = await t.register()
      const theirs = valueOf(cookieOf(await t.request('POST', '/session', { body: { email: other.email, password: other.password }, headers: CSRF })))
      const mine = await signIn()
      assertStatus(await t.request('POST', '/session/logout', { token: mine.body.access_token, headers: { ...CSRF, cookie: theirs } }), 200)
      assertStatus(await t.request('POST', '/session/refresh', { headers: { ...CSRF, cookie: theirs } }), 200)
    })

    it('logout everywhere ends every session of the person and clears the cookie', async () => {
      const here = await signIn()
      const elsewhere = valueOf(cookieOf(await signIn()))
      const cookie = valueOf(cookieOf(here))
      const out = await t.request('POST', '/session/logout-everywhere', { token: here.body.access_token, headers: { ...CSRF, cookie } })
      assertStatus(out, 200)
      assert.deepEqual(out.body, { message: 'logged out' })
      assert.deepEqual(attributesOf(cookieOf(out)), sessionAttributes(0))
      assertError(await t.request('POST', '/session/refresh', { headers: { ...CSRF, cookie } }), 401, 'invalid refresh token')
      assertError(await t.request('POST', '/session/refresh', { headers: { ...CSRF, cookie: elsewhere } }), 401, 'invalid refresh token')
      assertError(await t.request('POST', '/session/logout-everywhere', { token: here.body.access_token }), 403, 'header x-vcs-csrf: 1 is required')
    })

    it('the JSON token API of 1.0.1 is unchanged: login still returns the refresh token in the body, and sets no cookie', async () => {
      const res = await t.post('/auth/login', { email, password: PASSWORD })
      assertStatus(res, 200)
      assert.deepEqual(Object.keys(res.body).sort(), ['access_token', 'expires_in', 'refresh_token', 'user'])
      assert.equal(res.headers['set-cookie'], undefined)
    })
  })

  describe(`web app sessions behind a TLS proxy (${engine})`, () => {
    let t: TestApp
    before(async () => { t = await startApp(engine, { trustProxy: true }) })
    after(() => t.close())

    it('the cookie is Secure when the request came over HTTPS', async () => {
      const { email, password } = await t.register()
      const res = await t.request('POST', '/session', { body: { email, password }, headers: { ...CSRF, 'x-forwarded-proto': 'https' } })
      assertStatus(res, 200)
      assert.deepEqual(attributesOf(cookieOf(res)), sessionAttributes(2592000, 'Secure'))
    })
  })
}
