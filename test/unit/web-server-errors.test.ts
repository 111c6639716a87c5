import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { it } from 'node:test'
import { SERVER_ERRORS, UNSTORABLE, type Meaning } from '../../web/src/i18n/server-error-texts.js'

const ROOT = new URL('../../', import.meta.url).pathname

/** Texts of calls the web app never makes (it refreshes through the session route and never exports or erases an account). */
const NOT_CALLED_BY_THE_APP = new Set([
  'refresh_token is required', // POST /auth/refresh: the app uses the session route
  'permission_name is required', // GET /users/me/permissions/{name}/check
  'withdraw from your assigned requests first', // account erasure
  'the last admin cannot be erased',
  'too many open streams', // the event stream: live-events.ts reconnects, it shows no text
])

/** Texts like "bio must be at most 500 characters long" are shown beside their field (errors.fieldServer). */
const FIELD_FIRST = /^[a-z_]+ must /

function sourceFiles (dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

/**
 * Every `{"error"}` text of a 4xx the service can write, read from its source: the throw helpers of
 * src/lib/errors.ts (with a literal or a named constant), `new AppError`, the routes' `messages` and
 * the error handler's own texts. Texts built from a template are left out (the catalogue names their cases).
 */
function clientErrorTexts (): Set<string> {
  const sources = sourceFiles(join(ROOT, 'src')).map((file) => readFileSync(file, 'utf8'))
  // Every text a constant's name stands for anywhere (two modules may use one name for different texts).
  const constants = new Map<string, string[]>()
  for (const source of sources) {
    for (const [, name, text] of source.matchAll(/const ([A-Z_]+) = '((?:[^'\\]|\\.)+)'/g)) constants.set(name!, [...constants.get(name!) ?? [], text!])
  }
  const unescape = (text: string) => text.replaceAll("\\'", "'")
  const texts = new Set<string>()
  const add = (literal: string | undefined, name: string | undefined) => {
    for (const text of literal !== undefined ? [literal] : constants.get(name!) ?? []) texts.add(unescape(text))
  }
  for (const source of sources) {
    for (const match of source.matchAll(/\b(?:badRequest|forbidden|notFound|unauthorized)\(\s*(?:'((?:[^'\\]|\\.)+)'|([A-Z_]+)\))/g)) add(match[1], match[2])
    for (const match of source.matchAll(/new AppError\(4\d\d, (?:'((?:[^'\\]|\\.)+)'|([A-Z_]+)\))/g)) add(match[1], match[2])
    for (const match of source.matchAll(/send\(reply[^,]*, 4\d\d, '([^']+)'\)/g)) add(match[1], undefined)
    for (const [, body] of source.matchAll(/(?:messages|MESSAGES)[^=\n]*[:=] *\{([^}]*)\}/g)) {
      for (const match of body!.matchAll(/: *(?:'((?:[^'\\]|\\.)+)'|([A-Z_]+)\b)/g)) add(match[1], match[2])
    }
  }
  return texts
}

it('the web app knows every error text the service can send it, to a message in English and German', () => {
  const texts = clientErrorTexts()
  // The extraction itself still finds texts of each kind (a change of style in src/ would silently empty it).
  for (const sample of ['cannot block yourself', 'invalid radius', 'request not found', 'invalid request body', 'too many requests, try again later']) {
    assert.ok(texts.has(sample), `extraction no longer finds ${JSON.stringify(sample)}`)
  }
  const unknown = [...texts].filter((text) => SERVER_ERRORS[text] === undefined && !FIELD_FIRST.test(text) && !NOT_CALLED_BY_THE_APP.has(text))
  assert.deepEqual(unknown.sort(), [], 'texts missing from web/src/i18n/server-errors.ts')

  for (const language of ['en', 'de']) {
    const words = JSON.parse(readFileSync(join(ROOT, `web/src/i18n/${language}.json`), 'utf8'))
    const missing = Object.values(SERVER_ERRORS).flatMap((entry) => (Array.isArray(entry) ? entry : [entry]) as Meaning[])
      .filter(({ key }) => typeof key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], words) !== 'string')
      .map(({ key }) => key)
    assert.deepEqual(missing, [], `${language}: message keys of the catalogue without words`)
  }
})

it('an `invalid <field>` the catalogue does not list (characters that cannot be stored) names the form\'s field', () => {
  const field = (text: string) => SERVER_ERRORS[text] === undefined ? UNSTORABLE.exec(text)?.[1] : undefined
  assert.equal(field('invalid bio'), 'bio')
  assert.equal(field('invalid template.title'), 'title')
  assert.equal(field('invalid email.types'), 'types')
  assert.equal(field('invalid phone'), undefined, 'a catalogued text keeps its own meaning')
  assert.equal(field('bio must be at most 500 characters long'), undefined)
})
