import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { startApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'

// GET /account-settings (beyond interface 1.0.1): the web app offers "Confirm your email address" only
// where EMAIL_VERIFICATION=code sent a code (docs/web/accounts.md › Getting back in).
for (const engine of engines()) {
  describe(`GET /account-settings (${engine})`, () => {
    for (const mode of ['self', 'code'] as const) {
      it(`says EMAIL_VERIFICATION=${mode} to anyone, signed in or not`, async () => {
        const t = await startApp(engine, { emailVerification: mode })
        try {
          const anonymous = await t.get('/account-settings')
          assert.equal(anonymous.status, 200)
          assert.deepEqual(anonymous.body, { email_verification: mode })
          const account = await t.register()
          const signedIn = await t.get('/account-settings', account.token)
          assert.deepEqual(signedIn.body, { email_verification: mode })
        } finally {
          await t.close()
        }
      })
    }
  })
}
