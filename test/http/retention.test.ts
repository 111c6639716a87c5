import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'
import { after, before, describe, it } from 'node:test'
import type { Database } from '../../src/db/database.js'
import { gridPoint } from '../../src/lib/grid.js'
import { JobRunner } from '../../src/jobs/runner.js'
import { RetentionJob, retentionJob, type JobLog } from '../../src/data-protection/privacy/retention.js'
import { startApp, TEST_SECRET, type Account, type TestApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'
import { assignedRequest, REQUEST_INPUT } from '../helpers/lifecycle.js'
import { createRequest } from '../helpers/requests.js'

/** docs/privacy.md › `RETENTION_DAYS`: finished requests lose their personal data after RETENTION_DAYS. */

const DAYS = 30

function collectingLog (): JobLog & { lines: string[] } {
  const lines: string[] = []
  return { lines, info: (_fields, message) => lines.push(message), error: (_fields, message) => lines.push(message) }
}

/** `count` completed requests of `requesterId`, finished `daysAgo` days ago, in one statement. */
async function insertFinished (db: Database, requesterId: number, count: number, daysAgo: number): Promise<void> {
  await db.query(/* sql */ `
    INSERT INTO requests (requester_id, request_type_id, title, description, latitude, longitude, address, urgency, status,
      contact_phone, contact_notes, finished_at)
    SELECT $1, 1, 'Finished request ' || n, 'Personal description ' || n, 10 + n * 0.0001, 20 + n * 0.0001, 'Street ' || n, 'low',
      'completed', '+4930' || n, 'Notes ' || n, now() - make_interval(days => $3)
    FROM generate_series(1, $2) AS n`, [requesterId, count, daysAgo])
}

/** Every finished request is either wholly minimised or wholly untouched: nothing half-done. */
async function assertWhole (db: Database): Promise<{ minimised: number, untouched: number }> {
  const rows = await db.query<any>('SELECT * FROM requests WHERE title LIKE \'Finished request %\'')
  let minimised = 0
  let untouched = 0
  for (const row of rows) {
    if (row.minimised_at !== null) {
      minimised += 1
      assert.deepEqual([row.description, row.address, row.contact_phone, row.contact_notes], ['(removed)', '(removed)', '(removed)', '(removed)'])
      const grid = gridPoint(row.latitude, row.longitude, 300)
      assert.deepEqual({ latitude: row.latitude, longitude: row.longitude }, grid, 'the exact point became its grid point')
    } else {
      untouched += 1
      assert.match(row.description, /^Personal description \d+$/)
      assert.match(row.address, /^Street \d+$/)
    }
  }
  return { minimised, untouched }
}

for (const engine of engines()) {
  describe(`RETENTION_DAYS: the retention job (${engine})`, () => {
    let t: TestApp
    let moderator: Account
    before(async () => {
      // No alert rounds in the background: a round's lock on a request row makes retention skip it (SKIP LOCKED) until its next run.
      t = await startApp(engine, { retentionDays: DAYS }, { alertTickMs: 0 })
      moderator = await t.registerWithRole('moderator')
    })
    after(() => t.close())

    const ageFinished = (id: number, days: number) => t.db.query('UPDATE requests SET finished_at = now() - make_interval(days => $2) WHERE id = $1', [id, days])

    it('minimises requests finished longer ago than RETENTION_DAYS, once, keeping title, status, dates, responses and ratings', async () => {
      const requester = await t.register()
      const volunteer = await t.register()
      const old = await assignedRequest(t, requester, moderator, volunteer)
      assert.equal((await t.post(`/requests/${old.requestId}/complete`, { rating: 4 }, requester.token)).status, 200)
      const recent = await assignedRequest(t, requester, moderator, volunteer)
      assert.equal((await t.post(`/requests/${recent.requestId}/complete`, { rating: 5 }, requester.token)).status, 200)
      const cancelled = await createRequest(t, requester.token, { contact_phone: '+4930123', contact_notes: 'Knock' })
      assert.equal((await t.post(`/requests/${cancelled.id}/cancel`, undefined, requester.token)).status, 200)
      const rejected = await createRequest(t, requester.token)
      assert.equal((await t.post(`/moderation/requests/${rejected.id}/reject`, { comment: 'unclear' }, moderator.token)).status, 200)
      const active = await createRequest(t, requester.token)
      await ageFinished(old.requestId, DAYS + 1)
      await ageFinished(recent.requestId, DAYS - 1)
      await ageFinished(cancelled.id, DAYS + 10)
      await ageFinished(rejected.id, DAYS + 1)
      await t.db.query('UPDATE requests SET created_at = now() - make_interval(days => 400), updated_at = now() - make_interval(days => 400) WHERE id = $1', [active.id])
      const before = (await t.get(`/requests/${old.requestId}`, requester.token)).body
      const ratingBefore = (await t.get(`/users/${volunteer.id}`, volunteer.token)).body.volunteer_rating

      const log = collectingLog()
      const job = new RetentionJob(t.db, { retentionDays: DAYS, mapGridMeters: 300 }, log)
      assert.equal(await job.runOnce(), 3)
      assert.deepEqual(log.lines, ['retention: minimised 3 finished requests'])

      const grid = gridPoint(REQUEST_INPUT.latitude, REQUEST_INPUT.longitude, 300)
      for (const id of [old.requestId, cancelled.id, rejected.id]) {
        const detail = (await t.get(`/requests/${id}`, requester.token)).body
        assert.equal(detail.description, '(removed)')
        assert.equal(detail.address, '(removed)')
        // The requester now sees the grid point as the request's point: the exact one is gone.
        assert.deepEqual(detail.location, { ...grid, precision_meters: 0 })
      }
      const cancelledNow = (await t.get(`/requests/${cancelled.id}`, requester.token)).body
      assert.deepEqual([cancelledNow.contact_phone, cancelledNow.contact_notes], ['(removed)', '(removed)'])
      const oldNow = (await t.get(`/requests/${old.requestId}`, requester.token)).body
      assert.deepEqual([oldNow.title, oldNow.status, oldNow.created_at, oldNow.assigned_volunteer_id], [before.title, 'completed', before.created_at, volunteer.id])
      assert.deepEqual((await t.get(`/requests/${old.requestId}/responses`, requester.token)).body.map((r: any) => r.status), ['accepted'])
      assert.equal((await t.get(`/users/${volunteer.id}`, volunteer.token)).body.volunteer_rating, ratingBefore)
      // Finished too recently, or not finished at all however old: untouched.
      assert.equal((await t.get(`/requests/${recent.requestId}`, requester.token)).body.address, REQUEST_INPUT.address)
      assert.equal((await t.get(`/requests/${active.id}`, requester.token)).body.address, active.address)

      // Idempotent: a second run finds nothing.
      assert.equal(await job.runOnce(), 0)
      assert.deepEqual(log.lines.at(-1), 'retention: minimised 0 finished requests')
    })

    it('the job runner runs it at once (the app starts it when ready), then hourly, and logs how many it minimised', async () => {
      const requester = await t.register()
      await insertFinished(t.db, requester.id, 3, DAYS + 5)
      const log = collectingLog()
      const runner = new JobRunner([retentionJob(new RetentionJob(t.db, { retentionDays: DAYS, mapGridMeters: 300 }, log), 3_600_000)], log)
      runner.start()
      await runner.stop()
      assert.deepEqual(log.lines, ['retention: minimised 3 finished requests'])
      assert.equal((await assertWhole(t.db)).untouched, 0)
    })

    it('deletes notifications older than NOTIFICATION_RETENTION_DAYS, read or not, and keeps younger ones and the requests', async () => {
      const requester = await t.register()
      const request = await createRequest(t, requester.token)
      for (const comment of ['old', 'older', 'young']) {
        assert.equal((await t.post(`/moderation/requests/${request.id}/reject`, { comment }, moderator.token)).status, 200)
        await t.db.query("UPDATE requests SET status = 'pending_moderation' WHERE id = $1", [request.id])
      }
      const inbox = async () => (await t.get('/notifications', requester.token)).body.map((n: any) => n.data.comment)
      assert.deepEqual(await inbox(), ['young', 'older', 'old'])
      const age = (comment: string, days: number) =>
        t.db.query("UPDATE notifications SET created_at = now() - make_interval(days => $2) WHERE user_id = $1 AND data->>'comment' = $3", [requester.id, days, comment])
      await age('old', 91)
      await age('older', 400)
      await age('young', 89)
      // The oldest is read, the next one is not.
      const [oldest] = (await t.get('/notifications', requester.token)).body.slice(-1)
      assert.deepEqual((await t.post('/notifications/read', { up_to_id: oldest.id }, requester.token)).body, { updated: 1 })

      const log = collectingLog()
      // Requests kept as they are (RETENTION_DAYS 0): only notifications go.
      assert.equal(await new RetentionJob(t.db, { retentionDays: 0, notificationRetentionDays: 90, mapGridMeters: 300 }, log).runOnce(), 0)
      assert.deepEqual(log.lines, ['retention: deleted 2 old notifications', 'retention: deleted 0 old texts of the inbox'])
      assert.deepEqual(await inbox(), ['young'])
      assert.equal((await t.get(`/requests/${request.id}`, requester.token)).status, 200)
    })
  })
}

if (engines().includes('postgres')) {
  describe('RETENTION_DAYS on several instances of one PostgreSQL database', () => {
    let t: TestApp
    before(async () => { t = await startApp('postgres', { retentionDays: DAYS }) })
    after(() => t.close())

    it('two instances running the job at the same moment minimise each request once', async () => {
      const requester = await t.register()
      const N = 1000
      await insertFinished(t.db, requester.id, N, DAYS + 1)
      const first = await t.scratch.open()
      const second = await t.scratch.open()
      try {
        const jobs = [first, second].map((db) => new RetentionJob(db, { retentionDays: DAYS, mapGridMeters: 300, batchSize: 10 }, collectingLog()))
        const counts = await Promise.all(jobs.map((job) => job.runOnce()))
        assert.equal(counts[0]! + counts[1]!, N, `counts ${counts.join(' + ')}`)
      } finally {
        await first.close()
        await second.close()
      }
      assert.deepEqual(await assertWhole(t.db), { minimised: N, untouched: 0 })
    })

    it('a run killed with SIGKILL in the middle loses nothing, and the next run finishes the work', async () => {
      await t.db.query('DELETE FROM requests WHERE title LIKE \'Finished request %\'')
      const requester = await t.register()
      const N = 3000
      await insertFinished(t.db, requester.id, N, DAYS + 1)
      const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/retention.ts', '--batch', '3'], {
        env: { ...process.env, DATABASE_URL: t.scratch.url!, JWT_SECRET: TEST_SECRET, RETENTION_DAYS: String(DAYS), LOG_LEVEL: 'silent' },
        stdio: 'ignore',
      })
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)))
      // Killed as soon as some batches are committed.
      let done = 0
      for (let i = 0; i < 12000 && done === 0; i++) {
        await sleep(10)
        done = Number((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM requests WHERE minimised_at IS NOT NULL'))[0]!.n)
      }
      child.kill('SIGKILL')
      assert.equal(await exited, 'SIGKILL')
      const atKill = await assertWhole(t.db)
      assert.ok(atKill.minimised > 0 && atKill.untouched > 0, `killed mid-run: ${JSON.stringify(atKill)}`)
      const log = collectingLog()
      const next = await new RetentionJob(t.db, { retentionDays: DAYS, mapGridMeters: 300 }, log).runOnce()
      assert.equal(next, atKill.untouched)
      assert.deepEqual(await assertWhole(t.db), { minimised: N, untouched: 0 })
    })
  })
}
