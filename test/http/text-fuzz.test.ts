import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import fc from 'fast-check'
import { startApp, type TestApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'

/**
 * Texts the database cannot store (U+0000, lone surrogates) and dates outside 1900-2100, put into every
 * text field of every operation's body, query and path as the OpenAPI document lists them: each is a
 * 400 `invalid …`, never a 5xx. Bounded runs (FUZZ_RUNS per operation) keep it to seconds.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261202)
const RUNS = Number(process.env.FUZZ_RUNS ?? 6)

type Part = 'body' | 'query' | 'path'
/** Where a text goes: the part, the field's path in it (`template.title`), and whether it sits in a list. */
interface Spot { part: Part, path: string[], list: boolean, date: boolean, fallback?: boolean }
interface Operation { method: string, path: string, spots: Spot[], streaming: boolean }

type Schema = Record<string, any>

const branches = (schema: Schema): Schema[] => [schema, ...((schema.anyOf ?? schema.oneOf ?? []) as Schema[])]
const types = (schema: Schema): string[] => branches(schema).flatMap((s) => [s.type ?? []].flat() as string[])
const takesText = (schema: Schema): boolean => types(schema).includes('string') || (types(schema).length === 0 && schema.properties === undefined)
const isDate = (schema: Schema): boolean => branches(schema).some((s) => s.format === 'date' || s.format === 'date-time')

/** Every text-taking place of a body schema, two levels of objects deep. */
function bodySpots (schema: Schema | undefined, path: string[] = [], depth = 0): Spot[] {
  if (schema === undefined || depth > 2) return []
  return Object.entries((branches(schema).find((s) => s.properties !== undefined)?.properties ?? {}) as Record<string, Schema>).flatMap(([name, field]) => {
    const at = [...path, name]
    const inner = branches(field).find((s) => s.properties !== undefined)
    const items = branches(field).find((s) => s.items !== undefined)?.items as Schema | undefined
    return [
      ...(takesText(field) ? [{ part: 'body' as const, path: at, list: false, date: isDate(field) }] : []),
      ...(items !== undefined && takesText(items) ? [{ part: 'body' as const, path: at, list: true, date: false }] : []),
      ...(inner !== undefined ? bodySpots(inner, at, depth + 1) : []),
    ]
  })
}

/** Text around the bad character: any code points in a body, well-formed ones in a URL (which cannot carry a lone half). */
const around = (part: Part) => part === 'body' ? fc.string({ unit: 'binary', maxLength: 12 }) : fc.string({ unit: 'grapheme', maxLength: 12 })
const badChar = (part: Part) => part === 'body' ? fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff') : fc.constant('\u0000')
const badText = (part: Part) => fc.tuple(around(part), badChar(part), around(part)).map(([a, bad, b]) => `${a}${bad}${b}`)

/** A date before 1900 or after 2100, as a date or as a date-time. */
const farDate = fc.tuple(fc.oneof(fc.integer({ min: 0, max: 1899 }), fc.integer({ min: 2101, max: 9999 })), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }), fc.boolean())
  .map(([year, month, day, time]) => `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}${time ? 'T10:00:00Z' : ''}`)

/** The body holding `value` at the spot's path. */
function bodyWith (spot: Spot, value: string): unknown {
  let body: unknown = spot.list ? [value] : value
  for (const name of [...spot.path].reverse()) body = { [name]: body }
  return body
}

for (const engine of engines()) {
  describe(`every text field of every operation refuses what cannot be stored (${engine})`, () => {
    let t: TestApp
    let operations: Operation[]
    before(async () => {
      t = await startApp(engine)
      const document = t.app.swagger() as { paths: Record<string, Record<string, { requestBody?: any, parameters?: any[], responses?: any }>> }
      operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, spec]) => ({
        method: method.toUpperCase(),
        path,
        spots: [
          ...bodySpots(spec.requestBody?.content?.['application/json']?.schema),
          ...(spec.parameters ?? []).filter((p) => p.in === 'query' || p.in === 'path')
            .map((p): Spot => ({ part: p.in === 'path' ? 'path' : 'query', path: [p.name as string], list: false, date: isDate(p.schema ?? {}), fallback: p.schema?.['x-fallback'] === true })),
        ],
        streaming: spec.responses?.['200']?.content?.['text/event-stream'] !== undefined,
      })))
      assert.ok(operations.length >= 80, `expected the whole API in the document, found ${operations.length} operations`)
      assert.ok(operations.filter((op) => op.spots.length > 0).length >= 50, 'expected most operations to take some text')
    })
    after(() => t.close())

    /** Sends `value` at the spot (every other path parameter an existing id); the answer's status and body. */
    async function send (op: Operation, spot: Spot, value: string): Promise<{ status: number, text: string }> {
      let url = op.path.replace(/\{(\w+)\}/g, (_match, name: string) => spot.part === 'path' && spot.path[0] === name ? encodeURIComponent(value) : '1')
      if (spot.part === 'query') url += `?${spot.path[0]!}=${encodeURIComponent(value)}`
      const body = spot.part === 'body' ? JSON.stringify(bodyWith(spot, value)) : undefined
      const res = await t.app.inject({
        method: op.method as 'GET',
        url,
        headers: { authorization: `Bearer ${t.admin.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { payload: body } : {}),
        payloadAsStream: op.streaming,
      })
      if (!op.streaming) return { status: res.statusCode, text: res.body }
      const stream = res.stream()
      if (res.statusCode === 200) {
        stream.destroy()
        return { status: 200, text: '' }
      }
      let text = ''
      for await (const chunk of stream) text += String(chunk)
      return { status: res.statusCode, text }
    }

    const where = (op: Operation, spot: Spot, value: string, status: number, text: string) =>
      `${op.method} ${op.path} ${spot.part} ${spot.path.join('.')}=${JSON.stringify(value)} → ${status} ${text.slice(0, 200)}`

    it('U+0000 or a lone surrogate anywhere: 400 `invalid …` naming the field, before any other check', async () => {
      for (const op of operations) {
        if (op.spots.length === 0) continue
        await fc.assert(fc.asyncProperty(fc.constantFrom(...op.spots).chain((spot) => fc.tuple(fc.constant(spot), badText(spot.part))), async ([spot, value]) => {
          const { status, text } = await send(op, spot, value)
          if (spot.fallback === true) {
            // limit, offset and their like mean their default for any bad value (interface › Limits): never refused for it.
            assert.ok(status < 500 && !text.includes(`invalid ${spot.path[0]!}`), where(op, spot, value, status, text))
            return
          }
          assert.equal(status, 400, where(op, spot, value, status, text))
          const error = (JSON.parse(text) as { error: string }).error
          // The field by name, or the route's own `invalid …` text for it or its object (`invalid user id`, `invalid type`, `invalid consent`).
          assert.match(error, /^invalid \S/, where(op, spot, value, status, text))
          if (spot.part !== 'path' && !spot.path.some((name) => error.includes(name.replace(/s$/, '')))) {
            assert.fail(`the text names another field: ${where(op, spot, value, status, text)}`)
          }
        }), { seed: SEED, numRuns: RUNS })
      }
    })

    it('a date before 1900 or after 2100 in any date field: 400, never a 5xx', async () => {
      const dated = operations.flatMap((op) => op.spots.filter((spot) => spot.date || /^(from|to)$/.test(spot.path.at(-1)!)).map((spot) => ({ op, spot })))
      assert.ok(dated.length >= 5, `expected the date fields in the document, found ${dated.length}`)
      for (const { op, spot } of dated) {
        await fc.assert(fc.asyncProperty(farDate, async (value) => {
          const { status, text } = await send(op, spot, value)
          assert.ok(status < 500, where(op, spot, value, status, text))
          // Some operations refuse the call before the field (a missing id, another field required): a 4xx then.
          assert.ok(status >= 400, `accepted: ${where(op, spot, value, status, text)}`)
        }), { seed: SEED, numRuns: RUNS })
      }
    })
  })
}
