import type { FastifyInstance, FastifyRequest } from 'fastify'
import { badRequest, INVALID_BODY } from '../lib/errors.js'

// With the `u` flag a surrogate pair is one code point, so \p{Cs} matches only a lone half.
// eslint-disable-next-line no-control-regex -- U+0000 is what it looks for
const UNSTORABLE = /\u0000|\p{Cs}/u

/**
 * Whether a text can be stored as sent: PostgreSQL text holds no U+0000, and a lone surrogate
 * (a JSON body may write one as `\ud800`) has no UTF-8 form, so a driver would store U+FFFD instead.
 */
export const isStorableText = (text: string): boolean => !UNSTORABLE.test(text)

/** The first place in `value` holding text that cannot be stored: its dotted field path ('' for a key), or undefined. */
export function unstorableField (value: unknown): string | undefined {
  // Iterative: a deeply nested body must not exhaust the stack.
  const stack: { item: unknown, path: string }[] = [{ item: value, path: '' }]
  while (stack.length > 0) {
    const { item, path } = stack.pop()!
    if (typeof item === 'string') {
      if (!isStorableText(item)) return path
    } else if (typeof item === 'object' && item !== null) {
      const list = Array.isArray(item)
      for (const [key, child] of Object.entries(item)) {
        // A bad key names no field that could be shown back: it is the part's fault as a whole.
        if (!isStorableText(key)) return ''
        // Within a list the list is the field (`email.types`, not `email.types.2`).
        stack.push({ item: child, path: list ? path : path === '' ? key : `${path}.${key}` })
      }
    }
  }
  return undefined
}

const WHOLE: Record<string, string> = { body: INVALID_BODY, params: 'malformed url' }

/** The schema keyword that marks a query parameter whose bad values mean its default (pagination.ts). */
export const FALLBACK = 'x-fallback'

type PartSchema = { properties?: Record<string, Record<string, unknown>> } | undefined

/**
 * The query parameters the rule checks: those the route declares, but the ones that fall back to a
 * default. Others are ignored by the route as they are by the rule, so none of them reaches the database.
 */
export function checkedParameters (schema: PartSchema): string[] {
  return Object.entries(schema?.properties ?? {}).filter(([, property]) => property[FALLBACK] !== true).map(([name]) => name)
}

const checkedByRoute = new WeakMap<object, string[]>()

function checkedQuery (request: FastifyRequest): Record<string, unknown> {
  const schema = request.routeOptions.schema?.querystring as PartSchema
  if (schema === undefined) return {}
  let names = checkedByRoute.get(schema)
  if (names === undefined) checkedByRoute.set(schema, names = checkedParameters(schema))
  const query = request.query as Record<string, unknown>
  return Object.fromEntries(names.filter((name) => query[name] !== undefined).map((name) => [name, query[name]]))
}

/** The field's `invalid …` text: the route's own where it has one (`invalid user id`), else `invalid <field>`. */
function invalidText (field: string, messages: Record<string, string> | undefined): string {
  const own = messages?.[field]
  return own?.startsWith('invalid ') === true ? own : `invalid ${field}`
}

/**
 * One rule for every text a request carries, before any route's validation: body, query parameters and
 * path parameters alike, so no route can let such a text through to the database.
 */
export function registerTextRule (app: FastifyInstance): void {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const parts = { params: request.params, querystring: checkedQuery(request), body: request.body }
    for (const [part, value] of Object.entries(parts)) {
      const field = unstorableField(value)
      if (field === undefined) continue
      throw badRequest(field === '' ? WHOLE[part]! : invalidText(field, request.routeOptions.config.messages))
    }
  })
}
