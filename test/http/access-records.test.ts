import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { RetentionJob } from '../../src/data-protection/privacy/retention.js'
import { startApp, type TestApp } from '../helpers/app.js'
import { ManualClock } from '../helpers/clock.js'
import { EXERCISES, ok, operationsAnswering, setScene, VIEWERS, type Scene, type Seen, type ViewerName } from '../helpers/disclosure.js'
import { engines } from '../helpers/engines.js'
import { assignedRequest } from '../helpers/lifecycle.js'

/**
 * docs/privacy.md › Access records › Proof: every operation of the OpenAPI document that can answer with contact fields,
 * run by each viewer, writes an access record for exactly what its answer gave someone other than the
 * data's owner, and none when it gave nothing; the 10-minute coalescing with the clock moved; two
 * simultaneous reads leave one record; the two logs, who may read them, and the export.
 */

const CONTACT_FIELDS = ['contact_phone', 'contact_notes', 'phone', 'address']
const MINUTE = 60_000

/** What an answer revealed, as "kind viewer subject fields" keys (subject: the request id, or the profile's owner). */
function expectedReveals (scene: Scene, setting: string, viewer: ViewerName, seen: readonly Seen[]): string[] {
  const viewerId = scene.viewers[viewer].id
  const keys = new Set<string>()
  for (const entry of seen) {
    // A client's record is not logged (docs/privacy.md: the client has no account to read a log); the client requests here are the admin's own.
    if (entry.kind === 'marker' || entry.kind === 'client') continue
    const { item } = entry
    if (entry.kind === 'series') {
      // A series' template, shown to a moderator, is recorded in its requester's profile log (it belongs to no request).
      if (viewer === 'requester') continue
      const fields = [...(item.template.contact_phone != null ? ['contact_phone'] : []), ...(item.template.contact_notes != null ? ['contact_notes'] : []),
        ...(setting === 'parties' ? ['address'] : [])]
      if (fields.length > 0) keys.add(`profile ${viewerId} ${item.requester_id as number} ${fields.join(',')}`)
      continue
    }
    if (entry.kind === 'request') {
      if (viewer === 'requester') continue
      const fields = [
        ...(item.contact_phone != null ? ['contact_phone'] : []),
        ...(item.contact_notes != null ? ['contact_notes'] : []),
        // Under ADDRESS_PRIVACY=parties a shown address is a reveal; under full it is 1.0.1's public field.
        ...(setting === 'parties' && item.address !== undefined && item.address_hidden !== true ? ['address'] : []),
      ]
      if (fields.length > 0) keys.add(`request ${viewerId} ${entry.made.id} ${fields.join(',')}`)
    } else if (item.id !== viewerId) {
      const fields = [...(item.phone != null ? ['phone'] : []), ...(item.address != null ? ['address'] : [])]
      if (fields.length > 0) keys.add(`profile ${viewerId} ${item.id as number} ${fields.join(',')}`)
    }
  }
  return [...keys].sort()
}

/** The records written at `at` (each call runs at a time of its own), as the same keys. */
async function recordsAt (t: TestApp, at: Date): Promise<string[]> {
  const rows = await t.db.query<{ kind: string, viewer_id: number, request_id: number | null, owner_id: number, fields: string[] }>(
    'SELECT kind, viewer_id, request_id, owner_id, fields FROM access_records WHERE last_at = $1', [at])
  return rows.map((r) => `${r.kind} ${r.viewer_id} ${r.kind === 'request' ? r.request_id! : r.owner_id} ${r.fields.join(',')}`).sort()
}

for (const engine of engines()) {
  for (const setting of ['full', 'parties'] as const) {
    describe(`access records of every answer with contact data, ADDRESS_PRIVACY=${setting} (${engine})`, () => {
      let t: TestApp
      let scene: Scene
      const clock = new ManualClock()
      /** Moves the clock; tokens expire by it, so everyone logs in again. */
      const advance = async (ms: number) => {
        clock.advance(ms)
        for (const account of [...Object.values(scene.viewers), t.admin]) {
          const login = await t.post('/auth/login', { email: account.email, password: account.password })
          assert.equal(login.status, 200, login.text)
          account.token = login.body.access_token
        }
      }
      before(async () => {
        t = await startApp(engine, { addressPrivacy: setting }, { clock })
        scene = await setScene(t)
      })
      after(() => t.close())

      it('each operation that can answer with contact fields records what it revealed, and nothing when it revealed nothing', async () => {
        const operations = await operationsAnswering(t, CONTACT_FIELDS)
        for (const operation of operations) assert.ok(operation in EXERCISES, `${operation} has an exercise in helpers/disclosure.ts`)
        const revealing = new Set<string>()
        const order = [...operations.filter((o) => !o.endsWith('/cancel')), ...operations.filter((o) => o.endsWith('/cancel'))]
        for (const operation of order) {
          for (const viewer of VIEWERS) {
            clock.advance(1000)
            const seen = await EXERCISES[operation]!(t, scene, viewer)
            const expected = expectedReveals(scene, setting, viewer, seen)
            assert.deepEqual(await recordsAt(t, clock.now()), expected, `${operation} by the ${viewer}`)
            if (expected.length > 0) revealing.add(operation)
          }
        }
        // The operations that reveal to someone besides the owner under this setting: each was seen writing.
        // The coming help (docs/web/schedule.md) shows the assigned volunteer the address of what they help with: under parties, recorded.
        const lists = ['GET /moderation/requests/my', 'GET /moderation/requests/pending', 'GET /requests/bounds', 'GET /requests/nearby', 'GET /users/me/coming-help']
        const series = ['GET /moderation/series/pending', 'GET /request-series/{id}', 'POST /moderation/series/{id}/approve', 'POST /moderation/series/{id}/reject', 'POST /request-series/{id}/end']
        assert.deepEqual([...revealing].sort(), [
          ...(setting === 'parties' ? lists.slice(0, 2) : []), 'GET /requests/{id}', ...(setting === 'parties' ? lists.slice(2) : []),
          'GET /users/{id}', 'POST /requests/{id}/cancel', 'POST /requests/{id}/confirm', ...series,
        ].sort())
      })

      it('the same viewer and fields within 10 minutes move one record; later, a new one', async () => {
        const { A } = scene.requests
        const volunteer = scene.viewers['accepted volunteer']
        const log = async () => await ok(t, 'GET', `/requests/${A.id}/access-log`, scene.requester.token)
        await advance(60 * MINUTE)
        const before = (await log()).length
        await ok(t, 'GET', `/requests/${A.id}`, volunteer.token)
        await advance(9 * MINUTE)
        await ok(t, 'GET', `/requests/${A.id}`, volunteer.token)
        let records = await log()
        assert.equal(records.length, before + 1)
        assert.equal(new Date(records[0].at).getTime(), clock.now().getTime(), 'the record\'s time moved to the second view')
        await advance(10 * MINUTE + 1000)
        await ok(t, 'GET', `/requests/${A.id}`, volunteer.token)
        records = await log()
        assert.equal(records.length, before + 2)
        const fields = ['contact_phone', 'contact_notes', ...(setting === 'parties' ? ['address'] : [])]
        assert.deepEqual(records[0], { viewer_id: volunteer.id, viewer_name: 'Test User', viewer_role: 'assigned volunteer', fields, at: clock.now().toISOString() })
        assert.ok(new Date(records[1].at) < new Date(records[0].at), 'newest first')
      })

      it('two simultaneous reads leave one record', async () => {
        const { A } = scene.requests
        await advance(60 * MINUTE)
        const count = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM access_records a, unnest(a.ats) WHERE a.request_id = $1', [A.id]))[0]!.n
        const before = await count()
        const reads = await Promise.all([1, 2, 3, 4].map(async () => await t.get(`/requests/${A.id}`, scene.viewers.moderator.token)))
        for (const read of reads) assert.equal(read.status, 200)
        assert.equal(await count(), before + 1)
      })

      it('a request\'s log is for its requester, moderators and admins; everyone else gets 404', async () => {
        const { A } = scene.requests
        for (const viewer of ['stranger', 'pending volunteer', 'accepted volunteer'] as const) {
          const res = await t.get(`/requests/${A.id}/access-log`, scene.viewers[viewer].token)
          assert.deepEqual([res.status, res.body], [404, { error: 'request not found' }], viewer)
        }
        for (const token of [scene.requester.token, scene.viewers.moderator.token, t.admin.token]) await ok(t, 'GET', `/requests/${A.id}/access-log?limit=1&offset=0`, token)
        assert.equal((await t.get('/requests/999999/access-log', scene.requester.token)).status, 404)
        const page = await ok(t, 'GET', `/requests/${A.id}/access-log?limit=1&offset=1`, scene.requester.token)
        assert.equal(page.length, 1)
      })

      it('GET /users/me/access-log names the shared request and the viewer\'s side; the export holds the records', async () => {
        const { A } = scene.requests
        const volunteer = scene.viewers['accepted volunteer']
        assert.equal((await t.patch('/users/me', { phone: '+4915112345678' }, volunteer.token)).status, 200)
        await advance(60 * MINUTE)
        await ok(t, 'GET', `/users/${volunteer.id}`, scene.requester.token)
        await ok(t, 'GET', `/users/${scene.requester.id}`, volunteer.token)
        await ok(t, 'GET', `/users/${scene.requester.id}`, scene.viewers.moderator.token)
        const mine = await ok(t, 'GET', '/users/me/access-log', volunteer.token)
        assert.deepEqual(mine[0], { viewer_id: scene.requester.id, viewer_name: 'Erna Schmidt', viewer_role: 'requester', fields: ['phone'], at: clock.now().toISOString(), request_id: A.id })
        const hers = await ok(t, 'GET', '/users/me/access-log', scene.requester.token)
        const byRole = (role: string) => hers.find((r: any) => r.viewer_role === role && r.at === clock.now().toISOString())
        assert.deepEqual([byRole('assigned volunteer').request_id, byRole('assigned volunteer').fields], [A.id, ['phone', 'address']])
        assert.equal(byRole('moderator').request_id, null)
        const exported = await ok(t, 'GET', '/users/me/export', scene.requester.token)
        assert.ok(exported.access_records.some((r: any) => r.kind === 'profile' && r.viewer_id === scene.viewers.moderator.id && r.request_id === null))
        assert.ok(exported.access_records.some((r: any) => r.kind === 'request' && r.request_id === A.id && r.viewer_role === 'assigned volunteer'))
        assert.deepEqual((await ok(t, 'GET', '/users/me/export', scene.viewers.stranger.token)).access_records, [])
      })

      it('a viewer who erased their account is shown as "Former user"; the record stays; an erased owner\'s profile log goes', async () => {
        const { A } = scene.requests
        await advance(60 * MINUTE)
        const moderator = await t.registerWithRole('moderator')
        await ok(t, 'GET', `/requests/${A.id}`, moderator.token)
        const erased = await t.request('DELETE', '/users/me', { token: moderator.token, body: { password: moderator.password } })
        assert.equal(erased.status, 200, erased.text)
        const records = await ok(t, 'GET', `/requests/${A.id}/access-log`, scene.requester.token)
        assert.deepEqual([records[0].viewer_id, records[0].viewer_name, records[0].viewer_role], [moderator.id, 'Former user', 'moderator'])
        // An erased owner's profile log goes with the profile; her requests' logs stay with the requests.
        const stranger = scene.viewers.stranger
        assert.equal((await t.patch('/users/me', { phone: '+4917000000001' }, stranger.token)).status, 200)
        await ok(t, 'GET', `/users/${stranger.id}`, scene.viewers.moderator.token)
        const profileRecords = async () => (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM access_records WHERE kind = 'profile' AND owner_id = $1", [stranger.id]))[0]!.n
        assert.equal(await profileRecords(), 1)
        assert.equal((await t.request('DELETE', '/users/me', { token: stranger.token, body: { password: stranger.password } })).status, 200)
        assert.equal(await profileRecords(), 0)
      })
    })
  }
}

for (const engine of engines()) {
  describe(`access records past RETENTION_DAYS (${engine})`, () => {
    let t: TestApp
    before(async () => { t = await startApp(engine, { addressPrivacy: 'parties' }) })
    after(() => t.close())

    it('are kept with the minimised request: who saw what, and when, stays in the requester\'s log', async () => {
      const requester = await t.register()
      const volunteer = await t.register()
      const moderator = await t.registerWithRole('moderator')
      const { requestId } = await assignedRequest(t, requester, moderator, volunteer)
      await ok(t, 'GET', `/requests/${requestId}`, volunteer.token)
      const before = await ok(t, 'GET', `/requests/${requestId}/access-log`, requester.token)
      assert.ok(before.some((r: any) => r.viewer_id === volunteer.id && r.fields.includes('address')), JSON.stringify(before))
      const completed = await t.post(`/requests/${requestId}/complete`, { rating: 5 }, requester.token)
      assert.equal(completed.status, 200, completed.text)
      // direct write: the request finished long ago, past the retention period.
      await t.db.query('UPDATE requests SET finished_at = now() - make_interval(days => 400) WHERE id = $1', [requestId])
      const silent = { info () {}, error () {} }
      assert.ok(await new RetentionJob(t.db, { retentionDays: 30, mapGridMeters: 300 }, silent).runOnce() >= 1)
      assert.equal((await ok(t, 'GET', `/requests/${requestId}`, requester.token)).address, '(removed)')
      assert.deepEqual(await ok(t, 'GET', `/requests/${requestId}/access-log`, requester.token), before)
    })
  })
}
