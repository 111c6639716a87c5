import assert from 'node:assert/strict'
import { after, before, describe, it, mock } from 'node:test'
import { statementParts, type Statement } from '../../src/db/database.js'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { writeAccessRecords } from '../../src/accounts/access/access.repo.js'
import { engines } from '../helpers/engines.js'
import { createRequest, whileFailing } from '../helpers/requests.js'

/**
 * docs/privacy.md › Access records with docs/performance.md › Access records: answers given at the same moment share one write of
 * their records (AccessRecorder), yet each answer leaves only once its own record is written, a failed write
 * sends no answer, and one write of many views keeps what separate writes would.
 */

const RECORD_WRITE = /INSERT INTO access_records/
const DETAIL_READ = /AS viewer_is_carer[\s\S]*WHERE r\.id = \$/

for (const engine of engines()) {
  describe(`access records written together (${engine})`, () => {
    let t: TestApp
    let moderator: Account
    let requester: Account
    let ids: number[]
    before(async () => {
      t = await startApp(engine)
      moderator = await t.registerWithRole('moderator')
      requester = await t.register()
      ids = []
      for (let i = 0; i < 6; i++) ids.push((await createRequest(t, requester.token, { title: `Lift number ${i}` })).id)
    })
    after(() => t.close())

    const recordsOf = async (requestId: number, viewerId: number) => (await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM access_records a, unnest(a.ats) WHERE a.request_id = $1 AND a.viewer_id = $2', [requestId, viewerId]))[0]!.n

    it('reads at the same moment share one write, and each answer is sent only once its own record is written', async () => {
      const readers = [moderator, t.admin]
      const reads = readers.flatMap((reader) => ids.map((id) => ({ reader, id })))
      // The first write is held until every read has its row, so all the others' records are waiting together.
      let detailReads = 0
      let writes = 0
      let allRead: () => void = () => {}
      const everyoneRead = new Promise<void>((resolve) => { allRead = resolve })
      const original = t.db.query.bind(t.db)
      const spy = mock.method(t.db, 'query', async (statement: Statement, params?: readonly unknown[]) => {
        const { text } = statementParts(statement, params)
        if (RECORD_WRITE.test(text) && ++writes === 1) await everyoneRead
        const result = await original(statement, params)
        if (DETAIL_READ.test(text) && ++detailReads === reads.length) allRead()
        return result
      })
      try {
        await Promise.all(reads.map(async ({ reader, id }) => {
          const res = await t.get(`/requests/${id}`, reader.token)
          assert.equal(res.status, 200, res.text)
          assert.equal(res.body.contact_phone, '+4930123456')
          assert.equal(await recordsOf(id, reader.id), 1, 'the record is there when the answer arrives')
        }))
      } finally {
        spy.mock.restore()
      }
      assert.equal(writes, 2, `${reads.length} reads, two writes: the first read's, then all the others' together`)
    })

    it('the same viewer reading one request many times at once leaves one record', async () => {
      const reader = await t.registerWithRole('moderator')
      const reads = await Promise.all(Array.from({ length: 8 }, async () => await t.get(`/requests/${ids[0]!}`, reader.token)))
      for (const read of reads) assert.equal(read.status, 200)
      assert.equal(await recordsOf(ids[0]!, reader.id), 1)
    })

    it('a record that cannot be written sends no contact details', async () => {
      const reader = await t.registerWithRole('moderator')
      const refused = await whileFailing(t.db, RECORD_WRITE, async () => await t.get(`/requests/${ids[1]!}`, reader.token))
      // docs/api/conventions.md › Everywhere: a failure to load a request is answered as 404 'request not found'.
      assert.deepEqual([refused.status, refused.body], [404, { error: 'request not found' }])
      assert.equal(await recordsOf(ids[1]!, reader.id), 0)
      const res = await t.get(`/requests/${ids[1]!}`, reader.token)
      assert.equal(res.status, 200)
      assert.equal(await recordsOf(ids[1]!, reader.id), 1)
    })

    it('one write of several views of one key keeps what separate writes would: within 10 minutes one time, apart two', async () => {
      const reader = await t.registerWithRole('moderator')
      const key = { kind: 'request', viewerId: reader.id, ownerId: requester.id, requestId: ids[2]!, viewerRole: 'moderator' } as const
      const view = (minutes: number) => ({ ...key, fields: ['contact_phone', 'contact_notes'] as const, at: new Date(Date.UTC(2026, 0, 1, 9, minutes)) })
      await writeAccessRecords(t.db, [view(16), view(0), view(25), view(8)])
      const rows = await t.db.query<{ at: string }>(
        "SELECT to_char(t.at AT TIME ZONE 'UTC', 'HH24:MI') AS at FROM access_records a, unnest(a.ats) AS t (at) WHERE a.request_id = $1 AND a.viewer_id = $2 ORDER BY t.at", [ids[2]!, reader.id])
      // 09:00 and 09:08 are one view (the later kept); 09:16 is within 10 minutes of 09:08, so it moves that time again; 09:25 too.
      assert.deepEqual(rows.map((r) => r.at), ['09:25'])
      await writeAccessRecords(t.db, [view(40), view(55), view(56)])
      const after = await t.db.query<{ at: string }>(
        "SELECT to_char(t.at AT TIME ZONE 'UTC', 'HH24:MI') AS at FROM access_records a, unnest(a.ats) AS t (at) WHERE a.request_id = $1 AND a.viewer_id = $2 ORDER BY t.at", [ids[2]!, reader.id])
      assert.deepEqual(after.map((r) => r.at), ['09:25', '09:40', '09:56'])
    })
  })
}
