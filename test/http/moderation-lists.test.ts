import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'
import { createRequest, insertRequests, whileFailing } from '../helpers/requests.js'

/** A RequestListItem's fields and the date the help is wanted by (docs/api/help.md › Moderation). */
const LIST_ITEM_FIELDS = ['address', 'city', 'confirmed_at', 'created_at', 'description', 'desired_completion_date', 'id', 'languages', 'location', 'needs', 'request_type_name', 'requester_name',
  'series_id', 'status', 'title', 'urgency', 'window_end', 'window_start']

for (const engine of engines()) {
  describe(`moderation lists (${engine})`, () => {
    let t: TestApp
    let moderator: Account, otherModerator: Account, volunteer: Account
    before(async () => {
      t = await startApp(engine)
      moderator = await t.registerWithRole('moderator')
      otherModerator = await t.registerWithRole('moderator')
      volunteer = await t.register({ first_name: 'Rita', last_name: 'Requester' })
    })
    after(() => t.close())

    const list = async (path: string, token = moderator.token) => {
      const res = await t.get(path, token)
      assert.equal(res.status, 200, res.text)
      return res.body as any[]
    }
    /** The whole list, page by page. */
    const all = async (path: string, token = moderator.token) => {
      const items: any[] = []
      for (let offset = 0; ; offset += 100) {
        const page = await list(`${path}?limit=100&offset=${offset}`, token)
        items.push(...page)
        if (page.length < 100) return items
      }
    }

    it('the queue holds pending requests, most urgent first, then oldest first, as RequestListItem', async () => {
      const base = Date.parse('2020-01-01T00:00:00Z')
      const spots = [
        ['low', 0], ['urgent', 5], ['medium', 1], ['high', 2], ['urgent', 3], ['low', 4], ['high', 0], ['medium', 6],
      ] as const
      const ids = await insertRequests(t, volunteer.id, spots.map(([urgency, minutes], i) => ({
        lat: 1, lon: 1, urgency, status: 'pending_moderation', createdAt: new Date(base + minutes * 60_000), title: `Queue item ${i}`,
      })))
      await insertRequests(t, volunteer.id, [{ lat: 1, lon: 1, status: 'approved', urgency: 'urgent', createdAt: new Date(base) }])
      const mine = new Set(ids)
      const queue = (await all('/moderation/requests/pending')).filter((item) => mine.has(item.id))
      const rank = { urgent: 0, high: 1, medium: 2, low: 3 }
      const expected = ids
        .map((id, i) => ({ id, rank: rank[spots[i]![0]], at: spots[i]![1] }))
        .sort((a, b) => a.rank - b.rank || a.at - b.at || a.id - b.id)
        .map((x) => x.id)
      assert.deepEqual(queue.map((item) => item.id), expected)
      assert.deepEqual(queue.map((item) => item.urgency), ['urgent', 'urgent', 'high', 'high', 'medium', 'medium', 'low', 'low'])
      assert.deepEqual(Object.keys(queue[0]).sort(), LIST_ITEM_FIELDS)
      assert.equal(queue[0].status, 'pending_moderation')
      assert.equal(queue[0].requester_name, 'Rita Requester')
      assert.equal(queue[0].request_type_name, 'Transport and escort')
      assert.equal(queue[0].created_at, new Date(base + 3 * 60_000).toISOString())
    })

    it('each item says when the help is wanted by; reading either list leaves no record in the requester\'s access log', async () => {
      const wanted = await createRequest(t, volunteer.token, { title: 'Wanted by a date', desired_completion_date: '2031-05-03T12:00:00.000Z', contact_phone: '+49 30 1234567' })
      const open = await createRequest(t, volunteer.token, { title: 'Any day', contact_phone: '+49 30 1234567' })
      const queue = await all('/moderation/requests/pending')
      assert.equal(queue.find((item) => item.id === wanted.id)?.desired_completion_date, '2031-05-03T12:00:00.000Z')
      assert.equal(queue.find((item) => item.id === open.id)?.desired_completion_date, null)
      assert.equal((await t.post(`/moderation/requests/${wanted.id}/approve`, {}, otherModerator.token)).status, 200)
      const decided = await all('/moderation/requests/my', otherModerator.token)
      assert.equal(decided.find((item) => item.id === wanted.id)?.desired_completion_date, '2031-05-03T12:00:00.000Z')
      // Neither list nor the approval's answer showed a moderator the phone.
      for (const { id } of [wanted, open]) assert.deepEqual((await t.get(`/requests/${id}/access-log`, volunteer.token)).body, [])
      // Opening the request does, and is recorded.
      assert.equal((await t.get(`/requests/${open.id}`, moderator.token)).status, 200)
      assert.deepEqual((await t.get(`/requests/${open.id}/access-log`, volunteer.token)).body.map((record: any) => record.viewer_id), [moderator.id])
    })

    it('the queue holds only pending requests, and not the caller\'s own', async () => {
      const own = await createRequest(t, moderator.token)
      const theirs = await createRequest(t, volunteer.token)
      const decided = await createRequest(t, volunteer.token)
      await t.post(`/moderation/requests/${decided.id}/approve`, {}, otherModerator.token)
      const queue = (await all('/moderation/requests/pending')).map((item) => item.id)
      assert.ok(queue.includes(theirs.id))
      assert.ok(!queue.includes(own.id))
      assert.ok(!queue.includes(decided.id))
      for (const item of await all('/moderation/requests/pending')) assert.equal(item.status, 'pending_moderation')
      // Another moderator sees it, and may decide it.
      assert.ok((await all('/moderation/requests/pending', otherModerator.token)).some((item) => item.id === own.id))
      assert.equal((await all('/moderation/requests/pending', t.admin.token)).some((item) => item.id === own.id), true)
    })

    it('the queue pages with limit and offset; bad values fall back to 20 and 0', async () => {
      const base = Date.parse('2019-01-01T00:00:00Z')
      await insertRequests(t, volunteer.id, Array.from({ length: 26 }, (_, i) => ({ lat: 1, lon: 1, urgency: 'urgent', status: 'pending_moderation', createdAt: new Date(base + i * 1000) })))
      const ids = (await all('/moderation/requests/pending')).map((item) => item.id)
      assert.ok(ids.length > 25)
      const page = async (query: string) => (await list(`/moderation/requests/pending${query}`)).map((item) => item.id)
      assert.deepEqual(await page(''), ids.slice(0, 20))
      assert.deepEqual(await page('?limit=5&offset=3'), ids.slice(3, 8))
      assert.deepEqual(await page('?limit=0&offset=-2'), ids.slice(0, 20))
      assert.deepEqual(await page('?limit=1000'), ids.slice(0, 20))
      assert.deepEqual(await page('?limit=x&offset=y'), ids.slice(0, 20))
    })

    it('the moderated-by-me list shows the caller\'s decisions, most recent first, with their current status', async () => {
      const me = await t.registerWithRole('moderator')
      const requests = await Promise.all([1, 2, 3, 4].map(async () => (await createRequest(t, volunteer.token)).id as number))
      const someoneElses = (await createRequest(t, volunteer.token)).id as number
      await t.post(`/moderation/requests/${requests[2]}/approve`, {}, me.token)
      await t.post(`/moderation/requests/${requests[0]}/reject`, { comment: 'Unclear' }, me.token)
      await t.post(`/moderation/requests/${requests[3]}/moderate`, { action: 'approve' }, me.token)
      await t.post(`/moderation/requests/${someoneElses}/approve`, {}, otherModerator.token)
      // Decisions one after the other can share a clock tick; pin the times to make the order plain.
      await t.db.query("UPDATE requests SET moderated_at = now() - interval '3 minutes' WHERE id = $1", [requests[2]])
      await t.db.query("UPDATE requests SET moderated_at = now() - interval '2 minutes' WHERE id = $1", [requests[0]])
      await t.db.query("UPDATE requests SET moderated_at = now() - interval '1 minute' WHERE id = $1", [requests[3]])
      // Later the approved one is cancelled: the list shows it as it is now.
      await t.post(`/requests/${requests[2]}/cancel`, undefined, volunteer.token)
      const mine = await list('/moderation/requests/my', me.token)
      assert.deepEqual(mine.map((item) => item.id), [requests[3], requests[0], requests[2]])
      assert.deepEqual(mine.map((item) => item.status), ['approved', 'rejected', 'cancelled'])
      assert.deepEqual(Object.keys(mine[0]).sort(), LIST_ITEM_FIELDS)
      assert.equal(mine[0].requester_name, 'Rita Requester')
      assert.deepEqual((await list('/moderation/requests/my?limit=1&offset=1', me.token)).map((item) => item.id), [requests[0]])
      assert.deepEqual((await list('/moderation/requests/my?limit=-1&offset=abc', me.token)).map((item) => item.id), mine.map((item) => item.id))
      assert.ok(!(await all('/moderation/requests/my', otherModerator.token)).some((item) => requests.includes(item.id)))
      // A fresh moderator has decided nothing.
      assert.deepEqual(await list('/moderation/requests/my', (await t.registerWithRole('moderator')).token), [])
    })

    for (const path of ['/moderation/requests/pending', '/moderation/requests/my']) {
      it(`${path} needs a moderator or an admin`, async () => {
        const res = await t.get(path, volunteer.token)
        assert.equal(res.status, 403)
        assert.deepEqual(res.body, { error: 'moderator role required' })
        const anonymous = await t.get(path)
        assert.equal(anonymous.status, 401)
        assert.deepEqual(anonymous.body, { error: 'unauthorized' })
        assert.equal((await t.get(path, t.admin.token)).status, 200)
      })
    }

    for (const [path, pattern, error] of [
      ['/moderation/requests/pending', /r\.status = 'pending_moderation'/, 'failed to get pending requests'],
      ['/moderation/requests/my', /WHERE r\.moderated_by = \$1/, 'failed to get moderated requests'],
    ] as const) {
      it(`${path} answers 500 ${error} when the database fails`, async () => {
        await t.get(path, moderator.token)
        const res = await whileFailing(t.db, pattern, () => t.get(path, moderator.token))
        assert.equal(res.status, 500)
        assert.deepEqual(res.body, { error })
      })
    }
  })
}
