import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Database } from '../../src/db/database.js'
import { sql } from '../../src/db/sql.js'
import type { Principal } from '../../src/lib/principal.js'
import { revealedFields, type DisclosurePolicy } from '../../src/modules/requests/disclosure.js'
import { recordingViewer, revealedRecord } from '../../src/modules/requests/disclosure.record.js'
import { REQUEST_STATUSES } from '../../src/modules/requests/requests.values.js'
import { migratedDatabase } from '../helpers/databases.js'
import { databaseEngines } from '../helpers/engines.js'

/**
 * The detail read writes its access record with an SQL twin of disclosure.ts's reveal rule (disclosure.record.ts).
 * This proves the two agree on every combination of what the rule reads: each kind of viewer, both
 * ADDRESS_PRIVACY settings, and every row the viewer may meet (their relation to the request, client or not, carer
 * or not, each status, contact details present or not).
 */

const VIEWER = 10
const OTHER = 20
const VIEWERS: Record<string, Principal> = {
  volunteer: { id: VIEWER, roles: ['volunteer'], permissions: [] },
  moderator: { id: VIEWER, roles: ['volunteer', 'moderator'], permissions: [] },
  admin: { id: VIEWER, roles: ['admin'], permissions: ['coordinate_requests'] },
  coordinator: { id: VIEWER, roles: ['coordinator'], permissions: ['coordinate_requests'] },
}
const POLICIES: DisclosurePolicy[] = [{ mapGridMeters: 500, addressPrivacy: 'full' }, { mapGridMeters: 500, addressPrivacy: 'parties' }]

interface RuleRow {
  id: number, requester_id: number, assigned_volunteer_id: number | null, client_id: number | null, viewer_is_carer: boolean,
  status: typeof REQUEST_STATUSES[number], contact_phone: string | null, contact_notes: string | null
}

/** Every row the rule can tell apart, numbered. */
function everyRow (): RuleRow[] {
  const rows: RuleRow[] = []
  for (const requester of [VIEWER, OTHER]) {
    for (const assigned of [VIEWER, OTHER, null]) {
      for (const client of [null, 7]) {
        for (const carer of [false, true]) {
          for (const status of REQUEST_STATUSES) {
            for (const phone of [null, '+49301']) {
              for (const notes of [null, 'ring twice']) {
                rows.push({ id: rows.length + 1, requester_id: requester, assigned_volunteer_id: assigned, client_id: client, viewer_is_carer: carer, status, contact_phone: phone, contact_notes: notes })
              }
            }
          }
        }
      }
    }
  }
  return rows
}

for (const engine of databaseEngines()) {
  describe(`the detail read's access record rule in SQL, disclosure.record.ts (${engine})`, () => {
    let db: Database
    let dispose: () => Promise<void>
    before(async () => { ({ db, dispose } = await migratedDatabase(engine)) })
    after(async () => { await dispose() })

    it('records exactly what revealedFields says, for every viewer, policy and row', async () => {
      const rows = everyRow()
      const at = new Date('2026-11-28T12:00:00Z')
      let revealing = 0
      for (const [kind, viewer] of Object.entries(VIEWERS)) {
        for (const policy of POLICIES) {
          const recorded = await db.query<{ request_id: number, viewer_id: number, owner_id: number, viewer_role: string, fields: string[], last_at: Date }>(sql`
            WITH d AS (SELECT * FROM unnest(${rows.map((r) => r.id)}::bigint[], ${rows.map((r) => r.requester_id)}::bigint[],
              ${rows.map((r) => r.assigned_volunteer_id)}::bigint[], ${rows.map((r) => r.client_id)}::bigint[], ${rows.map((r) => r.viewer_is_carer)}::boolean[],
              ${rows.map((r) => r.status)}::text[], ${rows.map((r) => r.contact_phone)}::text[], ${rows.map((r) => r.contact_notes)}::text[])
              AS d (id, requester_id, assigned_volunteer_id, client_id, viewer_is_carer, status, contact_phone, contact_notes))
            SELECT * FROM (${revealedRecord(recordingViewer(viewer, policy), at)}) AS x (kind, viewer_id, owner_id, request_id, viewer_role, fields, ats, last_at)`)
          const bySql = new Map(recorded.map((r) => [Number(r.request_id), r]))
          for (const row of rows) {
            const expected = revealedFields(viewer, row, policy)
            const got = bySql.get(row.id)
            const label = `${kind}, ${policy.addressPrivacy}, ${JSON.stringify(row)}`
            if (expected === undefined) {
              assert.equal(got, undefined, label)
              continue
            }
            revealing++
            assert.ok(got !== undefined, label)
            assert.deepEqual([Number(got.viewer_id), Number(got.owner_id), got.viewer_role, got.fields, got.last_at.getTime()],
              [expected.viewerId, expected.ownerId, expected.viewerRole, expected.fields, at.getTime()], label)
          }
        }
      }
      // The combinations reveal something often enough for the comparison to mean something.
      assert.ok(revealing > 1000, `only ${revealing} revealing combinations`)
    })
  })
}
