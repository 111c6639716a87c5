import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, type TestApp } from '../../helpers/app.js'
import { engines } from '../../helpers/engines.js'
import { PUBLIC, PUSH_IDENTITY, UNAUTHORIZED } from './rows.js'
import { ROWS as ACCOUNTS } from './rows/accounts.js'
import { ROWS as DATA_PROTECTION } from './rows/data-protection.js'
import { ROWS as HELP } from './rows/help.js'
import { ROWS as MESSAGING } from './rows/messaging.js'
import { ROWS as ON_BEHALF } from './rows/on-behalf.js'
import { ROWS as REGULAR_HELP } from './rows/regular-help.js'
import { ROWS as VISITS } from './rows/visits.js'

/** Every area's rows: together they must cover the OpenAPI document, no more and no less. */
const ROWS = [...MESSAGING, ...ACCOUNTS, ...HELP, ...VISITS, ...REGULAR_HELP, ...ON_BEHALF, ...DATA_PROTECTION]

/** `METHOD /path` of every operation in the OpenAPI document, and whether it asks for a token. */
function documentedOperations (t: TestApp): Map<string, boolean> {
  const doc = t.app.swagger() as { paths: Record<string, Record<string, { security?: unknown[] }>> }
  const found = new Map<string, boolean>()
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      found.set(`${method.toUpperCase()} /${path.replace(/^\/api\/v1\/?/, '')}`, (operation.security ?? []).length > 0)
    }
  }
  return found
}

for (const engine of engines()) {
  describe(`authorization matrix: every operation × every kind of caller (${engine})`, () => {
    let t: TestApp
    before(async () => {
      t = await startApp(engine, {}, { push: PUSH_IDENTITY })
    })
    after(() => t.close())

    it('has a row for every operation of the OpenAPI document, and asks for a token exactly where the document does', () => {
      const documented = documentedOperations(t)
      const covered = new Set(ROWS.map((row) => row.op))
      assert.deepEqual([...documented.keys()].filter((op) => !covered.has(op)), [], 'operations without a row in the matrix')
      assert.deepEqual([...covered].filter((op) => !documented.has(op)), [], 'rows for operations the document does not have')
      assert.deepEqual([...documented].filter(([, secured]) => !secured).map(([op]) => op).sort(), [...PUBLIC].sort())
      for (const row of ROWS) {
        if (documented.get(row.op) === true) assert.deepEqual(row.expect.anonymous, UNAUTHORIZED, row.op)
        // An open operation serves the anonymous caller: a success, or (the code confirmations of docs/api/accounts.md › Getting back in,
        // whose codes only e-mail can give) the same 400 as every other caller, never a refusal of who they are.
        else assert.ok(typeof row.expect.anonymous === 'number' ? row.expect.anonymous < 300 : row.expect.anonymous[0] === 400, row.op)
      }
    })
  })
}
