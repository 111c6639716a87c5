import assert from 'node:assert/strict'
import { randomInt } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { simpleParser } from 'mailparser'
import { startApp, TEST_SECRET, uniqueEmail, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { deliveriesOf, until } from '../helpers/deliveries.js'
import { engines } from '../helpers/engines.js'
import { codeIn, CSRF } from '../helpers/recovery.js'

/*
 * docs/api/accounts.md › Getting back in: asking for and trying codes count against login's rate limits (per address and per e-mail),
 * so a mailbox cannot be flooded nor codes guessed; and no code, password or token reaches a log line.
 */

/** A client address of its own, so that counters of other tests never mix in. */
const someAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`
const TOO_MANY = 'too many requests, try again later'

for (const engine of engines()) {
  describe(`getting back in: rate limits (${engine})`, () => {
    let t: TestApp
    before(async () => { t = await startApp(engine, { emailVerification: 'code', rateLimits: { windowSeconds: 60, perAddress: 6, perAccount: 3 } }) })
    after(() => t.close())

    const call = (path: string, body: unknown, options: { token?: string, remoteAddress?: string, headers?: Record<string, string> } = {}) =>
      t.request('POST', path, { body, remoteAddress: someAddress(), ...options })

    it('a fourth code asked for one e-mail is refused, whatever the address, and sends nothing; login shares the budget', async () => {
      const account = await t.register()
      for (let i = 0; i < 3; i++) assertStatus(await call('/auth/password-reset', { email: account.email }), 202)
      assertError(await call('/auth/password-reset', { email: account.email }), 429, TOO_MANY)
      assertError(await call('/auth/code', { email: account.email.toUpperCase() }), 429, TOO_MANY)
      assertError(await call('/auth/login', { email: account.email, password: account.password }), 429, TOO_MANY)
      const codeMails = (await deliveriesOf(t, account.id)).filter((row) => row.account_message === 'password_reset_code')
      assert.equal(codeMails.length, 3, 'three e-mails for three accepted asks, none for the refused ones')
      // Unknown addresses are counted alike, so a refusal tells nothing about who has an account.
      const nobody = uniqueEmail('nobody')
      for (let i = 0; i < 3; i++) assertStatus(await call('/auth/code', { email: nobody }), 202)
      assertError(await call('/auth/code', { email: nobody }), 429, TOO_MANY)
      assertStatus(await call('/auth/code', { email: uniqueEmail('other') }), 202)
    })

    it('tries of a code count too: on the API and the web app\'s session routes together', async () => {
      const email = uniqueEmail('guesser')
      assertError(await call('/auth/code/confirm', { email, code: '111111' }), 400, 'invalid or expired code')
      assertError(await call('/session/code/confirm', { email, code: '222222' }, { headers: CSRF }), 400, 'invalid or expired code')
      assertError(await call('/auth/password-reset/confirm', { email, code: '333333', new_password: 'long enough' }), 400, 'invalid or expired code')
      assertError(await call('/session/password-reset/confirm', { email, code: '444444', new_password: 'long enough' }, { headers: CSRF }), 429, TOO_MANY)
    })

    it('one address gets six calls across asking and trying, for any e-mails', async () => {
      const remoteAddress = someAddress()
      for (let i = 0; i < 3; i++) assertStatus(await call('/auth/password-reset', { email: uniqueEmail() }, { remoteAddress }), 202)
      for (let i = 0; i < 3; i++) assertStatus(await call('/auth/code/confirm', { email: uniqueEmail(), code: '123456' }, { remoteAddress }), 400)
      assertError(await call('/auth/code', { email: uniqueEmail() }, { remoteAddress }), 429, TOO_MANY)
    })

    it('resending and trying the address code, and changing the password, count per account', async () => {
      const account = await t.register()
      for (let i = 0; i < 3; i++) assertStatus(await call('/users/me/verify-email/resend', undefined, { token: account.token }), 202)
      assertError(await call('/users/me/verify-email/resend', undefined, { token: account.token }), 429, TOO_MANY)
      const guesser = await t.register()
      assertStatus(await call('/users/me/verify-email/resend', undefined, { token: guesser.token }), 202)
      for (let i = 0; i < 2; i++) assertError(await call('/users/me/verify-email', { code: '000000' }, { token: guesser.token }), 400, 'invalid or expired code')
      assertError(await call('/users/me/verify-email', { code: '000000' }, { token: guesser.token }), 429, TOO_MANY)
      for (let i = 0; i < 3; i++) assertError(await call('/users/me/password', { current_password: 'a guess', new_password: 'long enough' }, { token: account.token }), 401, 'invalid credentials')
      assertError(await call('/session/password', { current_password: account.password, new_password: 'long enough' }, { token: account.token, headers: CSRF }), 429, TOO_MANY)
    })
  })

  describe(`getting back in: what the log holds (${engine})`, () => {
    const lines: string[] = []
    let t: TestApp
    let mailDir: string
    before(async () => {
      mailDir = await mkdtemp(join(tmpdir(), 'vcs-recovery-mail-'))
      // No SMTP_URL: e-mails are written to MAIL_DIR and logged by subject and recipient id.
      t = await startApp(engine, { logLevel: 'debug', mailDir, emailVerification: 'code' }, { deliveryTickMs: 25, logStream: { write: (line: string) => { lines.push(line) } } })
    })
    after(async () => {
      await t.close()
      await rm(mailDir, { recursive: true, force: true })
    })

    /** The code of the user's latest code e-mail, read from the `.eml` file it was written to. */
    async function latestCode (userId: number): Promise<string> {
      const id = await until(async () => {
        const rows = (await deliveriesOf(t, userId)).filter((row) => row.account_message?.endsWith('_code') === true)
        const last = rows.at(-1)
        return last?.status === 'sent' ? last.id : undefined
      }, 10_000, 'the code e-mail')
      const file = (await readdir(mailDir)).find((name) => name.startsWith(`delivery-${id}-`))
      assert.ok(file !== undefined)
      const mail = await simpleParser(await readFile(join(mailDir, file)))
      return codeIn({ subject: mail.subject ?? '', text: mail.text ?? '' })
    }

    it('never a code, a password (old, new, wrong) or a token, though every step of § 2 was taken', async () => {
      const secrets: string[] = [TEST_SECRET, 'a wrong current password', 'the new password 1', 'the new password 2', 'tiny']
      const account = await t.register()
      secrets.push(account.password, account.token, account.refresh)
      const verifyCode = await latestCode(account.id)
      assertStatus(await t.post('/users/me/verify-email', { code: verifyCode }, account.token), 200)
      assertStatus(await t.post('/auth/password-reset', { email: account.email }), 202)
      const resetCode = await latestCode(account.id)
      assertError(await t.post('/auth/password-reset/confirm', { email: account.email, code: resetCode, new_password: 'tiny' }), 400, 'password must be at least 8 characters long')
      // A body that is not JSON, carrying the code and a password, is refused without being echoed.
      await t.request('POST', '/auth/password-reset/confirm', { payload: `{"email": "${account.email}", "code": "${resetCode}", "new_password": "the new password 1"`, headers: { 'content-type': 'application/json' } })
      const reset = await t.post('/auth/password-reset/confirm', { email: account.email, code: resetCode, new_password: 'the new password 1' })
      assertStatus(reset, 200)
      assertStatus(await t.post('/auth/code', { email: account.email }), 202)
      const signInCode = await latestCode(account.id)
      assertError(await t.post('/auth/code/confirm', { email: account.email, code: signInCode === '000000' ? '000001' : '000000' }), 400, 'invalid or expired code')
      const signedIn = await t.post('/auth/code/confirm', { email: account.email, code: signInCode })
      assertStatus(signedIn, 200)
      assertError(await t.post('/users/me/password', { current_password: 'a wrong current password', new_password: 'the new password 2' }, signedIn.body.access_token), 401, 'invalid credentials')
      const changed = await t.post('/users/me/password', { current_password: 'the new password 1', new_password: 'the new password 2' }, signedIn.body.access_token)
      assertStatus(changed, 200)
      // Every account e-mail has been written (the last, "password changed", too).
      await until(async () => (await deliveriesOf(t, account.id)).every((row) => row.status === 'sent') ? true : undefined, 10_000, 'every e-mail sent')
      secrets.push(verifyCode, resetCode, signInCode, ...[reset, signedIn, changed].flatMap((res) => [res.body.access_token, res.body.refresh_token]))

      assert.ok(lines.some((line) => line.includes('e-mail written to MAIL_DIR')), 'the e-mails were logged')
      assert.ok(lines.filter((line) => line.includes('request completed')).length >= 12, 'a line per request')
      for (const line of lines) {
        for (const secret of secrets) assert.ok(!line.includes(secret), `a secret leaked into the log: ${secret} in ${line}`)
      }
      // And the sealed codes waiting in the outbox were cleared once sent (deliveries.secret).
      assert.ok((await deliveriesOf(t, account.id)).every((row) => row.secret === null))
    })
  })
}
