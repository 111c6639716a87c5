import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { loadConfig } from '../../src/config.js'
import { startApp, TEST_SECRET } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'

// GET /account-settings (beyond interface 1.0.1): the web app offers "Confirm your email address" only
// where EMAIL_VERIFICATION=code sent a code (docs/web/accounts.md › Getting back in), says on the on-duty page
// which checks VOLUNTEER_CHECKS asks (docs/web/help.md › "When I can help"), and reads numbers typed
// without a country code as SMS_DEFAULT_COUNTRY's (docs/web.md › Phone numbers), and offers the visit steps only under
// VISIT_CHECKS=on (docs/api/visit-checks.md).
for (const engine of engines()) {
  describe(`GET /account-settings (${engine})`, () => {
    for (const mode of ['self', 'code'] as const) {
      it(`says EMAIL_VERIFICATION=${mode} to anyone, signed in or not`, async () => {
        const t = await startApp(engine, { emailVerification: mode })
        try {
          const anonymous = await t.get('/account-settings')
          assert.equal(anonymous.status, 200)
          assert.deepEqual(anonymous.body, { email_verification: mode, volunteer_checks: [], phone_country: 'DE', visit_checks: 'off' })
          const account = await t.register()
          const signedIn = await t.get('/account-settings', account.token)
          assert.deepEqual(signedIn.body, { email_verification: mode, volunteer_checks: [], phone_country: 'DE', visit_checks: 'off' })
        } finally {
          await t.close()
        }
      })
    }

    it('names the checks VOLUNTEER_CHECKS asks of volunteers, SMS_DEFAULT_COUNTRY and VISIT_CHECKS', async () => {
      const t = await startApp(engine, { volunteerChecks: ['background', 'training'], smsDefaultCountry: 'AT', visits: { ...loadConfig({ JWT_SECRET: TEST_SECRET }).visits, checks: 'on' } })
      try {
        const answer = await t.get('/account-settings')
        assert.equal(answer.status, 200)
        assert.deepEqual(answer.body, { email_verification: 'self', volunteer_checks: ['background', 'training'], phone_country: 'AT', visit_checks: 'on' })
      } finally {
        await t.close()
      }
    })
  })
}
