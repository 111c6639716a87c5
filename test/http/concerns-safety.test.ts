import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { RetentionJob } from '../../src/data-protection/privacy/retention.js'
import { startApp, startSecondInstance, type Account, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus, sleep } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { engines } from '../helpers/engines.js'
import { approvedRequest, assignedRequest, respond } from '../helpers/lifecycle.js'
import { SseClient } from '../helpers/sse.js'

/**
 * docs/api/help.md › Concerns, what protects people: the `blocked` outcome ends the subject's sessions and streams within
 * 5 s, the reporter stays hidden from the subject, the daily limit (by the clock, in the database), and
 * concerns in the export, after erasure and past RETENTION_DAYS.
 */

const TEXT = 'She seemed frightened of the volunteer.'
const HOUR = 60 * 60 * 1000
const silentLog = { info () {}, error () {} }

for (const engine of engines()) {
  describe(`concerns: blocking, limits and privacy (${engine})`, () => {
    let t: TestApp
    let base: string
    const clock = new ManualClock()
    let moderator: Account
    const streams: SseClient[] = []

    before(async () => {
      // The stream hub's default block check (2 s): the 5 s guarantee is tested as it ships.
      t = await startApp(engine, {}, { clock })
      base = await t.listen()
      moderator = await t.registerWithRole('moderator')
    })
    after(async () => {
      for (const client of streams) client.close()
      await t.close()
    })

    const raise = async (reporter: Account, body: Record<string, unknown>) => t.post('/concerns', { text: TEXT, ...body }, reporter.token)
    const within = async <T>(ms: number, promise: Promise<T>, what: string): Promise<T> => {
      let timer: NodeJS.Timeout | undefined
      const late = new Promise<never>((_resolve, reject) => { timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms) })
      try { return await Promise.race([promise, late]) } finally { clearTimeout(timer) }
    }

    it('blocked: the subject is blocked in the same change as the admin block: tokens stop, refresh and login refused, streams end within 5 s', async () => {
      const reporter = await t.register()
      const subject = await t.register()
      const other = engine === 'postgres' ? await startSecondInstance(t) : undefined
      try {
        if (other !== undefined) assertStatus(await other.get('/auth/me', subject.token), 200)
        const stream = await SseClient.open(base, subject.token)
        streams.push(stream)
        assert.equal(stream.status, 200)
        const concern = (await raise(reporter, { subject_user_id: subject.id, urgent: true })).body.id
        const resolved = await t.post(`/moderation/concerns/${concern}/resolve`, { outcome: 'blocked', note: 'Several reports' }, moderator.token)
        const blockedAt = Date.now()
        assertStatus(resolved, 200)
        assert.equal(resolved.body.outcome, 'blocked')
        assert.equal((await t.get(`/users/${subject.id}`, t.admin.token)).body.is_blocked, true)
        assertError(await t.get('/auth/me', subject.token), 401, 'unauthorized')
        assertError(await t.post('/auth/refresh', { refresh_token: subject.refresh }), 401, 'account is blocked')
        assertError(await t.post('/auth/login', { email: subject.email, password: subject.password }), 401, 'account is blocked')
        await within(5000 - (Date.now() - blockedAt), stream.ended, 'the blocked subject\'s stream to end')
        // Another instance, told nothing, stops the token once its principal cache expires (AUTH_CACHE_TTL_MS, at most 5 s).
        if (other !== undefined) {
          for (let status = 200; status === 200; status = (await other.get('/auth/me', subject.token)).status) {
            assert.ok(Date.now() - blockedAt < 5000, 'the other instance refuses the token within 5 s')
            await sleep(100)
          }
        }
        // The refresh tokens were revoked as the admin block revokes them.
        const [row] = await t.db.query<{ reasons: string[] }>('SELECT array_agg(DISTINCT revoked_reason) AS reasons FROM refresh_tokens WHERE user_id = $1', [subject.id])
        assert.deepEqual(row?.reasons, ['blocked'])
      } finally {
        await other?.app.close()
        await other?.db.close()
      }
    })

    it('a volunteer blocked by a concern\'s outcome (or by an admin) can no longer be accepted: his offer no longer stands', async () => {
      const requester = await t.register()
      const volunteer = await t.register()
      const requestId = await approvedRequest(t, requester, moderator)
      const responseId = await respond(t, requestId, volunteer)
      const concern = (await raise(requester, { subject_user_id: volunteer.id, request_id: requestId })).body.id
      assertStatus(await t.post(`/moderation/concerns/${concern}/resolve`, { outcome: 'blocked', note: 'Reports from two requesters' }, moderator.token), 200)
      assertError(await t.post(`/requests/${requestId}/responses/${responseId}/accept`, {}, requester.token), 404, 'response not found')
      const detail = await t.get(`/requests/${requestId}`, requester.token)
      assert.equal(detail.body.status, 'approved')
      assert.equal(detail.body.assigned_volunteer_id ?? null, null)
      // Unblocked, the offer stands again: the refusal is the block, nothing else.
      assertStatus(await t.post(`/admin/users/${volunteer.id}/unblock`, {}, t.admin.token), 200)
      assertStatus(await t.post(`/requests/${requestId}/responses/${responseId}/accept`, {}, requester.token), 200)
    })

    it('the subject never learns of the concern nor who raised it: not in their inbox, list or export, before or after the outcome', async () => {
      const reporter = await t.register({ first_name: 'Rita', last_name: 'Reporter' })
      const subject = await t.register()
      const { requestId } = await assignedRequest(t, reporter, moderator, subject)
      const concern = (await raise(reporter, { subject_user_id: subject.id, request_id: requestId })).body.id
      assertStatus(await t.post(`/moderation/concerns/${concern}/resolve`, { outcome: 'warned', note: 'Called him' }, moderator.token), 200)
      const seen = JSON.stringify(await Promise.all(['/notifications?limit=100', '/concerns/mine', '/users/me/export'].map(async (path) => (await t.get(path, subject.token)).body)))
      assert.ok(!seen.includes('"concern_') && !seen.includes(TEXT) && !seen.includes('Called him'), 'no concern_* notification, no text, no note')
      assert.deepEqual((await t.get('/concerns/mine', subject.token)).body, [])
      assert.deepEqual((await t.get('/users/me/export', subject.token)).body.concerns, [])
      assertError(await t.get('/moderation/concerns', subject.token), 403, 'moderator role required')
    })

    it('GET /users/me/export holds the caller\'s own concerns as reporter, without the note, never those about them', async () => {
      const reporter = await t.register()
      const subject = await t.register()
      const mine = (await raise(reporter, { subject_user_id: subject.id })).body.id
      const aboutMe = (await raise(subject, { subject_user_id: reporter.id })).body.id
      assertStatus(await t.post(`/moderation/concerns/${mine}/resolve`, { outcome: 'referred', note: 'To the charity' }, moderator.token), 200)
      const exported = (await t.get('/users/me/export', reporter.token)).body
      assert.deepEqual(exported.concerns, (await t.get('/concerns/mine', reporter.token)).body)
      assert.deepEqual(exported.concerns.map((c: { id: number, outcome: string }) => [c.id, c.outcome]), [[mine, 'referred']])
      assert.ok(!JSON.stringify(exported).includes('To the charity'))
      assert.ok(!exported.concerns.some((c: { id: number }) => c.id === aboutMe))
    })

    it('concerns outlive the erasure of the reporter and of the subject, shown as "Former user"; the erased reporter is told nothing', async () => {
      const reporter = await t.register({ first_name: 'Rosa', last_name: 'Reporter' })
      const subject = await t.register({ first_name: 'Sam', last_name: 'Subject' })
      const concern = (await raise(reporter, { subject_user_id: subject.id })).body.id
      const listed = async () => (await t.get('/moderation/concerns?limit=100', moderator.token)).body.find((c: { id: number }) => c.id === concern)
      assert.deepEqual([(await listed()).reporter_name, (await listed()).subject_name], ['Rosa Reporter', 'Sam Subject'])
      for (const account of [reporter, subject]) assertStatus(await t.request('DELETE', '/users/me', { token: account.token, body: { password: account.password } }), 200)
      const after = await listed()
      assert.deepEqual([after.reporter_name, after.subject_name, after.text, after.reporter_id, after.subject_user_id], ['Former user', 'Former user', TEXT, reporter.id, subject.id])
      assertStatus(await t.post(`/moderation/concerns/${concern}/resolve`, { outcome: 'no_action', note: 'Both accounts gone' }, moderator.token), 200)
      assert.deepEqual(await t.db.query('SELECT id FROM notifications WHERE user_id = $1', [reporter.id]), [])
    })

    it('RETENTION_DAYS leaves concerns alone: a concern about a minimised request keeps its text and the request\'s title', async () => {
      const reporter = await t.register()
      const requestId = await approvedRequest(t, await t.register(), moderator)
      const concern = (await raise(reporter, { request_id: requestId })).body.id
      assertStatus(await t.post(`/requests/${requestId}/cancel`, undefined, moderator.token), 200)
      await t.db.query('UPDATE requests SET finished_at = now() - make_interval(days => 400) WHERE id = $1', [requestId])
      await t.db.query('UPDATE concerns SET created_at = now() - make_interval(days => 400) WHERE id = $1', [concern])
      const minimised = await new RetentionJob(t.db, { retentionDays: 30, mapGridMeters: 300 }, silentLog).runOnce()
      assert.ok(minimised >= 1, `minimised ${minimised}`)
      assert.equal((await t.get(`/requests/${requestId}`, moderator.token)).body.description, '(removed)')
      const kept = (await t.get('/moderation/concerns?limit=100', moderator.token)).body.find((c: { id: number }) => c.id === concern)
      assert.deepEqual([kept.text, kept.request_id, kept.request_title, kept.status], [TEXT, requestId, 'Groceries for the week', 'open'])
    })
  })

  describe(`concerns: the daily limit (${engine})`, () => {
    let t: TestApp
    const clock = new ManualClock()
    before(async () => { t = await startApp(engine, {}, { clock }) })
    after(() => t.close())

    /** Moves the clock on; access tokens follow it, so the account signs in again. */
    async function later (ms: number, account: Account): Promise<void> {
      clock.advance(ms)
      const login = await t.post('/auth/login', { email: account.email, password: account.password })
      assertStatus(login, 200)
      account.token = login.body.access_token
    }

    it('at most 10 concerns per reporter in any 24 hours, by the clock: 429 too many requests with Retry-After; a refusal is not counted', async () => {
      const reporter = await t.register()
      const raise = (account: Account, body: Record<string, unknown>) => t.post('/concerns', { text: TEXT, ...body }, account.token)
      const subject = (await t.register()).id
      for (let i = 0; i < 5; i++) assertStatus(await raise(reporter, { subject_user_id: subject }), 201)
      await later(12 * HOUR, reporter)
      for (let i = 0; i < 5; i++) assertStatus(await raise(reporter, { subject_user_id: subject }), 201)
      const refused = await raise(reporter, { subject_user_id: subject })
      assertError(refused, 429, 'too many requests')
      // The first five turn 24 hours old in 12 hours.
      assert.equal(refused.headers['retry-after'], String(12 * 60 * 60))
      assertError(await raise(reporter, { request_id: 999_999_999 }), 404, 'request not found')
      // Others are not limited by this reporter's concerns.
      assertStatus(await raise(await t.register(), { subject_user_id: subject }), 201)
      await later(12 * HOUR - 1000, reporter)
      assertError(await raise(reporter, { subject_user_id: subject }), 429, 'too many requests')
      await later(1000, reporter)
      // Rolling: the first five are now out of the window, the later five still in it.
      for (let i = 0; i < 5; i++) assertStatus(await raise(reporter, { subject_user_id: subject }), 201)
      assertError(await raise(reporter, { subject_user_id: subject }), 429, 'too many requests')
      assert.equal((await t.get('/concerns/mine', reporter.token)).body.length, 15)
    })
  })
}
