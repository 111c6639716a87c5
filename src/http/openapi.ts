import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { API_PREFIX } from './prefix.js'
import { isRateLimited } from './rate-limit.js'
import { ErrorBody, errors } from './schemas.js'
import { checkedParameters } from './text.js'

export { API_PREFIX }
export const EXTENSION_TAG = 'beyond-1.0.1'

/** The methods whose requests Fastify reads a body for (so a 413 or 415 can answer them). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
/** Passed from transform to transformObject on an operation, and removed there. */
const OPTIONAL_BODY = 'x-optional-body'

const IgnoredBody = Type.Unknown({ description: 'Ignored: send no body, or any JSON such as `{}`' })
const retryAfter = (description: string) => ({ 'retry-after': Type.Integer({ minimum: 1, description }) })
const DatabaseUnavailable = {
  ...ErrorBody,
  description: 'The database did not answer: `database unavailable`',
  headers: retryAfter('seconds after which to try again'),
}
const TooManyRequests = {
  ...ErrorBody,
  description: 'Too many requests from this address or for this account (rules.md › Everything else)',
  headers: retryAfter('seconds until the next call may succeed'),
}

/**
 * The OpenAPI 3.1 document, generated from the route schemas, at /api/v1/openapi.json, and an
 * interactive reference at /api/v1/docs whose scripts and styles are served from this package.
 */
export async function registerOpenApi (app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Volunteer Coordination Service',
        version: '1.0.1',
        description: 'People with limited mobility ask for help; volunteers nearby offer it. ' +
          `Operations tagged \`${EXTENSION_TAG}\` are extensions beyond interface version 1.0.1.`,
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      tags: [
        { name: 'health' }, { name: 'auth' }, { name: 'users' }, { name: 'requests' }, { name: 'responses' },
        { name: 'moderation' }, { name: 'admin' }, { name: 'concerns' }, { name: 'clients' },
        { name: EXTENSION_TAG, description: 'Extensions beyond interface 1.0.1' },
      ],
    },
    hideUntagged: true,
    transform ({ schema, url, route }) {
      const config = route.config ?? {}
      const extra: Record<string, unknown> = {}
      if (config.auth !== undefined && config.auth !== 'none') extra.security = [{ bearer: [] }]
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
  await app.register(swaggerUi, { routePrefix: `${API_PREFIX}/docs`, uiConfig: { url: `${API_PREFIX}/openapi.json` } as object })
  app.get(`${API_PREFIX}/openapi.json`, { schema: { hide: true }, config: { auth: 'none' } }, () => app.swagger())
}
