import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { uniqueEmail, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'
import { codeIn, CSRF, startMailingApp } from '../helpers/recovery.js'
import type { TestSmtp } from '../helpers/smtp.js'

/*
 * Registration may carry the app's language (`locale`, beyond 1.0.1, docs/api.md › Registering): the
 * account's e-mails are in it from the first one, the code that confirms the address under
 * EMAIL_VERIFICATION=code, read here from the e-mail a real SMTP server received.
 */

const person = (fields: Record<string, unknown> = {}) =>
  ({ email: uniqueEmail('sprache'), password: 'correct horse battery', first_name: 'Greta', last_name: 'Gast', ...fields })

for (const engine of engines()) {
  describe(`registering in the app's language (${engine})`, () => {
    let smtp: TestSmtp
    let t: TestApp
    before(async () => { ({ smtp, t } = await startMailingApp(engine, { emailVerification: 'code' })) })
    after(async () => { await t.close(); await smtp.close() })

    for (const path of ['/auth/register', '/session/register']) {
      it(`${path} with locale de: the profile says de, and the code e-mail is in German with a working code`, async () => {
        const body = person({ locale: 'de' })
        const res = await t.request('POST', path, { body, headers: CSRF })
        assertStatus(res, 201)
        assert.equal((await t.get('/users/me', res.body.access_token)).body.locale, 'de')
        const mail = await smtp.nextTo(body.email)
        assert.equal(mail.subject, 'Bestätigen Sie Ihre E-Mail-Adresse')
        assertStatus(await t.post('/users/me/verify-email', { code: codeIn(mail) }, res.body.access_token), 200)
        assert.equal((await smtp.nextTo(body.email)).subject, 'Ihre E-Mail-Adresse ist bestätigt')
        // Asking for a sign-in code later: the account's language again.
        assertStatus(await t.post('/auth/code', { email: body.email }), 202)
        assert.equal((await smtp.nextTo(body.email)).subject, 'Ihr Anmeldecode')
      })
    }

    it('without locale: English, as before; a bad locale is 400 invalid locale and no account', async () => {
      const body = person()
      const res = await t.post('/auth/register', body)
      assertStatus(res, 201)
      assert.equal((await t.get('/users/me', res.body.access_token)).body.locale, 'en')
      assert.equal((await smtp.nextTo(body.email)).subject, 'Confirm your e-mail address')
      for (const locale of ['fr', 'DE', '', 7, null]) {
        const refused = person({ locale })
        assertError(await t.post('/auth/register', refused), 400, 'invalid locale')
        assertError(await t.request('POST', '/session/register', { body: refused, headers: CSRF }), 400, 'invalid locale')
        assertStatus(await t.post('/auth/login', { email: refused.email, password: refused.password }), 401)
      }
    })
  })
}
