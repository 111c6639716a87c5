import type { FastifyInstance } from 'fastify'
import { AppError, INVALID_BODY } from '../lib/errors.js'

/**
 * JSON is UTF-8 (RFC 8259): bytes that are not would be read as U+FFFD and stored so, silently
 * changing what the client sent. `ignoreBOM` keeps a leading BOM for the JSON parser, which skips it as before.
 */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/**
 * JSON bodies: invalid UTF-8 and prototype-poisoning keys refused, an empty body read as no body (so a
 * client that sends the header on a body-less POST is not refused), and only JSON accepted (others get 415).
 * Texts that cannot be stored (U+0000, lone surrogates) are refused by the rule over every part (text.ts).
 */
export function registerJsonParser (app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    if (body.length === 0) return done(null, undefined)
    let text: string
    try {
      text = utf8.decode(body as Buffer)
    } catch {
      return done(new AppError(400, INVALID_BODY), undefined)
    }
    // eslint-disable-next-line @typescript-eslint/no-floating-promises -- the parser answers through its callback
    parseJson(request, text, (error: Error | null, value?: unknown) => {
      if (error !== null) return done(new AppError(400, INVALID_BODY), undefined)
      done(null, value)
    })
  })
}
