import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { RetentionJob, type JobLog } from '../../src/data-protection/privacy/retention.js'
import { startApp, type Account, type TestApp } from '../helpers/app.js'
import { assertStatus } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { engines } from '../helpers/engines.js'
import { REQUEST_INPUT } from '../helpers/lifecycle.js'

/** CLIENT_RETENTION_DAYS (docs/privacy.md › Clients of the coordinators): idle client records erased by the retention job. */

const DAYS = 30
const DAY_MS = 86_400_000

for (const engine of engines()) {
  describe(`client records erased after CLIENT_RETENTION_DAYS (${engine})`, () => {
    let t: TestApp
    let moderator: Account
    let coordinator: Account
    before(async () => {
      t = await startApp(engine)
      moderator = await t.registerWithRole('moderator')
      coordinator = await t.register()
      assertStatus(await t.post(`/admin/users/${coordinator.id}/roles/4`, undefined, t.admin.token), 200)
    })
    after(() => t.close())

    async function newClient (): Promise<number> {
      const record = { first_name: 'Erna', last_name: 'Idle', phone: '+4917011223344', address: '5 Linden Way', city: 'Berlin', latitude: 52.4, longitude: 13.3 }
      const res = await t.post('/clients', { ...record, needs: 'wheelchair', consent: { how: 'phone' } }, coordinator.token)
      assertStatus(res, 201)
      return res.body.id
    }

    async function requestFor (clientId: number): Promise<number> {
      const res = await t.post('/requests', { ...REQUEST_INPUT, on_behalf_of: { client_id: clientId } }, coordinator.token)
      assertStatus(res, 201)
      assertStatus(await t.post(`/moderation/requests/${res.body.id}/approve`, {}, moderator.token), 200)
      return res.body.id
    }

    /** One run of the job on a clock `days` days ahead; its log lines. */
    async function runAfter (days: number, clientRetentionDays = DAYS): Promise<string[]> {
      const lines: string[] = []
      const log: JobLog = { info: (_fields, message) => lines.push(message), error: (_fields, message) => lines.push(message) }
      await new RetentionJob(t.db, { retentionDays: 0, clientRetentionDays, mapGridMeters: 300 }, log, new ManualClock(new Date(Date.now() + days * DAY_MS))).runOnce()
      return lines
    }

    const clientStatus = async (id: number) => (await t.get(`/clients/${id}`, coordinator.token)).status

    it('erases a client idle for longer, with their finished requests minimised; keeps one with a request under way or something newer', async () => {
      const idle = await newClient()
      const helped = await newClient()
      const helpedRequest = await requestFor(helped)
      assertStatus(await t.post(`/requests/${helpedRequest}/cancel`, undefined, coordinator.token), 200)
      const waiting = await newClient()
      await requestFor(waiting)

      // 0 keeps everything; within the days, nothing is idle yet.
      assert.equal(new RetentionJob(t.db, { retentionDays: 0, mapGridMeters: 300 }, { info () {}, error () {} }).enabled, false)
      await runAfter(DAYS + 10, 0)
      await runAfter(DAYS - 1)
      assert.deepEqual(await Promise.all([idle, helped, waiting].map(clientStatus)), [200, 200, 200])

      const lines = await runAfter(DAYS + 1)
      assert.ok(lines.some((line) => /^retention: erased [1-9]\d* idle client records$/.test(line)), lines.join('\n'))
      assert.deepEqual(await Promise.all([idle, helped, waiting].map(clientStatus)), [404, 404, 200])
      // The request keeps its client's number and nothing else of them.
      const detail = await t.get(`/requests/${helpedRequest}`, coordinator.token)
      assertStatus(detail, 200)
      assert.deepEqual([detail.body.client, detail.body.address, detail.body.contact_phone, detail.body.description], [null, '(removed)', '(removed)', '(removed)'])
      const [row] = await t.db.query<{ client_id: number }>('SELECT client_id FROM requests WHERE id = $1', [helpedRequest])
      assert.equal(Number(row!.client_id), helped)
    })

    it('counts a request ended lately as something new: the client stays although the record is old', async () => {
      const [oldRecord, helpedLately] = [await newClient(), await newClient()]
      const request = await requestFor(helpedLately)
      assertStatus(await t.post(`/requests/${request}/cancel`, undefined, coordinator.token), 200)
      // Both records unchanged for two months (the job's clock is 20 days ahead); the request ended 20 days before it.
      await t.db.query("UPDATE clients SET updated_at = now() - interval '40 days' WHERE id = ANY ($1::bigint[])", [[oldRecord, helpedLately]])
      await runAfter(20)
      assert.deepEqual(await Promise.all([oldRecord, helpedLately].map(clientStatus)), [404, 200])
    })
  })
}
