import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { OPERATION_IDS, operationKey } from './operation-ids.js'
import { API_PREFIX } from './prefix.js'
import { isRateLimited } from './rate-limit.js'
import { ErrorBody, errors } from './schemas.js'
import { checkedParameters } from './text.js'

export { API_PREFIX }
export const EXTENSION_TAG = 'beyond-1.0.1'
/** The service's name and the interface version it serves, in the document and in the API's index (api-index.ts). */
export const API_NAME = 'Volunteer Coordination Service'
export const API_VERSION = '1.0.1'
/** Where the reference page and the document are served. */
export const DOCS_PATH = `${API_PREFIX}/docs`
export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`

/** The methods whose requests Fastify reads a body for (so a 413 or 415 can answer them). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
/** Passed from transform to transformObject on an operation, and removed there. */
const OPTIONAL_BODY = 'x-optional-body'

/** Every tag an operation carries, each with what it groups, so a reader and a generator know them all. */
const TAGS = [
  { name: 'health', description: 'Whether the service is up and its database answers' },
  { name: 'auth', description: 'Accounts: registering, signing in and out, tokens, sign-in codes and passwords; the `/session` operations are the web app\'s, with the refresh token in a cookie' },
  { name: 'users', description: 'The caller\'s own profile, location, roles, data, calendar feed, devices and trusted people; other users\' profiles' },
  { name: 'requests', description: 'Requests for help: asking, searching nearby and on a map, and their course until done' },
  { name: 'responses', description: 'Volunteers\' offers of help on a request, and the requester\'s answers to them' },
  { name: 'moderation', description: 'The moderators\' queues of requests, series and concerns' },
  { name: 'admin', description: 'Roles, blocking and checks of users, for administrators' },
  { name: 'series', description: 'Help that repeats on a schedule' },
  { name: 'clients', description: 'People without an account for whom coordinators ask for help' },
  { name: 'reports', description: 'Figures and exports of what the service did, without personal details' },
  { name: 'concerns', description: 'Worries about a person or a request, told to the moderators' },
  { name: 'availability', description: 'When and where a volunteer wants alerts about nearby requests' },
  { name: 'notifications', description: 'The caller\'s notifications, as a list and as live events' },
  { name: 'deliveries', description: 'How notifications reach the caller by e-mail and push, and what was sent' },
  { name: 'texts', description: 'The texts people sent that the service did not understand, for coordinators and moderators' },
  { name: EXTENSION_TAG, description: 'Extensions beyond interface 1.0.1' },
]

/** The operationId of an /api/v1 route from the one table of them; a route missing from it is refused when added. */
function operationId (method: string, url: string): string {
  const key = operationKey(method, url, API_PREFIX)
  const id = OPERATION_IDS[key]
  if (id === undefined) throw new Error(`route ${key} has no operationId: add it to src/http/operation-ids.ts`)
  return id
}

const IgnoredBody = Type.Unknown({ description: 'Ignored: send no body, or any JSON such as `{}`' })
const retryAfter = (description: string) => ({ 'retry-after': Type.Integer({ minimum: 1, description }) })
const DatabaseUnavailable = {
  ...ErrorBody,
  description: 'The database did not answer: `database unavailable`',
  headers: retryAfter('seconds after which to try again'),
}
const TooManyRequests = {
  ...ErrorBody,
  description: 'Too many requests from this address or for this account',
  headers: retryAfter('seconds until the next call may succeed'),
}

/**
 * The OpenAPI 3.1 document, generated from the route schemas, at /api/v1/openapi.json, and an
 * interactive reference at /api/v1/docs whose scripts and styles are served from this package.
 */
export async function registerOpenApi (app: FastifyInstance): Promise<void> {
  // HEAD routes are Fastify's own copies of the GET ones, and the document leaves them out.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_PREFIX) || route.schema?.hide === true) return
    for (const method of [route.method].flat()) if (method !== 'HEAD') operationId(method, route.url)
  })
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: API_NAME,
        version: API_VERSION,
        description: 'People with limited mobility ask for help; volunteers nearby offer it. ' +
          `Operations tagged \`${EXTENSION_TAG}\` are extensions beyond interface version 1.0.1.`,
        license: { name: 'MIT', identifier: 'MIT' },
      },
      // The paths hold the /api/v1 prefix, so the service's own address (where this document was read) is the base.
      servers: [{ url: '/', description: 'This service, at the address the document was fetched from' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      tags: TAGS,
    },
    hideUntagged: true,
    transform ({ schema, url, route }) {
      // Called for hidden routes too (the docs page's own); the document leaves them out.
      if (schema.hide === true) return { schema, url }
      const config = route.config ?? {}
      const extra: Record<string, unknown> = {
        operationId: operationId([route.method].flat()[0]!, url),
        // An empty list says "no sign-in" outright; an absent one would leave a generator to guess.
        security: config.auth === 'none' || config.auth === 'optional' ? [] : [{ bearer: [] }],
      }
      // What the service sends on every operation of its kind, beyond what each route lists itself.
      const takesBody = [route.method].flat().some((method) => BODY_METHODS.has(method))
      const own = (schema.response ?? {}) as Record<string, unknown>
      extra.response = {
        // A body that is not JSON, not UTF-8 or holds U+0000 is a 400 even where the route ignores bodies.
        ...(takesBody ? errors(400, 413, 415) : {}),
        // So is a path or query parameter holding what the database cannot store (text.ts).
        ...(route.url.includes('/:') || checkedParameters(schema.querystring as never).length > 0 ? errors(400) : {}),
        // The operations registerRateLimits counts (rate-limit.ts), by the same table.
        ...(isRateLimited(route.method, route.url) ? { 429: TooManyRequests } : {}),
        // Any operation can fail on the server side; say so where the route lists no 5xx of its own.
        ...(Object.keys(own).some((status) => status.startsWith('5')) ? {} : errors(500)),
        // errors.ts answers an unreachable database with 503, unless the route names another failure status.
        ...(config.failureStatus === undefined && config.usesDatabase !== false ? { 503: DatabaseUnavailable } : {}),
        ...own,
      }
      // Every body-less POST, PUT, PATCH and DELETE still parses a JSON body and ignores it, so `{}` is a legitimate call.
      if (takesBody && schema.body === undefined) extra.body = IgnoredBody
      if (takesBody && (schema.body === undefined || config.optionalBody === true)) extra[OPTIONAL_BODY] = true
      if (config.extension === true) {
        extra.tags = [...(schema.tags ?? []), EXTENSION_TAG]
        extra['x-beyond-1.0.1'] = true
      }
      return { schema: { ...schema, ...extra }, url }
    },
    // @fastify/swagger marks every declared body required; the operations marked above take none or `{}` as well.
    transformObject (documentObject) {
      if (!('openapiObject' in documentObject)) return documentObject.swaggerObject
      const { openapiObject } = documentObject
      for (const item of Object.values(openapiObject.paths ?? {})) {
        for (const operation of Object.values(item ?? {}) as Array<Record<string, unknown>>) {
          if (operation[OPTIONAL_BODY] !== true) continue
          delete operation[OPTIONAL_BODY]
          ;(operation.requestBody as { required: boolean }).required = false
        }
      }
      return openapiObject
    },
  })
  await app.register(swaggerUi, { routePrefix: DOCS_PATH, uiConfig: { url: OPENAPI_PATH } as object })
  app.get(OPENAPI_PATH, { schema: { hide: true }, config: { auth: 'none' } }, () => app.swagger())
}
