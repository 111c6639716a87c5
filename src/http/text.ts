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

const WHOLE: Record<string, string> = { body: INVALID_BODY, querystring: 'invalid query', params: 'malformed url' }

/** The field's `invalid …` text: the route's own where it has one (`invalid user id`), else `invalid <field>`. */
function invalidText (field: string, messages: Record<string, string> | undefined): string {
  const own = messages?.[field]
  return own?.startsWith('invalid ') === true ? own : `invalid ${field}`
}

/**
 * One rule for every text a request carries, before any route's validation: body, query string and
 * path parameters alike, so no route can let such a text through to the database.
 */
export function registerTextRule (app: FastifyInstance): void {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const parts = { params: request.params, querystring: request.query, body: request.body }
    for (const [part, value] of Object.entries(parts)) {
      const field = unstorableField(value)
      if (field === undefined) continue
      throw badRequest(field === '' ? WHOLE[part]! : invalidText(field, request.routeOptions.config.messages))
    }
  })
}
