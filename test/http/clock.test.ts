import assert from 'node:assert/strict'
import { after, before, beforeEach, describe, it } from 'node:test'
import { RetentionJob } from '../../src/data-protection/privacy/retention.js'
import { approvedAt, newPlace, RoundDriver, TEST_ALERTS, volunteerAt } from '../helpers/alerts.js'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { engines } from '../helpers/engines.js'
import { requestInput } from '../helpers/requests.js'

/** Rules that depend on time follow the app's clock (src/lib/clock.ts): these tests move it instead of waiting. */

const DAY_MS = 86_400_000
const RETENTION_DAYS = 30

for (const engine of engines()) {
  describe(`the app's clock: time moved, not waited for (${engine})`, () => {
    const start = new Date()
    const clock = new ManualClock(start)
    let t: TestApp
    let moderator: Account
    before(async () => {
      t = await startApp(engine, { alerts: TEST_ALERTS, retentionDays: RETENTION_DAYS, notificationRetentionDays: 0 }, { alertTickMs: 0, clock })
      moderator = await t.registerWithRole('moderator')
    })
    // Each test starts at the same time, so the tokens issued before it are still valid.
    beforeEach(() => { clock.set(start) })
    after(() => t.close())

    it('an access token works until its lifetime has passed on the clock, and is refused after', async () => {
      const account = await t.register()
      // The token's `exp` is in whole seconds: up to a second before the clock's time plus the lifetime.
      clock.advance(899_000)
      assertStatus(await t.get('/auth/me', account.token), 200)
      clock.advance(1000)
      assertError(await t.get('/auth/me', account.token), 401, 'unauthorized')
      // A fresh token, issued at the clock's time, works again.
      const login = await t.post('/auth/login', { email: account.email, password: account.password })
      assertStatus(login, 200)
      assertStatus(await t.get('/auth/me', login.body.access_token), 200)
    })

    it('a refresh token is refused once the clock passes REFRESH_TOKEN_TTL_DAYS', async () => {
      const account = await t.register()
      clock.advance(30 * DAY_MS + 1000)
      assertError(await t.post('/auth/refresh', { refresh_token: account.refresh }), 401, 'invalid refresh token')
    })

    it('a desired completion date in the past of the clock is refused', async () => {
      const requester = await t.register()
      const soon = new Date(clock.now().getTime() + 600_000).toISOString()
      assertStatus(await t.post('/requests', requestInput({ desired_completion_date: soon }), requester.token), 201)
      // Eleven minutes on: past the date, within the access token's fifteen.
      clock.advance(660_000)
      assertError(await t.post('/requests', requestInput({ desired_completion_date: soon }), requester.token), 400, 'desired_completion_date must be in the future')
    })

    it('the next alert round is due only once the clock has moved past its interval', async () => {
      const place = newPlace()
      await volunteerAt(t, place, 100)
      const requester = await t.register()
      const rounds = new RoundDriver(t, TEST_ALERTS, undefined, clock)
      await approvedAt(t, place, requester, moderator)
      assert.equal(await rounds.run(), 1, 'round 1 is due at approval')
      assert.equal(await rounds.after(TEST_ALERTS.roundSeconds.medium - 1), 0, 'round 2 is not due yet')
      assert.equal(await rounds.after(1), 1, 'round 2 is due after the interval')
    })

    it('retention minimises a finished request once the clock has passed RETENTION_DAYS since it finished', async () => {
      const requester = await t.register()
      await t.db.query(/* sql */ `
        INSERT INTO requests (requester_id, request_type_id, title, description, latitude, longitude, address, urgency, status, finished_at)
        VALUES ($1, 1, 'Clock retention', 'Personal description', 10, 20, 'Street 1', 'low', 'completed', $2)`, [requester.id, clock.now()])
      const log = { info: () => {}, error: () => {} }
      const job = new RetentionJob(t.db, { retentionDays: RETENTION_DAYS, mapGridMeters: 300 }, log, clock)
      const minimised = async (): Promise<boolean> =>
        (await t.db.query<{ minimised_at: Date | null }>("SELECT minimised_at FROM requests WHERE title = 'Clock retention'"))[0]?.minimised_at != null
      clock.advance(RETENTION_DAYS * DAY_MS - 1000)
      await job.runOnce()
      assert.equal(await minimised(), false, 'not yet')
      clock.advance(2000)
      await job.runOnce()
      assert.equal(await minimised(), true, 'minimised once the clock passed the retention days')
    })
  })
}
