import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Database } from '../../src/db/database.js'
import { migratedDatabase } from '../helpers/databases.js'
import { databaseEngines } from '../helpers/engines.js'

/**
 * Finished history must not slow the service down (issue 6): the responses of one request are found
 * through an index in their listing order, never by reading the whole table. Sequential and bitmap scans
 * are switched off, so the plan shows whether an index serves the query in order, whatever the table size.
 */
for (const engine of databaseEngines()) {
  describe(`indexes that keep history cheap (${engine})`, () => {
    let db: Database
    let dispose: () => Promise<void>
    before(async () => { ({ db, dispose } = await migratedDatabase(engine)) })
    after(() => dispose())

    it('reads the responses of one request, oldest first, from volunteer_responses_by_request', async () => {
      const plan = await db.transaction(async (tx) => {
        await tx.query('SET LOCAL enable_seqscan = off')
        await tx.query('SET LOCAL enable_bitmapscan = off')
        const rows = await tx.query<{ 'QUERY PLAN': unknown }>(
          'EXPLAIN (FORMAT JSON) SELECT id FROM volunteer_responses WHERE request_id = $1 ORDER BY responded_at, id', [1])
        return JSON.stringify(rows[0]?.['QUERY PLAN'])
      })
      assert.match(plan, /"Index Name":"volunteer_responses_by_request"/)
      assert.doesNotMatch(plan, /"Node Type":"Sort"/, 'the index gives the order')
    })
  })
}
