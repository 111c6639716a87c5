import { Ajv, type ValidateFunction } from 'ajv'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { addFormats } from '../../src/lib/ajv-formats.js'
import { API_PREFIX } from '../../src/http/openapi.js'

/**
 * Every exchange of the HTTP tests checked against the service's own OpenAPI document, so that the
 * document cannot drift from what the service does: the status must be declared for the
 * operation, a JSON or text body must match the schema declared for that status and content type, and
 * a request the service accepted (status below 400) must be one the document allows, so the document
 * is never stricter than the service. Only documented /api/v1 operations are checked; streams (SSE)
 * are checked for status and content type only. A mismatch is thrown on the next tick, which fails
 * the test that was running, with the method, path template and status in the message.
 */

interface Media { schema?: object }
interface Operation {
  requestBody?: { required?: boolean, content: Record<string, Media> }
  responses: Record<string, { content?: Record<string, Media> }>
}
interface Document { paths: Record<string, Record<string, Operation>> }

interface Checker {
  /** Operations by `METHOD /template` with the template in OpenAPI form. */
  operations: Map<string, Operation>
  /** Templates as regular expressions, for requests the router did not match (e.g. a 414 on an overlong segment). */
  templates: Array<{ method: string, template: string, pattern: RegExp }>
  validators: Map<string, ValidateFunction>
}

const ajv = addFormats(new Ajv({ strict: false, allErrors: true, validateSchema: false }))
/** One checker per distinct document (apps built with different settings may differ), built once per process. */
const checkers = new Map<string, Checker>()

function checkerFor (doc: Document): Checker {
  const key = JSON.stringify(doc)
  let checker = checkers.get(key)
  if (checker !== undefined) return checker
  checker = { operations: new Map(), templates: [], validators: new Map() }
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      checker.operations.set(`${method.toUpperCase()} ${template}`, operation)
      const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`)
      checker.templates.push({ method: method.toUpperCase(), template, pattern })
    }
  }
  checkers.set(key, checker)
  return checker
}

function validator (checker: Checker, key: string, schema: object): ValidateFunction {
  let validate = checker.validators.get(key)
  if (validate === undefined) {
    validate = ajv.compile(schema)
    checker.validators.set(key, validate)
  }
  return validate
}

/** `/api/v1/users/:id` → `/api/v1/users/{id}`. */
const openApiTemplate = (url: string): string => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
const mediaType = (header: unknown): string => String(header ?? '').split(';')[0]!.trim().toLowerCase()

function findOperation (checker: Checker, request: FastifyRequest): { name: string, operation: Operation } | undefined {
  // HEAD is answered by the GET route, without a body.
  const method = request.method === 'HEAD' ? 'GET' : request.method
  const routed = request.routeOptions.url
  if (routed !== undefined) {
    const name = `${method} ${openApiTemplate(routed)}`
    const operation = checker.operations.get(name)
    return operation === undefined ? undefined : { name, operation }
  }
  const path = request.url.split('?')[0]!
  const match = checker.templates.find((entry) => entry.method === method && entry.pattern.test(path))
  return match === undefined ? undefined : { name: `${method} ${match.template}`, operation: checker.operations.get(`${method} ${match.template}`)! }
}

const issues = (validate: ValidateFunction): string =>
  JSON.stringify(validate.errors?.map(({ instancePath, message, params }) => `${instancePath || '/'} ${message} ${JSON.stringify(params)}`))

/** What is wrong with the request (when the service accepted it) and the answer, as sentences; empty when both agree with the document. */
function mismatches (checker: Checker, name: string, operation: Operation, exchange: { status: number, type: string, payload: unknown, requestBody: unknown, requestType: string, head: boolean }): string[] {
  const found: string[] = []
  const { status, type, payload } = exchange
  if (status < 400) {
    const declared = operation.requestBody
    if (exchange.requestBody === UNCOPIED) {
      // Nothing to compare.
    } else if (exchange.requestBody === undefined) {
      if (declared?.required === true) found.push('the service accepted a request without a body, but the document requires one')
    } else {
      const media = declared?.content[exchange.requestType]
      if (media === undefined) found.push(`the service accepted a ${exchange.requestType} body, which the document does not declare`)
      else if (media.schema !== undefined) {
        const validate = validator(checker, `${name} request ${exchange.requestType}`, media.schema)
        if (!validate(exchange.requestBody)) found.push(`the service accepted a request body that the document refuses: ${issues(validate)}`)
      }
    }
  }
  const response = operation.responses[String(status)] ?? operation.responses[`${String(status)[0]}XX`] ?? operation.responses.default
  if (response === undefined) return [...found, 'status not declared']
  // A 204 has no body, so no content type goes out with it (Fastify drops both after onSend).
  if (exchange.head || type === '' || status === 204) return found
  const media = response.content?.[type]
  if (media === undefined) return [...found, `content type ${type} not declared`]
  // Streams (Server-Sent Events, files) are not read here.
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return found
  if (media.schema === undefined) return found
  const text = payload.toString()
  let body: unknown = text
  if (type === 'application/json') {
    try {
      body = JSON.parse(text)
    } catch {
      return [...found, 'the body is not JSON']
    }
  }
  const validate = validator(checker, `${name} ${status} ${type}`, media.schema)
  if (!validate(body)) found.push(`the body does not match the declared schema: ${issues(validate)}`)
  return found
}

const RAW_BODY = Symbol('raw request body')
const UNCOPIED = Symbol('body too deep to copy')

/** Installs the check on `app` (before it is ready): every answer of a documented /api/v1 operation is compared with the document. */
export function checkContract (app: FastifyInstance): void {
  let checker: Checker | undefined
  // The body as sent: validation trims e-mails and drops unknown fields in place, after this hook.
  app.addHook('preValidation', async (request) => {
    let copy: unknown
    try {
      copy = structuredClone(request.body)
    } catch {
      // Too deeply nested to copy (the fuzz tests send such bodies): not checked, and the service refuses it anyway.
      copy = UNCOPIED
    }
    ;(request as unknown as Record<symbol, unknown>)[RAW_BODY] = copy
  })
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!request.url.startsWith(`${API_PREFIX}/`)) return payload
    checker ??= checkerFor(app.swagger() as unknown as Document)
    const found = findOperation(checker, request)
    if (found === undefined) return payload
    const status = reply.statusCode
    const problems = mismatches(checker, found.name, found.operation, {
      status,
      type: mediaType(reply.getHeader('content-type')),
      payload,
      requestBody: (request as unknown as Record<symbol, unknown>)[RAW_BODY],
      requestType: mediaType(request.headers['content-type']),
      head: request.method === 'HEAD',
    })
    if (problems.length > 0) {
      const error = new Error(`OpenAPI document and service disagree on ${found.name} → ${status}: ${problems.join('; ')}`)
      process.nextTick(() => { throw error })
    }
    return payload
  })
}
