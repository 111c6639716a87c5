import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { it } from 'node:test'
import { API_TYPES_FILE, apiTypes } from '../../scripts/web-api-types.js'

it('web/src/api/schema.d.ts matches the OpenAPI document (else: npm run web:api-types)', async () => {
  assert.equal(await readFile(API_TYPES_FILE, 'utf8'), await apiTypes(), 'web/src/api/schema.d.ts is stale: run npm run web:api-types')
})
