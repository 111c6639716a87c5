import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { approvedAt, newPlace, noticesOf, RoundDriver, startAlertsApp, volunteerAt } from '../helpers/alerts.js'
import type { Account, TestApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'

for (const engine of engines()) {
  describe(`erasure closes the alerts of the requests it cancels (${engine})`, () => {
    let t: TestApp
    let moderator: Account
    before(async () => { ({ t, moderator } = await startAlertsApp(engine)) })
    after(() => t.close())

    it('an alerted volunteer who has not responded is told request_alert_closed, reason cancelled (docs/api/messaging.md, docs/privacy.md)', async () => {
      const here = newPlace()
      const requester = await t.register()
      const volunteer = await volunteerAt(t, here, 300)
      const requestId = await approvedAt(t, here, requester, moderator)
      await new RoundDriver(t).run()
      assert.deepEqual((await noticesOf(t, volunteer, requestId)).map((n) => n.type), ['request_alert'])

      const erased = await t.request('DELETE', '/users/me', { token: requester.token, body: { password: requester.password } })
      assert.equal(erased.status, 200, erased.text)

      const closed = (await noticesOf(t, volunteer, requestId)).filter((n) => n.type === 'request_alert_closed')
      assert.deepEqual(closed.map((n) => n.data), [{ reason: 'cancelled' }])
    })
  })
}
