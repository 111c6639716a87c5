import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import fc from 'fast-check'
import { startApp, type TestApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'

/** Fixed in CI so a failure reproduces; FUZZ_SEED explores other inputs locally. */
const SEED = Number(process.env.FUZZ_SEED ?? 20261121)
const RUNS = Number(process.env.FUZZ_RUNS ?? 30)

interface Operation { method: string, path: string, bodyFields: string[], queryFields: string[], streaming: boolean }

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** Strings a careless or hostile client sends: SQL, NUL, unicode, huge numbers as text, path tricks. */
const nastyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom("'; DROP TABLE users; --", '" OR 1=1 --', '\u0000', 'a\u0000b', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ✓ 🧑‍🦽', '\uD800', '../../etc/passwd',
    '%00', '1e309', '-0', 'NaN', 'Infinity', '9007199254740993', '0x10', ' 1 ', '', ' ')
)
const nastyValue: fc.Arbitrary<Json> = fc.oneof(
  nastyString,
  fc.double(),
  fc.integer(),
  fc.constantFrom(0, -1, 1e308, -1e308, 2 ** 63, Number.MAX_SAFE_INTEGER + 2),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>
)

/** A body of the operation's own fields with hostile values, or something that is not such a body at all. */
function bodyFor (op: Operation): fc.Arbitrary<{ payload: string }> {
  const fields = [...op.bodyFields, 'requester_id', 'is_blocked', 'role', '__proto__', 'constructor']
  const shaped = fc.dictionary(fc.constantFrom(...fields), nastyValue, { maxKeys: fields.length })
  return fc.oneof(
    shaped.map((body) => ({ payload: JSON.stringify(body) })),
    fc.jsonValue({ maxDepth: 4 }).map((body) => ({ payload: JSON.stringify(body) })),
    fc.string({ unit: 'binary', maxLength: 60 }).map((text) => ({ payload: text })),
    fc.constantFrom('{', '[]', 'null', '"text"', '{"a":', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{}}}')
      .map((text) => ({ payload: text }))
  )
}

/** Percent-encodes; a lone surrogate becomes the invalid UTF-8 it would be, which the server must refuse cleanly. */
const urlEncode = (text: string): string => {
  try {
    return encodeURIComponent(text)
  } catch {
    return '%ED%A0%80'
  }
}

function segment (existingIds: number[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...existingIds.map(String)),
    fc.nat().map(String),
    nastyString.map(urlEncode)
  )
}

function assertWellFormed (op: Operation, status: number, type: string, body: string): void {
  const where = `${op.method} ${op.path} → ${status} ${body.slice(0, 200)}`
  assert.ok(status < 500, `server error: ${where}`)
  if (status >= 400) {
    assert.match(type, /application\/json/, where)
    const parsed = JSON.parse(body) as Record<string, unknown>
    assert.deepEqual(Object.keys(parsed), ['error'], where)
    assert.equal(typeof parsed.error, 'string', where)
    assert.ok((parsed.error as string).length > 0, where)
    assert.ok(!/\bat .+\(.+:\d+:\d+\)|SELECT |INSERT |UPDATE |relation "|syntax error/i.test(parsed.error as string), `leaks internals: ${where}`)
  }
}

for (const engine of engines()) {
  describe(`fuzzing every operation of the OpenAPI document (${engine})`, () => {
    let t: TestApp
    let operations: Operation[]
    const tokens: (string | undefined)[] = [undefined, 'not-a-token']
    const ids: number[] = []

    before(async () => {
      t = await startApp(engine)
      const volunteer = await t.register()
      const moderator = await t.registerWithRole('moderator')
      tokens.push(volunteer.token, moderator.token, t.admin.token)
      const created = await t.post('/requests', {
        request_type_id: 1, title: 'Fuzz target', description: 'A request the fuzzer may poke at', latitude: 1, longitude: 2, address: 'Somewhere', urgency: 'low',
      }, volunteer.token)
      assert.equal(created.status, 201)
      ids.push(volunteer.id, moderator.id, t.admin.id, created.body.id as number, 1, 2, 3)

      const document = t.app.swagger() as { paths: Record<string, Record<string, { requestBody?: any, parameters?: any[], responses?: any }>> }
      operations = Object.entries(document.paths).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, spec]) => ({
          method: method.toUpperCase(),
          path,
          bodyFields: Object.keys(spec.requestBody?.content?.['application/json']?.schema?.properties ?? {}),
          queryFields: (spec.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name as string),
          // The event stream never ends by itself: only its head is read (below).
          streaming: spec.responses?.['200']?.content?.['text/event-stream'] !== undefined,
        })))
      assert.ok(operations.length >= 25, `expected the whole API in the document, found ${operations.length} operations`)
    })
    after(() => t.close())

    it('never answers 5xx, and every error is exactly {"error": text}', async () => {
      for (const op of operations) {
        const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string)
        await fc.assert(fc.asyncProperty(
          fc.tuple(...names.map(() => segment(ids))),
          op.method === 'GET' || op.method === 'DELETE' ? fc.constant(undefined) : fc.option(bodyFor(op), { nil: undefined }),
          fc.dictionary(fc.constantFrom(...op.queryFields, 'limit', 'offset', 'x'), nastyString.map(urlEncode), { maxKeys: 6 }),
          fc.constantFrom(...tokens),
          async (values, body, query, token) => {
            let url = op.path
            names.forEach((name, i) => { url = url.replace(`{${name}}`, values[i] ?? '1') })
            const search = Object.entries(query).map(([key, value]) => `${key}=${value}`).join('&')
            const res = await t.app.inject({
              method: op.method as 'GET',
              url: search === '' ? url : `${url}?${search}`,
              headers: {
                ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
                ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
              },
              ...(body !== undefined ? { payload: body.payload } : {}),
              payloadAsStream: op.streaming,
            })
            const type = String(res.headers['content-type'] ?? '')
            if (op.streaming) {
              const stream = res.stream()
              if (res.statusCode === 200) {
                assert.match(type, /^text\/event-stream/)
                stream.destroy()
                return
              }
              let text = ''
              for await (const chunk of stream) text += String(chunk)
              assertWellFormed(op, res.statusCode, type, text)
              return
            }
            assertWellFormed(op, res.statusCode, type, res.body)
          }
        ), { seed: SEED, numRuns: RUNS })
      }
    })

    it('gives text back exactly as it was sent, whatever its characters', async () => {
      const user = await t.register()
      const storable = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 200 }).filter((text) => !text.includes('\u0000') && /\S/.test(text))
      await fc.assert(fc.asyncProperty(storable, fc.constantFrom("Robert'); DROP TABLE requests;--", '\\x00 \\\\ %s %n', '<script>alert(1)</script>'), async (text, sql) => {
        const bio = `${sql} ${text}`.slice(0, 500)
        assert.equal((await t.patch('/users/me', { bio, city: text.slice(0, 200) }, user.token)).status, 200)
        const me = await t.get('/users/me', user.token)
        assert.equal(me.body.bio, bio)
        assert.equal(me.body.city, text.slice(0, 200))
      }), { seed: SEED, numRuns: RUNS })
    })

    it('refuses deeply nested and oversized JSON with a 4xx', async () => {
      const deep = '['.repeat(20_000) + ']'.repeat(20_000)
      const nested = await t.request('POST', '/auth/login', { payload: deep, headers: { 'content-type': 'application/json' } })
      assert.equal(nested.status, 400)
      const wide = JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(70 * 1024) })
      const big = await t.request('POST', '/auth/login', { payload: wide, headers: { 'content-type': 'application/json' } })
      assert.deepEqual([big.status, big.body], [413, { error: 'request body is too large' }])
    })
  })
}
