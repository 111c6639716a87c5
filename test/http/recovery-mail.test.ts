import assert from 'node:assert/strict'
import { after, before, beforeEach, describe, it } from 'node:test'
import { uniqueEmail, type Account, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { engines } from '../helpers/engines.js'
import { codeIn, CSRF, nextCode, startMailingApp } from '../helpers/recovery.js'
import type { TestSmtp } from '../helpers/smtp.js'

/*
 * docs/api/accounts.md › Getting back in end to end: each code read from the e-mail a real SMTP server received, then used through
 * HTTP; wrong, used, expired (the clock moved) and five-times-wrong codes; blocked accounts; the account
 * e-mails that follow. The storage and the paths that need no e-mail: recovery.test.ts.
 */

const NEW_PASSWORD = 'a brand new password'
const INVALID_CODE = 'invalid or expired code'
const MINUTE_MS = 60_000

for (const engine of engines()) {
  describe(`getting back in, codes read from the e-mail (${engine})`, () => {
    const start = new Date()
    const clock = new ManualClock(start)
    let smtp: TestSmtp
    let t: TestApp
    before(async () => { ({ smtp, t } = await startMailingApp(engine, {}, { clock })) })
    beforeEach(() => { clock.set(start) })
    after(async () => { await t.close(); await smtp.close() })

    /** Asks for a code at `path` and reads it from the e-mail that follows. */
    async function askCode (path: '/auth/password-reset' | '/auth/code', email: string): Promise<string> {
      assertStatus(await t.post(path, { email }), 202)
      return await nextCode(smtp, email)
    }

    it('password reset: the code from the e-mail sets the new password, signs in, ends every session and confirms the address', async () => {
      const account = await t.register()
      const code = await askCode('/auth/password-reset', account.email)
      const res = await t.post('/auth/password-reset/confirm', { email: account.email, code, new_password: NEW_PASSWORD })
      assertStatus(res, 200)
      assert.equal(res.body.user.id, account.id)
      assert.equal(res.body.user.email_verified, true)
      assertStatus(await t.get('/auth/me', res.body.access_token), 200)
      assertError(await t.post('/auth/refresh', { refresh_token: account.refresh }), 401, 'invalid refresh token')
      assertStatus(await t.post('/auth/refresh', { refresh_token: res.body.refresh_token }), 200)
      assertError(await t.post('/auth/login', { email: account.email, password: account.password }), 401, 'invalid email or password')
      assertStatus(await t.post('/auth/login', { email: account.email, password: NEW_PASSWORD }), 200)
      assert.equal((await t.get('/users/me', res.body.access_token)).body.email_verified, true)
      // Used: never again.
      assertError(await t.post('/auth/password-reset/confirm', { email: account.email, code, new_password: 'yet another password' }), 400, INVALID_CODE)
      // Told, whatever the preferences: the password changed (and what to do if it was not them), the address confirmed.
      const told = [await smtp.nextTo(account.email), await smtp.nextTo(account.email)]
      assert.deepEqual(told.map((mail) => mail.subject).sort(), ['Your e-mail address is confirmed', 'Your password was changed'])
      assert.match(told.find((mail) => mail.subject === 'Your password was changed')!.text, /If it was not you/)
    })

    it('a bad new password is refused first, and the same code then still works; spaces in a pasted code are ignored', async () => {
      const account = await t.register()
      const code = await askCode('/auth/password-reset', account.email)
      assertError(await t.post('/auth/password-reset/confirm', { email: account.email, code, new_password: 'short' }), 400, 'password must be at least 8 characters long')
      const pasted = ` ${code.slice(0, 3)} ${code.slice(3)} `
      assertStatus(await t.post('/auth/password-reset/confirm', { email: account.email, code: pasted, new_password: NEW_PASSWORD }), 200)
    })

    it('two tries racing with one right code: one signs in, the other is refused', async () => {
      const account = await t.register()
      const code = await askCode('/auth/code', account.email)
      const results = await Promise.all([1, 2].map(() => t.post('/auth/code/confirm', { email: account.email, code })))
      assert.deepEqual(results.map((res) => res.status).sort(), [200, 400])
    })

    it('asking again voids the earlier code', async () => {
      const account = await t.register()
      const first = await askCode('/auth/code', account.email)
      const second = await askCode('/auth/code', account.email)
      if (first !== second) assertError(await t.post('/auth/code/confirm', { email: account.email, code: first }), 400, INVALID_CODE)
      assertStatus(await t.post('/auth/code/confirm', { email: account.email, code: second }), 200)
    })

    it('a code works until 30 minutes have passed on the clock, not after', async () => {
      const account = await t.register()
      const early = await askCode('/auth/code', account.email)
      clock.advance(30 * MINUTE_MS - 1000)
      assertStatus(await t.post('/auth/code/confirm', { email: account.email, code: early }), 200)
      clock.set(start)
      const late = await askCode('/auth/password-reset', account.email)
      clock.advance(30 * MINUTE_MS)
      assertError(await t.post('/auth/password-reset/confirm', { email: account.email, code: late, new_password: NEW_PASSWORD }), 400, INVALID_CODE)
      clock.set(start)
      assertError(await t.post('/auth/password-reset/confirm', { email: account.email, code: late, new_password: NEW_PASSWORD }), 400, INVALID_CODE)
    })

    it('four wrong tries leave the code usable; after five even the right code is refused', async () => {
      const account = await t.register()
      const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')
      const code = await askCode('/auth/code', account.email)
      for (let i = 0; i < 4; i++) assertError(await t.post('/auth/code/confirm', { email: account.email, code: wrong(code) }), 400, INVALID_CODE)
      assertStatus(await t.post('/auth/code/confirm', { email: account.email, code }), 200)
      const voided = await askCode('/auth/code', account.email)
      for (let i = 0; i < 5; i++) assertError(await t.post('/auth/code/confirm', { email: account.email, code: wrong(voided) }), 400, INVALID_CODE)
      assertError(await t.post('/auth/code/confirm', { email: account.email, code: voided }), 400, INVALID_CODE)
    })

    it('sign-in by code: signed in with no password, the address confirmed; a code is for its own account only', async () => {
      const account = await t.register()
      const stranger = await t.register()
      const code = await askCode('/auth/code', account.email)
      assertError(await t.post('/auth/code/confirm', { email: stranger.email, code }), 400, INVALID_CODE)
      const res = await t.post('/auth/code/confirm', { email: account.email.toUpperCase(), code })
      assertStatus(res, 200)
      assert.deepEqual([res.body.user.id, res.body.user.email_verified], [account.id, true])
      assertStatus(await t.get('/users/me', res.body.access_token), 200)
      assertError(await t.post('/auth/code/confirm', { email: account.email, code }), 400, INVALID_CODE)
      // The password is untouched.
      assertStatus(await t.post('/auth/login', { email: account.email, password: account.password }), 200)
      assert.equal((await smtp.nextTo(account.email)).subject, 'Your e-mail address is confirmed')
    })

    it('a blocked account: 401 account is blocked with the right code, as at login; a wrong code stays 400; the password is kept', async () => {
      const account = await t.register()
      const signInCode = await askCode('/auth/code', account.email)
      const resetCode = await askCode('/auth/password-reset', account.email)
      assertStatus(await t.post(`/admin/users/${account.id}/block`, undefined, t.admin.token), 200)
      assertError(await t.post('/auth/code/confirm', { email: account.email, code: signInCode === '000000' ? '000001' : '000000' }), 400, INVALID_CODE)
      assertError(await t.post('/auth/code/confirm', { email: account.email, code: signInCode }), 401, 'account is blocked')
      assertError(await t.post('/auth/password-reset/confirm', { email: account.email, code: resetCode, new_password: NEW_PASSWORD }), 401, 'account is blocked')
      assertStatus(await t.post(`/admin/users/${account.id}/unblock`, undefined, t.admin.token), 200)
      assertStatus(await t.post('/auth/login', { email: account.email, password: account.password }), 200)
    })

    it('an address with no account gets no e-mail, and the same answer', async () => {
      const nobody = uniqueEmail('nobody')
      const account = await t.register()
      const res = await t.post('/auth/password-reset', { email: nobody })
      assertStatus(res, 202)
      assert.deepEqual(res.body, { message: 'if that address has an account, we have sent it a code' })
      // Asked after it, so once this one has arrived the loop has been past the other's moment.
      await askCode('/auth/password-reset', account.email)
      assert.equal(smtp.countTo(nobody), 0)
    })

    it('changing the password tells the account by e-mail', async () => {
      const account = await t.register()
      assertStatus(await t.post('/users/me/password', { current_password: account.password, new_password: NEW_PASSWORD }, account.token), 200)
      const mail = await smtp.nextTo(account.email)
      assert.equal(mail.subject, 'Your password was changed')
      assert.match(mail.text, /If it was not you/)
    })

    describe('the web app\'s sessions: the same steps, the refresh token in the cookie', () => {
      const cookieOf = (res: { headers: Record<string, unknown> }) => String(([res.headers['set-cookie']].flat()[0] ?? '')).split(';')[0]!

      it('/session/code/confirm and /session/password-reset/confirm sign in with a cookie and no refresh token in the body', async () => {
        const account = await t.register()
        for (const [path, ask, body] of [
          ['/session/code/confirm', '/auth/code', {}],
          ['/session/password-reset/confirm', '/auth/password-reset', { new_password: NEW_PASSWORD }],
        ] as const) {
          const code = await askCode(ask, account.email)
          assertError(await t.request('POST', path, { body: { email: account.email, code, ...body } }), 403, 'header x-vcs-csrf: 1 is required')
          const res = await t.request('POST', path, { body: { email: account.email, code, ...body }, headers: CSRF })
          assertStatus(res, 200)
          assert.equal(res.body.refresh_token, undefined)
          assert.match(cookieOf(res), /^vcs_refresh=[\w-]{43}$/)
          assertStatus(await t.request('POST', '/session/refresh', { headers: { ...CSRF, cookie: cookieOf(res) } }), 200)
        }
      })

      it('/session/password: the session goes on with a new cookie; the old one is revoked', async () => {
        const account = await t.register()
        const session = await t.request('POST', '/session', { body: { email: account.email, password: account.password }, headers: CSRF })
        const res = await t.request('POST', '/session/password', { body: { current_password: account.password, new_password: NEW_PASSWORD }, headers: CSRF, token: session.body.access_token })
        assertStatus(res, 200)
        assertError(await t.request('POST', '/session/refresh', { headers: { ...CSRF, cookie: cookieOf(session) } }), 401, 'invalid refresh token')
        assertStatus(await t.request('POST', '/session/refresh', { headers: { ...CSRF, cookie: cookieOf(res) } }), 200)
      })
    })
  })

  describe(`EMAIL_VERIFICATION=code, codes read from the e-mail (${engine})`, () => {
    let smtp: TestSmtp
    let t: TestApp
    before(async () => { ({ smtp, t } = await startMailingApp(engine, { emailVerification: 'code' })) })
    after(async () => { await t.close(); await smtp.close() })

    const verify = (account: Account, code: string) => t.post('/users/me/verify-email', { code }, account.token)

    it('registration sends a code; it confirms the address once, and the person is told', async () => {
      const account = await t.register()
      const code = codeIn(await smtp.nextTo(account.email))
      const res = await verify(account, code)
      assertStatus(res, 200)
      assert.deepEqual(res.body, { message: 'email verified' })
      assert.equal((await t.get('/users/me', account.token)).body.email_verified, true)
      assert.equal((await smtp.nextTo(account.email)).subject, 'Your e-mail address is confirmed')
      // Pressing the button again is no error; nothing more is sent, and there is nothing to resend.
      assertStatus(await verify(account, code), 200)
      const resend = await t.post('/users/me/verify-email/resend', undefined, account.token)
      assertStatus(resend, 202)
      assert.deepEqual(resend.body, { message: 'email already verified' })
      const other = await t.register()
      codeIn(await smtp.nextTo(other.email))
      assert.equal(smtp.countTo(account.email), 2)
    })

    it('resend voids the earlier code; wrong codes are refused and count', async () => {
      const account = await t.register()
      const first = codeIn(await smtp.nextTo(account.email))
      assertStatus(await t.post('/users/me/verify-email/resend', undefined, account.token), 202)
      const second = codeIn(await smtp.nextTo(account.email))
      if (first !== second) assertError(await verify(account, first), 400, INVALID_CODE)
      assertStatus(await verify(account, second), 200)
    })

    it('a sign-in by code confirms the address too', async () => {
      const account = await t.register()
      codeIn(await smtp.nextTo(account.email))
      assertStatus(await t.post('/auth/code', { email: account.email }), 202)
      const res = await t.post('/auth/code/confirm', { email: account.email, code: codeIn(await smtp.nextTo(account.email)) })
      assertStatus(res, 200)
      assert.equal(res.body.user.email_verified, true)
    })
  })
}
