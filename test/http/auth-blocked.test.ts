import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildApp } from '../../src/app.js'
import { OWASP_SCRYPT } from '../../src/config.js'
import { startApp, TEST_SECRET, TestApp, testConfig } from '../helpers/app.js'
import { assertError, assertStatus, sleep } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'

for (const engine of engines()) {
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
