import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { engines } from '../helpers/engines.js'
import { approvedRequest, assignedRequest, REQUEST_INPUT } from '../helpers/lifecycle.js'

/** docs/api/help.md › Concerns: raising a concern, the reporter's list, the moderators' queue and its rules of visibility. */

const TEXT = 'He asked me for my bank card number.'
const OWN_FIELDS = ['created_at', 'id', 'kind', 'outcome', 'reporter_id', 'request_id', 'resolved_at', 'resolved_by', 'status', 'subject_user_id', 'text', 'urgent']
const QUEUE_FIELDS = [...OWN_FIELDS, 'outcome_note', 'reporter_name', 'request_title', 'subject_name'].sort()

for (const engine of engines()) {
  describe(`concerns (${engine})`, () => {
    let t: TestApp
    const clock = new ManualClock()
    let moderator: Account
    let otherModerator: Account

    before(async () => {
      t = await startApp(engine, {}, { clock })
      moderator = await t.registerWithRole('moderator')
      otherModerator = await t.registerWithRole('moderator')
    })
    after(() => t.close())

    /** Raises a concern as `reporter`; returns its id. Each a second after the last, so "oldest" is unambiguous. */
    async function raise (reporter: Account, body: Record<string, unknown>): Promise<number> {
      clock.advance(1000)
      const res = await t.post('/concerns', { text: TEXT, ...body }, reporter.token)
      assertStatus(res, 201)
      return res.body.id
    }
    const queue = async (account: Account, query = 'limit=100') => {
      const res = await t.get(`/moderation/concerns?${query}`, account.token)
      assertStatus(res, 200)
      return res.body as Array<{ id: number, [field: string]: any }>
    }
    const ids = (items: Array<{ id: number }>) => items.map((item) => item.id)
    const noticesOf = async (account: Account, type: string) =>
      ((await t.get('/notifications?limit=100', account.token)).body as Array<{ type: string, request_id: number | null, data: any }>).filter((n) => n.type === type)

    it('POST /concerns refuses what the spec refuses, with its texts', async () => {
      const reporter = await t.register()
      const subject = await t.register()
      assertError(await t.post('/concerns', { subject_user_id: subject.id, text: TEXT }), 401, 'unauthorized')
      assertError(await t.post('/concerns', { text: TEXT }, reporter.token), 400, 'subject_user_id or request_id is required')
      assertError(await t.post('/concerns', { subject_user_id: null, request_id: null, text: TEXT }, reporter.token), 400, 'subject_user_id or request_id is required')
      for (const text of ['too short', ' '.repeat(9) + 'x'.repeat(9) + ' '.repeat(9), 'x'.repeat(2001), undefined]) {
        assertError(await t.post('/concerns', { subject_user_id: subject.id, text }, reporter.token), 400, 'text must be 10 to 2000 characters')
      }
      assertError(await t.post('/concerns', { subject_user_id: 999_999_999, text: TEXT }, reporter.token), 404, 'user not found')
      assertError(await t.post('/concerns', { request_id: 999_999_999, text: TEXT }, reporter.token), 404, 'request not found')
      // A rejected request is its parties' only (docs/api/help.md › Reading one request): to anyone else it does not exist.
      const requester = await t.register()
      const created = await t.post('/requests', REQUEST_INPUT, requester.token)
      assertStatus(await t.post(`/moderation/requests/${created.body.id}/reject`, { comment: 'Not for volunteers' }, moderator.token), 200)
      assertError(await t.post('/concerns', { request_id: created.body.id, text: TEXT }, reporter.token), 404, 'request not found')
      assertStatus(await t.post('/concerns', { request_id: created.body.id, text: TEXT }, requester.token), 201)
      // JSON is typed exactly: an id as text is a 400 like any other bad field.
      assert.equal((await t.post('/concerns', { subject_user_id: String(subject.id), text: TEXT }, reporter.token)).status, 400)
      assert.equal((await t.post('/concerns', { subject_user_id: subject.id, text: TEXT, urgent: 'yes' }, reporter.token)).status, 400)
    })

    it('201 with the concern as its reporter sees it: open, not urgent by default, the text trimmed, no outcome_note', async () => {
      const reporter = await t.register()
      const subject = await t.register()
      const res = await t.post('/concerns', { subject_user_id: subject.id, text: `  ${TEXT}\n` }, reporter.token)
      assertStatus(res, 201)
      assert.deepEqual(Object.keys(res.body).sort(), OWN_FIELDS)
      const expected = { reporter_id: reporter.id, kind: 'report', subject_user_id: subject.id, request_id: null, text: TEXT, urgent: false, status: 'open', outcome: null, resolved_at: null, resolved_by: null }
      assert.deepEqual({ ...res.body, id: 0, created_at: '' }, { ...expected, id: 0, created_at: '' })
      assert.equal(res.body.created_at, clock.now().toISOString())
    })

    it('GET /concerns/mine: the caller\'s own, newest first, never one about them, never the note', async () => {
      const reporter = await t.register()
      const subject = await t.register()
      const requestId = await approvedRequest(t, await t.register(), moderator)
      const first = await raise(reporter, { subject_user_id: subject.id })
      const second = await raise(reporter, { request_id: requestId, urgent: true })
      await raise(subject, { subject_user_id: reporter.id })
      assertStatus(await t.post(`/moderation/concerns/${first}/resolve`, { outcome: 'warned', note: 'Spoke to him on the phone' }, moderator.token), 200)
      const mine = await t.get('/concerns/mine', reporter.token)
      assertStatus(mine, 200)
      assert.deepEqual(ids(mine.body), [second, first])
      assert.ok(mine.body.every((item: object) => Object.keys(item).sort().join() === OWN_FIELDS.join()))
      assert.equal(mine.body[1].outcome, 'warned')
      // The subject sees only the one they raised themselves, not the one about them.
      assert.deepEqual(ids((await t.get('/concerns/mine', subject.token)).body).length, 1)
      assertError(await t.get('/concerns/mine'), 401, 'unauthorized')
    })

    it('the queue: moderators and admins only; urgent first, then oldest first; status, limit and offset fall back to defaults', async () => {
      const reporter = await t.register()
      const made: number[] = []
      for (const urgent of [false, true, false, true]) made.push(await raise(reporter, { subject_user_id: (await t.register()).id, urgent }))
      const listed = ids(await queue(moderator)).filter((id) => made.includes(id))
      assert.deepEqual(listed, [made[1], made[3], made[0], made[2]])
      const all = await queue(moderator)
      const urgentFlags = all.map((item) => item.urgent)
      assert.deepEqual(urgentFlags, [...urgentFlags].sort((a, b) => Number(b) - Number(a)), 'every urgent one before every other')
      assert.ok(all.every((item) => item.status === 'open' && Object.keys(item).sort().join() === QUEUE_FIELDS.join()))
      const item = all.find((concern) => concern.id === made[0])!
      assert.equal(item.reporter_name, 'Test User')
      assert.equal(item.outcome_note, null)
      // Pages of the one order; bad values mean the defaults (status open, limit 20, offset 0), never a 400.
      assert.deepEqual(ids(await queue(moderator, 'limit=1&offset=1')), ids(all.slice(1, 2)))
      assert.deepEqual(ids(await queue(moderator, 'status=nonsense&limit=abc&offset=-4')), ids(all.slice(0, 20)))
      assert.deepEqual(ids(await queue(moderator, 'status=open&limit=100')), ids(all))
      assertStatus(await t.post(`/moderation/concerns/${made[2]}/resolve`, { outcome: 'referred', note: 'Passed to the police' }, moderator.token), 200)
      const resolved = await queue(moderator, 'status=resolved&limit=100')
      assert.ok(resolved.every((concern) => concern.status === 'resolved'))
      assert.equal(resolved.find((concern) => concern.id === made[2])?.outcome_note, 'Passed to the police')
      assert.ok(!ids(await queue(moderator)).includes(made[2]!))
      const volunteer = await t.register()
      assertError(await t.get('/moderation/concerns', volunteer.token), 403, 'moderator role required')
      assertError(await t.post(`/moderation/concerns/${made[0]}/resolve`, { outcome: 'no_action', note: 'x' }, volunteer.token), 403, 'moderator role required')
      assertError(await t.get('/moderation/concerns'), 401, 'unauthorized')
    })

    it('POST /moderation/concerns/{id}/resolve refuses what the spec refuses, with its texts', async () => {
      const reporter = await t.register()
      const aboutPerson = await raise(reporter, { subject_user_id: (await t.register()).id })
      const aboutRequest = await raise(reporter, { request_id: await approvedRequest(t, await t.register(), moderator) })
      const resolve = (id: number | string, body: unknown) => t.post(`/moderation/concerns/${id}/resolve`, body, moderator.token)
      for (const note of [undefined, '', '   \n', 42]) assertError(await resolve(aboutPerson, { outcome: 'warned', note }), 400, 'note is required')
      for (const outcome of [undefined, 'banned', 1]) assertError(await resolve(aboutPerson, { outcome, note: 'Looked into it' }), 400, 'invalid outcome')
      assertError(await resolve('abc', { outcome: 'warned', note: 'Looked into it' }), 400, 'invalid concern id')
      assertError(await resolve(999_999_999, { outcome: 'warned', note: 'Looked into it' }), 404, 'concern not found')
      assertError(await resolve(aboutRequest, { outcome: 'blocked', note: 'Block whom?' }), 400, 'blocked needs a subject user')
      const done = await resolve(aboutRequest, { outcome: 'no_action', note: '  All was well  ' })
      assertStatus(done, 200)
      assert.equal(done.body.status, 'resolved')
      assert.equal(done.body.outcome, 'no_action')
      assert.equal(done.body.outcome_note, 'All was well')
      assert.equal(done.body.resolved_by, moderator.id)
      assert.equal(done.body.resolved_at, clock.now().toISOString())
      assertError(await resolve(aboutRequest, { outcome: 'warned', note: 'Again' }), 400, 'concern is already resolved')
      // Two moderators at once: the concern row is locked first, so one resolves it and the other is told it is done.
      const raced = await Promise.all([moderator, otherModerator].map((account) =>
        t.post(`/moderation/concerns/${aboutPerson}/resolve`, { outcome: 'warned', note: 'Spoke to them' }, account.token)))
      assert.deepEqual(raced.map((res) => res.status).sort(), [200, 400])
      assert.ok(raced.some((res) => res.body.error === 'concern is already resolved'))
      assertError(await t.post(`/moderation/concerns/${aboutRequest}/resolve`, { outcome: 'warned', note: 'Again' }, otherModerator.token), 400, 'concern is already resolved')
    })

    it('a concern about a moderator or admin is for admins only; nobody sees one about themselves', async () => {
      const reporter = await t.register()
      const secondAdmin = await t.registerWithRole('admin')
      const aboutModerator = await raise(reporter, { subject_user_id: moderator.id, urgent: true })
      const aboutAdmin = await raise(reporter, { subject_user_id: secondAdmin.id })
      // A request's requester and assigned volunteer are among the people a concern about it is about.
      const { requestId } = await assignedRequest(t, await t.register(), moderator, otherModerator)
      const aboutRequest = await raise(reporter, { request_id: requestId })
      const seen = async (account: Account) => ids(await queue(account)).filter((id) => [aboutModerator, aboutAdmin, aboutRequest].includes(id))
      assert.deepEqual(await seen(moderator), [])
      assert.deepEqual(await seen(otherModerator), [])
      assert.deepEqual(await seen(t.admin), [aboutModerator, aboutAdmin, aboutRequest])
      assert.deepEqual(await seen(secondAdmin), [aboutModerator, aboutRequest])
      // What a moderator may not see they cannot resolve, nor block an admin through.
      assertError(await t.post(`/moderation/concerns/${aboutAdmin}/resolve`, { outcome: 'blocked', note: 'Block the admin' }, moderator.token), 404, 'concern not found')
      assertError(await t.post(`/moderation/concerns/${aboutModerator}/resolve`, { outcome: 'no_action', note: 'Nothing' }, moderator.token), 404, 'concern not found')
      assertError(await t.post(`/moderation/concerns/${aboutAdmin}/resolve`, { outcome: 'no_action', note: 'Nothing' }, secondAdmin.token), 404, 'concern not found')
      assertStatus(await t.post(`/moderation/concerns/${aboutModerator}/resolve`, { outcome: 'warned', note: 'Talked to them' }, secondAdmin.token), 200)
      assert.deepEqual(ids(await queue(moderator, 'status=resolved&limit=100')).filter((id) => id === aboutModerator), [])
    })

    it('concern_raised goes to every moderator and admin who may see it, never the subject; concern_resolved to the reporter; neither has the text', async () => {
      const reporter = await t.register()
      const subject = await t.register()
      const requestId = await approvedRequest(t, await t.register(), moderator)
      const plain = await raise(reporter, { subject_user_id: subject.id, request_id: requestId, urgent: true })
      const aboutModerator = await raise(reporter, { subject_user_id: moderator.id })
      const raised = async (account: Account) => (await noticesOf(account, 'concern_raised')).filter((n) => [plain, aboutModerator].includes(n.data.concern_id))
      assert.deepEqual(await raised(otherModerator), [{ ...(await raised(otherModerator))[0], type: 'concern_raised', request_id: requestId, data: { concern_id: plain, urgent: true } }])
      assert.deepEqual((await raised(moderator)).map((n) => n.data), [{ concern_id: plain, urgent: true }])
      // The inbox is newest first.
      assert.deepEqual((await raised(t.admin)).map((n) => [n.data, n.request_id]), [[{ concern_id: aboutModerator, urgent: false }, null], [{ concern_id: plain, urgent: true }, requestId]])
      assert.deepEqual(await noticesOf(subject, 'concern_raised'), [])
      assert.deepEqual(await noticesOf(reporter, 'concern_raised'), [])
      assertStatus(await t.post(`/moderation/concerns/${plain}/resolve`, { outcome: 'warned', note: 'Secret note for moderators' }, otherModerator.token), 200)
      const resolved = await noticesOf(reporter, 'concern_resolved')
      assert.deepEqual(resolved.map((n) => [n.request_id, n.data]), [[requestId, { concern_id: plain, outcome: 'warned' }]])
      assert.deepEqual(await noticesOf(subject, 'concern_resolved'), [])
      const inboxes = JSON.stringify([await t.get('/notifications?limit=100', reporter.token), await t.get('/notifications?limit=100', t.admin.token)].map((res) => res.body))
      assert.ok(!inboxes.includes(TEXT) && !inboxes.includes('Secret note'), 'no notification carries the text or the note')
    })
  })
}
