import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { statementParts, type Database, type Queryable, type Statement } from '../../src/db/database.js'
import { listResponses } from '../../src/help/responses/responses.repo.js'
import { migratedDatabase } from '../helpers/databases.js'
import { databaseEngines } from '../helpers/engines.js'

/**
 * Finished history must not slow the service down: the responses of one request are found
 * through an index in their listing order, never by reading the whole table. The repo's own listing
 * runs under EXPLAIN, so the plan checked is that of the query the service sends. Sequential and bitmap
 * scans are switched off, so the plan shows whether an index serves the query in order, whatever the table size.
 */
async function planOf (db: Database, run: (explaining: Queryable) => Promise<unknown>): Promise<string> {
  return await db.transaction(async (tx) => {
    await tx.query('SET LOCAL enable_seqscan = off')
    await tx.query('SET LOCAL enable_bitmapscan = off')
    let plan: unknown
    await run({
      async query<R> (statement: Statement, params?: readonly unknown[]): Promise<R[]> {
        const { text, values } = statementParts(statement, params)
        plan = (await tx.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${text}`, values))[0]?.['QUERY PLAN']
        return []
      },
    })
    return JSON.stringify(plan)
  })
}

interface PlanNode { 'Node Type': string, 'Parent Relationship'?: string, Plans?: PlanNode[] }

/**
 * The node types of the plan's main query: a subplan computed per row (a volunteer's valid checks, docs/api/help.md
 * › Volunteer responses, completion and ratings) sorts its own few rows, and says nothing about how the responses are ordered.
 */
function mainNodeTypes (plan: string): string[] {
  const walk = (node: PlanNode): string[] => [node['Node Type'], ...(node.Plans ?? []).filter((child) => child['Parent Relationship'] !== 'SubPlan').flatMap(walk)]
  return walk((JSON.parse(plan) as Array<{ Plan: PlanNode }>)[0]!.Plan)
}

for (const engine of databaseEngines()) {
  describe(`indexes that keep history cheap (${engine})`, () => {
    let db: Database
    let dispose: () => Promise<void>
    before(async () => { ({ db, dispose } = await migratedDatabase(engine)) })
    after(() => dispose())

    for (const [who, volunteerId] of [['everyone\'s', null], ['one volunteer\'s', 7]] as const) {
      it(`lists ${who} responses on one request, oldest first, from volunteer_responses_by_request`, async () => {
        const plan = await planOf(db, (explaining) => listResponses(explaining, 1, volunteerId, '2026-01-01'))
        assert.match(plan, /"Index Name":"volunteer_responses_by_request"/)
        assert.ok(!mainNodeTypes(plan).includes('Sort'), `the index gives the order: ${plan}`)
      })
    }
  })
}
