import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { lintOpenApi } from '../../scripts/lint-openapi.js'
import { OPERATION_IDS } from '../../src/http/operation-ids.js'
import type { TestApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'
import { startWithDocument } from '../helpers/openapi.js'

/**
 * The document as a client generator reads it: a maintained linter finds nothing, every operation has
 * the stable name from the one table of them, every tag is declared and described, and the base
 * address is relative, so the same document serves every deployment.
 */
interface Operation { operationId?: string, tags?: string[] }

function operations (doc: any): Map<string, Operation> {
  const found = new Map<string, Operation>()
  for (const [path, item] of Object.entries<Record<string, Operation>>(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) found.set(`${method.toUpperCase()} ${path.slice('/api/v1'.length) || '/'}`, operation)
  }
  return found
}

for (const engine of engines()) {
  describe(`OpenAPI document for client generators (${engine})`, () => {
    let t: TestApp
    let doc: any
    before(async () => { ({ t, doc } = await startWithDocument(engine)) })
    after(() => t.close())

    it("Redocly's strict rules find nothing (npm run openapi:lint)", async () => {
      assert.deepEqual(await lintOpenApi(doc), [])
    })

    it('names every operation from the table, each name once, and the table holds no name of a removed operation', () => {
      const documented = operations(doc)
      for (const [name, operation] of documented) assert.equal(operation.operationId, OPERATION_IDS[name], name)
      assert.deepEqual([...documented.keys()].sort(), Object.keys(OPERATION_IDS).sort())
      const ids = Object.values(OPERATION_IDS)
      assert.equal(new Set(ids).size, ids.length, 'operationIds are unique')
      for (const id of ids) assert.match(id, /^[a-z][A-Za-z]+$/, 'an operationId is a camelCase method name')
      assert.equal(documented.get('GET /requests/nearby')?.operationId, 'listNearbyRequests')
    })

    it('declares every tag an operation carries, each with a description, and no tag that none carries', () => {
      const declared = new Map<string, string>(doc.tags.map((tag: { name: string, description: string }) => [tag.name, tag.description]))
      const used = new Set([...operations(doc).values()].flatMap((operation) => operation.tags ?? []))
      assert.deepEqual([...used].sort(), [...declared.keys()].sort())
      for (const [name, description] of declared) assert.ok(typeof description === 'string' && description.length > 0, `${name} is described`)
    })

    it('has one relative server, so the paths (which hold /api/v1) resolve against where the document was read', async () => {
      assert.deepEqual(doc.servers.map((server: { url: string }) => server.url), ['/'])
      const health = await t.app.inject({ method: 'GET', url: new URL('api/v1/health', `http://service${doc.servers[0].url}`).pathname })
      assert.equal(health.statusCode, 200)
    })
  })
}
