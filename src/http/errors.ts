import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { DatabaseUnavailableError } from '../db/database.js'
import { AppError, INVALID_BODY } from '../lib/errors.js'

interface ValidationIssue {
  keyword: string
  instancePath: string
  params: Record<string, unknown>
}

/** The field a validation issue is about, as a dotted path (`bio`, `items.0.name`); '' for the whole part. */
function fieldOf (issue: ValidationIssue): string {
  const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.')
  const missing = issue.params.missingProperty
  if (typeof missing === 'string') return path === '' ? missing : `${path}.${missing}`
  return path
}

const characters = (limit: unknown): string => `${String(limit)} character${limit === 1 ? '' : 's'}`

/** A plain sentence for an issue the route gave no text for; never Ajv's own wording. */
function describe (field: string, issue: ValidationIssue): string {
  const p = issue.params
  switch (issue.keyword) {
    case 'required': return `${field} is required`
    case 'type': return `${field} must be of type ${String(p.type).replace(',', ' or ')}`
    case 'minLength': return `${field} must be at least ${characters(p.limit)} long`
    case 'maxLength': return `${field} must be at most ${characters(p.limit)} long`
    case 'minimum': return `${field} must be at least ${String(p.limit)}`
    case 'maximum': return `${field} must be at most ${String(p.limit)}`
    case 'format': return `${field} must be a valid ${String(p.format)}`
    case 'enum': return `${field} must be one of: ${(p.allowedValues as unknown[]).join(', ')}`
    default: return `invalid ${field}`
  }
}

export function validationText (issues: readonly ValidationIssue[], part: string | undefined, messages: Record<string, string> = {}): string {
  const issue = issues[0]
  if (issue === undefined) return INVALID_BODY
  const field = fieldOf(issue)
  // `list.*` names one text for every item of a list (`needs.0`, `needs.1`, …).
  const specific = messages[`${field}:${issue.keyword}`] ?? messages[field] ?? messages[field.replace(/\.\d+$/, '.*')]
  if (specific !== undefined) return specific
  // The body as a whole is not an object (an array, a string, nothing at all).
  if (field === '' && part === 'body') return INVALID_BODY
  return describe(field === '' ? (part ?? 'input') : field, issue)
}

function send (reply: FastifyReply, status: number, error: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ error })
}

/**
 * Fastify's `frameworkErrors` option: what the router refuses before any route or hook runs,
 * a URL that does not decode (FST_ERR_BAD_URL) or a path segment above maxParamLength.
 */
export function frameworkErrors (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  request.log.info({ code: error.code }, 'client error')
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') send(reply, 414, 'url path segment is too long')
  else send(reply, 400, 'malformed url')
}

export const HEADERS_TOO_LARGE = 'request header fields too large'
/** How long a refused connection may stay half-open for the client to read the answer and close it. */
const CLOSE_GRACE_MS = 5000

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses before Fastify sees a request. Headers
 * over Node's limit (16 KiB) get a 431 `{"error"}` body; other errors keep Fastify's answers. Every
 * answer says `Connection: close`, so a keep-alive client opens a new connection for its next call
 * instead of finding this one reset; the socket is ended, not destroyed, so the client can read the
 * answer before it closes (destroying it with unread headers pending would send a reset).
 */
export function clientErrors (this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const [status, body] = error.code === 'HPE_HEADER_OVERFLOW'
    ? [431, JSON.stringify({ error: HEADERS_TOO_LARGE })]
    : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, '{"error":"Request Timeout","message":"Client Timeout","statusCode":408}']
      : [400, '{"error":"Bad Request","message":"Client Error","statusCode":400}']
  this.log.info({ code: error.code }, 'client error')
  if (!socket.writable) {
    socket.destroy()
    return
  }
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)
  socket.setTimeout(CLOSE_GRACE_MS, () => socket.destroy())
}

/** Turns every failure into `{"error": text}`; a 500 never carries the cause, which goes to the log. */
export function registerErrorHandling (app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) return send(reply.headers(error.headers), error.status, error.text)
    if (error.validation) {
      return send(reply, 400, validationText(error.validation, error.validationContext, request.routeOptions.config.messages))
    }
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return send(reply, 400, INVALID_BODY)
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return send(reply, 413, 'request body is too large')
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return send(reply, 415, 'unsupported content type: send application/json')
    }
    const unavailable = (error as unknown) instanceof DatabaseUnavailableError
    const status = unavailable ? 500 : error.statusCode ?? 500
    if (status >= 400 && status < 500) {
      // Other client errors raised by Fastify or a plugin (e.g. a malformed URL): keep the status, not the wording.
      request.log.info({ code: error.code }, 'client error')
      return send(reply, status, status === 404 ? 'not found' : 'bad request')
    }
    const { failure, failureStatus } = request.routeOptions.config
    if (unavailable && failureStatus === undefined) {
      request.log.warn({ err: (error as unknown as DatabaseUnavailableError).cause }, 'database unavailable')
      return send(reply.header('retry-after', '5'), 503, 'database unavailable')
    }
    request.log.error({ err: error }, 'request failed')
    return send(reply, failureStatus ?? 500, failure ?? 'internal server error')
  })

  app.setNotFoundHandler((_request, reply) => send(reply, 404, 'not found'))
}
