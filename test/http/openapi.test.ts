import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Ajv } from 'ajv'
import { buildApp } from '../../src/app.js'
import { openPglite } from '../../src/db/pglite.js'
import { EXTENSION_TAG } from '../../src/http/openapi.js'
import { addFormats } from '../../src/lib/ajv-formats.js'
import { TEST_SECRET, testConfig, type TestApp } from '../helpers/app.js'
import { assertStatus } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'
import { startWithDocument } from '../helpers/openapi.js'
import { PUBLIC } from './authorization-matrix/rows.js'

/** Every operation of interface 1.0.1, as `METHOD /path` in OpenAPI's path syntax. */
const INTERFACE_OPERATIONS = [
  'GET /health', 'POST /auth/register', 'POST /auth/login', 'POST /auth/refresh', 'GET /auth/me', 'POST /auth/logout',
  'GET /users/me', 'PATCH /users/me', 'POST /users/me/location', 'POST /users/me/verify-email', 'GET /users/me/roles',
  'GET /users/me/permissions', 'GET /users/me/permissions/{permission_name}/check', 'GET /users/{id}', 'GET /request-types',
  'POST /requests', 'GET /requests/my', 'GET /requests/nearby', 'GET /requests/bounds', 'GET /requests/{id}',
  'POST /requests/{id}/complete', 'GET /requests/{id}/responses', 'POST /requests/{id}/responses',
  'POST /requests/{id}/responses/{response_id}/accept', 'GET /moderation/requests/pending', 'GET /moderation/requests/my',
  'POST /moderation/requests/{id}/approve', 'POST /moderation/requests/{id}/reject', 'POST /moderation/requests/{id}/moderate',
  'POST /admin/users/{user_id}/roles/{role_id}',
]

/** The operations of this area: all must be documented. */
const ACCOUNT_OPERATIONS = INTERFACE_OPERATIONS.slice(0, 15).concat('POST /admin/users/{user_id}/roles/{role_id}')
const ACCOUNT_EXTENSIONS = [
  'GET /roles', 'DELETE /admin/users/{user_id}/roles/{role_id}', 'POST /admin/users/{id}/block',
  'POST /admin/users/{id}/unblock', 'POST /admin/users/{id}/verify',
]
/** docs/api/accounts.md › Tokens: everything else needs a token (the one list of them is the authorization matrix's). */
const PUBLIC_OPERATIONS: readonly string[] = PUBLIC

interface Operation {
  requestBody?: { required?: boolean, content?: Record<string, { schema: any }> }
  tags?: string[]
  security?: unknown[]
  responses: Record<string, { content?: Record<string, { schema: any }>, headers?: Record<string, unknown> }>
  'x-beyond-1.0.1'?: boolean
}

function operations (doc: any): Map<string, Operation> {
  const found = new Map<string, Operation>()
  for (const [path, item] of Object.entries<Record<string, Operation>>(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      found.set(`${method.toUpperCase()} /${path.replace(/^\/api\/v1\/?/, '')}`, operation)
    }
  }
  return found
}

for (const engine of engines()) {
  describe(`OpenAPI document and reference page (${engine})`, () => {
    let t: TestApp
    let doc: any
    before(async () => { ({ t, doc } = await startWithDocument(engine)) })
    after(() => t.close())

    it('is OpenAPI 3.1.0 for interface version 1.0.1', () => {
      assert.equal(doc.openapi, '3.1.0')
      assert.equal(doc.info.version, '1.0.1')
      assert.equal(typeof doc.info.title, 'string')
      assert.deepEqual(doc.components.securitySchemes.bearer, { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    })

    it('documents every operation of this area, all under /api/v1', () => {
      assert.ok(Object.keys(doc.paths).every((path) => path === '/api/v1' || path.startsWith('/api/v1/')))
      const documented = operations(doc)
      for (const operation of [...ACCOUNT_OPERATIONS, ...ACCOUNT_EXTENSIONS]) assert.ok(documented.has(operation), `${operation} is documented`)
    })

    it('every operation has tags and documents its error responses as {"error": string}', () => {
      for (const [name, operation] of operations(doc)) {
        assert.ok((operation.tags ?? []).length > 0, `${name} has tags`)
        const errorStatuses = Object.keys(operation.responses).filter((status) => /^[45]/.test(status))
        assert.ok(errorStatuses.length > 0, `${name} documents error responses`)
        for (const status of errorStatuses) {
          const schema = operation.responses[status]?.content?.['application/json']?.schema
          assert.deepEqual(schema?.required, ['error'], `${name} ${status}`)
          assert.equal(schema?.properties?.error?.type, 'string', `${name} ${status}`)
        }
      }
    })

    it('extensions carry the beyond-1.0.1 tag and x-beyond-1.0.1; interface operations carry neither', () => {
      const documented = operations(doc)
      for (const name of ACCOUNT_EXTENSIONS) {
        const operation = documented.get(name)!
        assert.ok(operation.tags?.includes(EXTENSION_TAG), `${name} is tagged ${EXTENSION_TAG}`)
        assert.equal(operation['x-beyond-1.0.1'], true, name)
      }
      for (const [name, operation] of documented) {
        const tagged = operation.tags?.includes(EXTENSION_TAG) === true
        assert.equal(tagged, operation['x-beyond-1.0.1'] === true, `${name}: tag and flag agree`)
        if (INTERFACE_OPERATIONS.includes(name)) assert.equal(tagged, false, `${name} is part of 1.0.1`)
        else assert.equal(tagged, true, `${name} is not in interface 1.0.1, so it is marked as an extension`)
      }
      assert.ok(doc.tags.some((tag: any) => tag.name === EXTENSION_TAG))
    })

    it('protected operations declare bearer security; the public ones declare none, as an empty list', () => {
      for (const [name, operation] of operations(doc)) {
        const expected = PUBLIC_OPERATIONS.includes(name) ? [] : [{ bearer: [] }]
        assert.deepEqual(operation.security, expected, name)
      }
    })

    it('is not stricter than the service: bodies allow unknown fields, body-less writes allow {}, 400/413/415 on every write', () => {
      for (const [name, operation] of operations(doc)) {
        const body = operation.requestBody?.content?.['application/json']?.schema
        // The service ignores unknown body fields (validation.ts); the document must let a client send them.
        assert.notEqual(body?.additionalProperties, false, `${name}: unknown body fields are ignored, not refused`)
        if (name.startsWith('GET ')) continue
        assert.ok(operation.requestBody !== undefined, `${name} declares a body`)
        for (const status of ['400', '413', '415']) assert.ok(operation.responses[status] !== undefined, `${name} declares ${status}`)
      }
      for (const name of ['POST /requests/{id}/cancel', 'POST /admin/users/{id}/block', 'POST /admin/users/{id}/unblock', 'POST /admin/users/{id}/verify', 'POST /requests/{id}/responses/{response_id}/reject', 'POST /requests/{id}/responses', 'DELETE /users/me']) {
        assert.equal(operations(doc).get(name)?.requestBody?.required, false, `${name}: the body may be left out`)
      }
      assert.equal(operations(doc).get('POST /requests')?.requestBody?.required, true)
    })

    it('declares 429 with Retry-After exactly on the rate-limited operations', () => {
      const limited = ['POST /auth/login', 'POST /auth/register', 'POST /auth/refresh', 'POST /session', 'POST /session/register', 'POST /session/refresh', 'DELETE /users/me', 'GET /events', 'POST /concerns',
        // docs/api/accounts.md › Getting back in
        'POST /auth/password-reset', 'POST /auth/password-reset/confirm', 'POST /auth/code', 'POST /auth/code/confirm', 'POST /session/password-reset/confirm',
        'POST /session/code/confirm', 'POST /users/me/verify-email', 'POST /users/me/verify-email/resend', 'POST /users/me/password', 'POST /session/password',
        // docs/api/messaging.md › Texts
        'POST /users/me/phone/verify', 'POST /users/me/phone/verify/confirm']
      for (const [name, operation] of operations(doc)) {
        assert.equal(operation.responses['429'] !== undefined, limited.includes(name), name)
      }
      assert.ok(operations(doc).get('POST /auth/login')?.responses['429']?.headers?.['retry-after'])
    })

    it('takes e-mail addresses as the service does: the email form, with white space around it', () => {
      const email = operations(doc).get('POST /auth/register')?.requestBody?.content?.['application/json']?.schema.properties.email
      assert.equal(email.format, undefined)
      const pattern = new RegExp(email.pattern, 'u')
      const format = addFormats(new Ajv()).compile({ type: 'string', format: 'email', maxLength: 254 })
      const samples = ['a@b.org', 'A.B@Example.ORG', ' a@b.org\t', 'a@b', 'a b@c.org', '', 'a@-b.org', 'a..b@c.org', 'ä@b.org', "o'k+x@s.ex-ample.com",
        `${'x'.repeat(242)}@example.org`, `${'x'.repeat(243)}@example.org`, `  ${'x'.repeat(242)}@example.org \n`]
      for (const sample of samples) assert.equal(pattern.test(sample), format(sample.trim()), JSON.stringify(sample))
    })

    it('/api/v1/docs is an HTML page whose scripts and styles the service serves itself', async () => {
      const page = await t.get('/docs')
      assertStatus(page, 200)
      assert.match(String(page.headers['content-type']), /^text\/html/)
      const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!)
      assert.ok(assets.some((url) => url.endsWith('.js')), 'the page loads scripts')
      assert.ok(assets.some((url) => url.endsWith('.css')), 'the page loads styles')
      for (const url of assets) {
        assert.ok(url.startsWith('/api/v1/docs/'), `${url} is served locally`)
        const asset = await t.app.inject({ method: 'GET', url })
        assert.equal(asset.statusCode, 200, url)
        if (url.endsWith('.js')) assert.match(String(asset.headers['content-type']), /javascript/)
        if (url.endsWith('.css')) assert.match(String(asset.headers['content-type']), /^text\/css/)
        // Nothing the page runs reaches out to another host (no CDN, no online validator).
        if (url.endsWith('initializer.js')) assert.doesNotMatch(asset.body, /validatorUrl: *["']http/)
      }
      // The initializer loads the document from ./json beside the page.
      const initializer = await t.get('/docs/static/swagger-initializer.js')
      assert.match(initializer.text, /resolveUrl\('\.\/json'\)/)
      const served = await t.get('/docs/json')
      assertStatus(served, 200)
      assert.deepEqual(served.body.paths, doc.paths)
    })
  })
}

describe('route declarations', () => {
  it('an /api/v1 route that declares no config.auth, or has no operationId, is refused when it is added', async () => {
    const db = await openPglite(undefined)
    const app = await buildApp({ config: testConfig(), db, jwtSecret: TEST_SECRET })
    try {
      assert.throws(() => app.get('/api/v1/unguarded', async () => 'open'), /declares no config\.auth/)
      assert.throws(() => app.get('/api/v1/unnamed/:id', { config: { auth: 'user' } }, async () => 'open'), /GET \/unnamed\/\{id\} has no operationId/)
    } finally {
      await app.close()
      await db.close()
    }
  })
})
