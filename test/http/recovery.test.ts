import assert from 'node:assert/strict'
import { after, before, beforeEach, describe, it } from 'node:test'
import { codeHasherFor } from '../../src/lib/codes.js'
import { sealerFor } from '../../src/lib/sealing.js'
import { startApp, TEST_SECRET, uniqueEmail, type Account, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { engines } from '../helpers/engines.js'

/*
 * docs/api/accounts.md › Getting back in, what needs no e-mail to arrive: how codes are stored, replaced and voided, the same answer
 * for every address, the order of checks, changing the password, and EMAIL_VERIFICATION. The journeys
 * with the code read from the e-mail: recovery-mail.test.ts; rate limits and logs: recovery-limits.test.ts.
 */

const CODE_SENT = { message: 'if that address has an account, we have sent it a code' }
const INVALID_CODE = 'invalid or expired code'
const NEW_PASSWORD = 'a brand new password'
const MINUTE_MS = 60_000

interface CodeRow { code_hash: string, failed_tries: number, created_at: Date, expires_at: Date }

for (const engine of engines()) {
  describe(`getting back in: codes, without reading them (${engine})`, () => {
    const start = new Date()
    const clock = new ManualClock(start)
    let t: TestApp
    before(async () => { t = await startApp(engine, {}, { clock }) })
    beforeEach(() => { clock.set(start) })
    after(() => t.close())

    const codeRow = async (userId: number, purpose: string): Promise<CodeRow | undefined> =>
      (await t.db.query<CodeRow>('SELECT code_hash, failed_tries, created_at, expires_at FROM auth_codes WHERE user_id = $1 AND purpose = $2', [userId, purpose]))[0]

    for (const [path, purpose] of [['/auth/password-reset', 'password_reset'], ['/auth/code', 'sign_in']] as const) {
      it(`${path}: 202 and the same message for an address with an account, without one, and in any case`, async () => {
        const account = await t.register()
        for (const email of [account.email, uniqueEmail('nobody'), `  ${account.email.toUpperCase()} `]) {
          const res = await t.post(path, { email })
          assertStatus(res, 202)
          assert.deepEqual(res.body, CODE_SENT)
        }
        assertError(await t.post(path, {}), 400, 'email is required')
        assertError(await t.post(path, { email: 'not an address' }), 400, 'invalid email')
      })

      it(`${path}: the code is stored only as a keyed hash, valid 30 minutes by the app's clock; asking again replaces it`, async () => {
        const account = await t.register()
        assertStatus(await t.post(path, { email: account.email }), 202)
        const first = await codeRow(account.id, purpose)
        assert.ok(first !== undefined)
        // 256 bits of HMAC in base64url: nothing of six digits in it.
        assert.match(first.code_hash, /^[\w-]{43}$/)
        assert.equal(new Date(first.created_at).getTime(), start.getTime())
        assert.equal(new Date(first.expires_at).getTime(), start.getTime() + 30 * MINUTE_MS)
        assertError(await t.post(`${path}/confirm`, confirmBody(account.email, '000000')), 400, INVALID_CODE)
        assert.equal((await codeRow(account.id, purpose))?.failed_tries, 1)

        clock.advance(MINUTE_MS)
        assertStatus(await t.post(path, { email: account.email }), 202)
        const second = await codeRow(account.id, purpose)
        assert.ok(second !== undefined)
        assert.notEqual(second.code_hash, first.code_hash)
        assert.equal(second.failed_tries, 0, 'a new code starts with five tries')
        assert.equal(new Date(second.expires_at).getTime(), start.getTime() + 31 * MINUTE_MS)
        const rows = await t.db.query('SELECT 1 FROM auth_codes WHERE user_id = $1', [account.id])
        assert.equal(rows.length, 1, 'one live code per person and purpose')
      })

      it(`${path}/confirm: five wrong tries void the code; each is answered alike`, async () => {
        const account = await t.register()
        assertStatus(await t.post(path, { email: account.email }), 202)
        for (let i = 1; i <= 4; i++) {
          assertError(await t.post(`${path}/confirm`, confirmBody(account.email, String(100000 + i))), 400, INVALID_CODE)
          assert.equal((await codeRow(account.id, purpose))?.failed_tries, i)
        }
        assertError(await t.post(`${path}/confirm`, confirmBody(account.email, '999999')), 400, INVALID_CODE)
        assert.equal(await codeRow(account.id, purpose), undefined, 'the fifth wrong try voids the code')
      })

      it(`${path}/confirm: a code for an unknown address, a malformed or missing code: 400, nothing stored`, async () => {
        assertError(await t.post(`${path}/confirm`, confirmBody(uniqueEmail('nobody'), '123456')), 400, INVALID_CODE)
        const account = await t.register()
        assertError(await t.post(`${path}/confirm`, confirmBody(account.email, '123456')), 400, INVALID_CODE)
        assertStatus(await t.post(path, { email: account.email }), 202)
        for (const code of ['', '12345', '1234567', 'abcdef', '12 34 5x']) {
          assertError(await t.post(`${path}/confirm`, confirmBody(account.email, code)), 400, INVALID_CODE)
        }
        assertError(await t.post(`${path}/confirm`, confirmBody(account.email, 123456)), 400, INVALID_CODE)
        assert.equal(await codeRow(account.id, purpose), undefined, 'five malformed tries count as five wrong ones')
        const { code: _omitted, ...withoutCode } = confirmBody(account.email, '')
        assertError(await t.post(`${path}/confirm`, withoutCode), 400, 'code is required')
        assertError(await t.post(`${path}/confirm`, { code: '123456', new_password: NEW_PASSWORD }), 400, 'email is required')
      })
    }

    it('the outbox holds the code sealed, never in clear; its hash matches only under the signing secret\'s key', async () => {
      const account = await t.register()
      assertStatus(await t.post('/auth/password-reset', { email: account.email }), 202)
      // deliveryTickMs is 0 here: the e-mail waits in the outbox.
      const [row] = await t.db.query<{ secret: string, account_message: string }>('SELECT secret, account_message FROM deliveries WHERE user_id = $1', [account.id])
      assert.equal(row?.account_message, 'password_reset_code')
      assert.doesNotMatch(row.secret, /^\d{6}$/)
      const code = sealerFor(TEST_SECRET).open(row.secret)
      assert.match(code ?? '', /^\d{6}$/)
      assert.ok(!row.secret.includes(code!))
      const stored = (await codeRow(account.id, 'password_reset'))!.code_hash
      assert.ok(codeHasherFor(TEST_SECRET).matches(stored, account.id, 'password_reset', code!))
      assert.ok(!codeHasherFor('another secret that is long enough 0123456789').matches(stored, account.id, 'password_reset', code!))
      assert.ok(!codeHasherFor(TEST_SECRET).matches(stored, account.id, 'sign_in', code!), 'the purpose is in the hash')
    })

    it('asking answers no sooner than 100 ms, for an address with an account or without: the write of a code is not timed apart', async () => {
      const account = await t.register()
      for (const email of [account.email, uniqueEmail('nobody')]) {
        const started = performance.now()
        assertStatus(await t.post('/auth/code', { email }), 202)
        assert.ok(performance.now() - started >= 99, email)
      }
    })

    it('password-reset/confirm checks the new password first, with registration\'s texts: the code keeps its tries', async () => {
      const account = await t.register()
      assertStatus(await t.post('/auth/password-reset', { email: account.email }), 202)
      const body = (password: unknown) => ({ email: account.email, code: '000000', new_password: password })
      assertError(await t.post('/auth/password-reset/confirm', body('short')), 400, 'password must be at least 8 characters long')
      assertError(await t.post('/auth/password-reset/confirm', body('x'.repeat(129))), 400, 'password must be at most 128 characters long')
      assertError(await t.post('/auth/password-reset/confirm', { email: account.email, code: '000000' }), 400, 'new_password is required')
      assert.equal((await codeRow(account.id, 'password_reset'))?.failed_tries, 0)
      // The old password still works: nothing changed.
      assertStatus(await t.post('/auth/login', { email: account.email, password: account.password }), 200)
    })

    it('codes of one purpose are no use for another', async () => {
      const account = await t.register()
      assertStatus(await t.post('/auth/code', { email: account.email }), 202)
      assertError(await t.post('/auth/password-reset/confirm', confirmBody(account.email, '000000')), 400, INVALID_CODE)
      assert.equal((await codeRow(account.id, 'sign_in'))?.failed_tries, 0)
    })

    it('an expired code is refused and deleted when tried', async () => {
      const account = await t.register()
      assertStatus(await t.post('/auth/code', { email: account.email }), 202)
      clock.advance(30 * MINUTE_MS)
      assertError(await t.post('/auth/code/confirm', { email: account.email, code: '000000' }), 400, INVALID_CODE)
      assert.equal(await codeRow(account.id, 'sign_in'), undefined)
    })

    describe('POST /users/me/password', () => {
      let account: Account
      before(async () => { account = await t.register() })

      it('a wrong or empty current password is 401 invalid credentials; a bad new one is registration\'s 400', async () => {
        const change = (body: unknown) => t.post('/users/me/password', body, account.token)
        assertError(await change({ current_password: 'not it', new_password: NEW_PASSWORD }), 401, 'invalid credentials')
        assertError(await change({ current_password: '', new_password: NEW_PASSWORD }), 401, 'invalid credentials')
        assertError(await change({ current_password: account.password, new_password: 'short' }), 400, 'password must be at least 8 characters long')
        assertError(await change({ new_password: NEW_PASSWORD }), 400, 'current_password is required')
        assertError(await change({ current_password: account.password }), 400, 'new_password is required')
        assertError(await t.post('/users/me/password', { current_password: account.password, new_password: NEW_PASSWORD }), 401, 'unauthorized')
        assertStatus(await t.post('/auth/login', { email: account.email, password: account.password }), 200)
      })

      it('answers a new pair; every earlier refresh token is revoked; the new password signs in, the old not', async () => {
        const other = await t.post('/auth/login', { email: account.email, password: account.password })
        const res = await t.post('/users/me/password', { current_password: account.password, new_password: NEW_PASSWORD }, account.token)
        assertStatus(res, 200)
        assert.equal(res.body.user.id, account.id)
        assertStatus(await t.get('/auth/me', res.body.access_token), 200)
        assertError(await t.post('/auth/refresh', { refresh_token: account.refresh }), 401, 'invalid refresh token')
        assertError(await t.post('/auth/refresh', { refresh_token: other.body.refresh_token }), 401, 'invalid refresh token')
        assertStatus(await t.post('/auth/refresh', { refresh_token: res.body.refresh_token }), 200)
        assertError(await t.post('/auth/login', { email: account.email, password: account.password }), 401, 'invalid email or password')
        assertStatus(await t.post('/auth/login', { email: account.email, password: NEW_PASSWORD }), 200)
        const reasons = await t.db.query<{ revoked_reason: string }>('SELECT DISTINCT revoked_reason FROM refresh_tokens WHERE user_id = $1 AND revoked_reason <> \'rotated\'', [account.id])
        assert.deepEqual(reasons.map((row) => row.revoked_reason), ['password'])
      })

      it('two changes racing with one current password: one wins, the other is 401', async () => {
        const racer = await t.register()
        const change = (password: string) => t.post('/users/me/password', { current_password: racer.password, new_password: password }, racer.token)
        const results = await Promise.all([change('first new password'), change('second new password')])
        assert.deepEqual(results.map((res) => res.status).sort(), [200, 401])
        const winner = results[0]!.status === 200 ? 'first new password' : 'second new password'
        assertStatus(await t.post('/auth/login', { email: racer.email, password: winner }), 200)
      })
    })

    it('EMAIL_VERIFICATION=self (the default): verify-email takes no code, as in 1.0.1; nothing to resend (404)', async () => {
      const account = await t.register()
      assert.equal(await codeRow(account.id, 'verify_email'), undefined, 'registration sends no code')
      assertStatus(await t.post('/users/me/verify-email', undefined, account.token), 200)
      assertError(await t.post('/users/me/verify-email/resend', undefined, account.token), 404, 'email verification by code is off')
    })

    it('an erased account\'s codes are deleted with it', async () => {
      const account = await t.register()
      assertStatus(await t.post('/auth/code', { email: account.email }), 202)
      assertStatus(await t.request('DELETE', '/users/me', { token: account.token, body: { password: account.password } }), 200)
      assert.deepEqual(await t.db.query('SELECT 1 FROM auth_codes WHERE user_id = $1', [account.id]), [])
    })
  })

  describe(`EMAIL_VERIFICATION=code, without reading the code (${engine})`, () => {
    let t: TestApp
    before(async () => { t = await startApp(engine, { emailVerification: 'code' }) })
    after(() => t.close())

    it('registration stores a code; verify-email needs one; resend replaces it (202)', async () => {
      const account = await t.register()
      const hashOf = async () => (await t.db.query<{ code_hash: string }>('SELECT code_hash FROM auth_codes WHERE user_id = $1 AND purpose = \'verify_email\'', [account.id]))[0]?.code_hash
      const first = await hashOf()
      assert.ok(first !== undefined)
      assertError(await t.post('/users/me/verify-email', {}, account.token), 400, 'code is required')
      assertError(await t.post('/users/me/verify-email', undefined, account.token), 400, 'invalid request body')
      assertError(await t.post('/users/me/verify-email', { code: '000000' }, account.token), 400, INVALID_CODE)
      const resent = await t.post('/users/me/verify-email/resend', undefined, account.token)
      assertStatus(resent, 202)
      assert.deepEqual(resent.body, { message: 'code sent' })
      assert.notEqual(await hashOf(), first)
      assert.equal((await t.get('/users/me', account.token)).body.email_verified, false)
      assertError(await t.post('/users/me/verify-email/resend'), 401, 'unauthorized')
    })
  })
}

function confirmBody (email: string, code: unknown): Record<string, unknown> {
  return { email, code, new_password: NEW_PASSWORD }
}
