import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { calendarOf } from '../../src/lib/checks.js'
import { CheckExpiryNotifier, checkExpiryJob } from '../../src/accounts/checks/check-expiry.js'
import { changesOn } from '../../src/areas.js'
import { startApp, startSecondInstance, type Account, type TestApp } from '../helpers/app.js'
import { assertStatus } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { engines } from '../helpers/engines.js'

/**
 * docs/api/accounts.md › Checks that vet volunteers: 30 days before a valid check's last day, its user and every admin get `check_expiring`
 * (docs/api/messaging.md › Notifications: request_id null; data user_id, kind, valid_until), once per check, across instances.
 */

// 23:30 in Berlin on 15 January 2027 (UTC+1); the day there ends at 23:00 UTC.
const START = new Date('2027-01-15T22:30:00Z')
const MINUTE_MS = 60_000
const DAY_MS = 86_400_000
const TIME_ZONE = 'Europe/Berlin'

interface Notice { type: string, request_id: number | null, data: Record<string, unknown> }

for (const engine of engines()) {
  describe(`check_expiring: once per check, 30 days ahead, in TIME_ZONE (${engine})`, () => {
    const clock = new ManualClock(START)
    let t: TestApp
    let moderator: Account
    let secondAdmin: Account
    let notifier: CheckExpiryNotifier
    before(async () => {
      t = await startApp(engine, { timeZone: TIME_ZONE }, { alertTickMs: 0, clock })
      moderator = await t.registerWithRole('moderator')
      secondAdmin = await t.registerWithRole('admin')
      notifier = new CheckExpiryNotifier(changesOn(t.db, clock), calendarOf(clock, TIME_ZONE))
    })
    after(() => t.close())

    /** The account's check_expiring notifications about `userId`, through the API with a token fresh at the clock's time. */
    async function expiryNotices (account: Account, userId: number): Promise<Notice[]> {
      const login = await t.post('/auth/login', { email: account.email, password: account.password })
      assertStatus(login, 200)
      const res = await t.get<Notice[]>('/notifications?limit=100', login.body.access_token)
      assertStatus(res, 200)
      return res.body.filter((notice) => notice.type === 'check_expiring' && notice.data.user_id === userId)
    }

    async function record (account: Account, body: Record<string, unknown>): Promise<number> {
      const login = await t.post('/auth/login', { email: moderator.email, password: moderator.password })
      const res = await t.post(`/admin/users/${account.id}/checks`, body, login.body.access_token)
      assertStatus(res, 201)
      return res.body.id
    }

    it('tells the user and every admin once, from the day 30 days before valid_until in TIME_ZONE; never the moderators', async () => {
      clock.set(START)
      const volunteer = await t.register()
      await record(volunteer, { kind: 'background', valid_until: '2027-02-20', note: 'certificate 42' })
      await record(volunteer, { kind: 'identity' }) // never expires: never notified
      await notifier.runOnce()
      assert.deepEqual(await expiryNotices(volunteer, volunteer.id), [], '36 days ahead: not yet')
      // 23:59 on 20 January in Berlin: 31 days ahead.
      clock.advance(5 * DAY_MS + 29 * MINUTE_MS)
      await notifier.runOnce()
      assert.deepEqual(await expiryNotices(volunteer, volunteer.id), [])
      // Midnight in Berlin (23:00 UTC, still the 20th there): 30 days ahead.
      clock.advance(MINUTE_MS)
      await notifier.runOnce()
      const expected = [{ type: 'check_expiring', request_id: null, data: { user_id: volunteer.id, kind: 'background', valid_until: '2027-02-20' } }]
      const pick = (notices: Notice[]) => notices.map(({ type, request_id: requestId, data }) => ({ type, request_id: requestId, data }))
      for (const account of [volunteer, t.admin, secondAdmin]) assert.deepEqual(pick(await expiryNotices(account, volunteer.id)), expected)
      assert.deepEqual(await expiryNotices(moderator, volunteer.id), [])
      // Later runs, days on, send nothing more about it.
      for (let day = 0; day < 3; day++) {
        clock.advance(7 * DAY_MS)
        await notifier.runOnce()
      }
      for (const account of [volunteer, t.admin]) assert.equal((await expiryNotices(account, volunteer.id)).length, 1)
    })

    it('a check recorded less than 30 days ahead is told at the next run; a revoked one never', async () => {
      clock.set(START)
      const volunteer = await t.register()
      await record(volunteer, { kind: 'training', valid_until: '2027-01-20' })
      const revoked = await t.register()
      const revokedId = await record(revoked, { kind: 'reference', valid_until: '2027-01-20' })
      const login = await t.post('/auth/login', { email: moderator.email, password: moderator.password })
      assertStatus(await t.post(`/admin/users/${revoked.id}/checks/${revokedId}/revoke`, undefined, login.body.access_token), 200)
      // The job as the runner runs it.
      await checkExpiryJob(notifier, 3_600_000).run(() => false)
      assert.equal((await expiryNotices(volunteer, volunteer.id)).length, 1)
      assert.deepEqual(await expiryNotices(t.admin, revoked.id), [])
      assert.deepEqual(await expiryNotices(revoked, revoked.id), [])
    })

    it(engine === 'postgres' ? 'two instances running the job at once notify each check once' : 'two runs at once notify each check once', async () => {
      clock.set(START)
      const volunteers = await Promise.all(Array.from({ length: 6 }, async () => await t.register()))
      for (const volunteer of volunteers) await record(volunteer, { kind: 'identity', valid_until: '2027-02-01' })
      const second = engine === 'postgres' ? await startSecondInstance(t, { timeZone: TIME_ZONE }, { alertTickMs: 0, clock }) : t
      try {
        // Batches of two, so the runs interleave.
        const runners = [new CheckExpiryNotifier(changesOn(t.db, clock), calendarOf(clock, TIME_ZONE), 2), new CheckExpiryNotifier(changesOn(second.db, clock), calendarOf(clock, TIME_ZONE), 2)]
        const drain = async (runner: CheckExpiryNotifier): Promise<number> => {
          let total = 0
          for (let sent = await runner.runOnce(); sent > 0; sent = await runner.runOnce()) total += sent
          return total
        }
        const counts = await Promise.all(runners.map(drain))
        assert.equal(counts[0]! + counts[1]!, volunteers.length, `each check notified once in all: ${counts.join(' + ')}`)
      } finally {
        if (second !== t) await second.close()
      }
      for (const volunteer of volunteers) {
        assert.equal((await expiryNotices(volunteer, volunteer.id)).length, 1)
        assert.equal((await expiryNotices(t.admin, volunteer.id)).length, 1)
      }
    })
  })
}
