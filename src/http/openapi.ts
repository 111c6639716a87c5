import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { errors } from './schemas.js'

export const API_PREFIX = '/api/v1'
export const EXTENSION_TAG = 'beyond-1.0.1'

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
        { name: 'moderation' }, { name: 'admin' },
        { name: EXTENSION_TAG, description: 'Extensions beyond interface 1.0.1' },
      ],
    },
    hideUntagged: true,
    transform ({ schema, url, route }) {
      const config = route.config ?? {}
      const extra: Record<string, unknown> = {}
      if (config.auth !== undefined && config.auth !== 'none') extra.security = [{ bearer: [] }]
      // Any operation can fail on the server side; say so where the route lists no 5xx of its own.
      const responses = (schema.response ?? {}) as Record<string, unknown>
      if (!Object.keys(responses).some((status) => status.startsWith('5'))) extra.response = { ...responses, ...errors(500) }
      if (config.extension === true) {
        extra.tags = [...(schema.tags ?? []), EXTENSION_TAG]
        extra['x-beyond-1.0.1'] = true
      }
      return { schema: { ...schema, ...extra }, url }
    },
  })
  await app.register(swaggerUi, { routePrefix: `${API_PREFIX}/docs`, uiConfig: { url: `${API_PREFIX}/openapi.json` } as object })
  app.get(`${API_PREFIX}/openapi.json`, { schema: { hide: true }, config: { auth: 'none' } }, () => app.swagger())
}
