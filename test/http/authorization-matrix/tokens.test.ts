import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { startApp, TEST_SECRET, type Account, type TestApp } from '../../helpers/app.js'
import { assertError, assertStatus } from '../../helpers/assert.js'
import { engines } from '../../helpers/engines.js'

// Which tokens make a signed-in caller: forged, expired, malformed ones and those of blocked or demoted users do not.
for (const engine of engines()) {
  describe(`authorization matrix: what counts as a signed-in caller (${engine})`, () => {
    const ISSUER = 'volunteer-coordination-service'
    const HS256 = { alg: 'HS256', typ: 'JWT' }
    const base64url = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url')
    const now = () => Math.floor(Date.now() / 1000)
    const claims = (userId: number, extra: object = {}) => ({ sub: String(userId), iss: ISSUER, iat: now(), exp: now() + 600, ...extra })
    /** A JWT made by hand: HMAC-SHA256 with `secret`, or no signature at all. */
    const jwt = (header: object, payload: object, secret: string | undefined = TEST_SECRET): string => {
      const signed = `${base64url(header)}.${base64url(payload)}`
      return `${signed}.${secret === undefined ? '' : createHmac('sha256', secret).update(signed).digest('base64url')}`
    }

    let t: TestApp
    let user: Account
    /** A user's own profile, and an admin-only list: a forged token must open neither. */
    let targets: Array<{ path: string, userId: number }>
    // authCacheTtlMs 0: a block or a role taken away applies to the very next request.
    before(async () => {
      t = await startApp(engine, { authCacheTtlMs: 0 })
      user = await t.register()
      targets = [{ path: '/users/me', userId: user.id }, { path: '/roles', userId: t.admin.id }]
    })
    after(() => t.close())

    it('accepts a token made here as the service makes its own, so each refusal below is about its one flaw', async () => {
      for (const { path, userId } of targets) assertStatus(await t.get(path, jwt(HS256, claims(userId))), 200)
    })

    it('refuses forged, expired and malformed tokens: 401 unauthorized', async () => {
      const forgeries: Record<string, (userId: number) => string> = {
        'alg none': (userId) => jwt({ alg: 'none', typ: 'JWT' }, claims(userId), undefined),
        'another secret': (userId) => jwt(HS256, claims(userId), 'another-secret-that-is-long-enough-0123456789'),
        expired: (userId) => jwt(HS256, claims(userId, { iat: now() - 1000, exp: now() - 60 })),
        'another issuer': (userId) => jwt(HS256, claims(userId, { iss: 'someone-else' })),
        'no expiry': (userId) => jwt(HS256, { sub: String(userId), iss: ISSUER, iat: now() }),
        // The signature of the user's own token over a payload that names someone else.
        'payload swapped': (userId) => {
          const [header, , signature] = jwt(HS256, claims(user.id)).split('.')
          return `${header}.${base64url(claims(userId, { admin: true }))}.${signature}`
        },
        'unknown user': () => jwt(HS256, claims(2 ** 40)),
        malformed: () => 'not-a-jwt',
        'three parts of nothing': () => 'a.b.c',
      }
      for (const [name, forge] of Object.entries(forgeries)) {
        for (const { path, userId } of targets) {
          const res = await t.get(path, forge(userId))
          assert.deepEqual([res.status, res.body], [401, { error: 'unauthorized' }], `${name} on ${path}`)
        }
      }
    })

    it('refuses an Authorization header that is not "Bearer <token>": 401 unauthorized', async () => {
      const headers = [
        'Bearer',
        'Bearer ',
        `Basic ${Buffer.from(`${user.email}:${user.password}`).toString('base64')}`,
        user.token,
        `Token ${user.token}`,
        `Bearer ${user.token} ${user.token}`,
      ]
      for (const authorization of headers) {
        const res = await t.request('GET', '/users/me', { headers: { authorization } })
        assert.deepEqual([res.status, res.body], [401, { error: 'unauthorized' }], authorization)
      }
      assertStatus(await t.request('GET', '/users/me', { headers: { authorization: `Bearer ${user.token}` } }), 200)
    })

    it('refuses the valid token of a user an admin has blocked, from the next request on', async () => {
      const blocked = await t.registerWithRole('moderator')
      assertStatus(await t.get('/moderation/requests/pending', blocked.token), 200)
      assertStatus(await t.post(`/admin/users/${blocked.id}/block`, undefined, t.admin.token), 200)
      for (const path of ['/users/me', '/auth/me', '/requests/my', '/moderation/requests/pending']) {
        assertError(await t.get(path, blocked.token), 401, 'unauthorized')
      }
    })

    it('takes a moderator\'s powers away with the role, from the next request on', async () => {
      const demoted = await t.registerWithRole('moderator')
      assertStatus(await t.get('/moderation/requests/pending', demoted.token), 200)
      assertStatus(await t.delete(`/admin/users/${demoted.id}/roles/2`, t.admin.token), 200)
      assertError(await t.get('/moderation/requests/pending', demoted.token), 403, 'moderator role required')
      assertStatus(await t.get('/users/me', demoted.token), 200)
    })
  })
}
