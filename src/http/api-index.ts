import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { API_NAME, API_VERSION, DOCS_PATH, OPENAPI_PATH } from './openapi.js'
import { API_PREFIX } from './prefix.js'

const ApiIndex = Type.Object({
  name: Type.String(),
  version: Type.String({ description: 'the interface version this service serves' }),
  links: Type.Object({
    docs: Type.String({ description: 'the interactive reference page' }),
    openapi: Type.String({ description: 'the OpenAPI 3.1 document' }),
    health: Type.String({ description: 'liveness, text/plain `ok`' }),
  }),
})

const INDEX = { name: API_NAME, version: API_VERSION, links: { docs: DOCS_PATH, openapi: OPENAPI_PATH, health: `${API_PREFIX}/health` } }

/**
 * GET /api/v1: what the API is and where its documents are, so that the address `npm start` prints
 * answers something a newcomer can follow rather than a 404. Registered inside the API's prefix.
 */
export const apiIndexRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Documented once, as /api/v1; /api/v1/ answers the same, left out of the document (one operation, one path).
  const config = { auth: 'none', extension: true, usesDatabase: false } as const
  app.get('/', {
    prefixTrailingSlash: 'no-slash',
    schema: {
      tags: ['health'],
      summary: 'What this API is, and links to its reference page and OpenAPI document',
      response: { 200: ApiIndex },
    },
    config,
  }, async () => INDEX)
  app.get('/', { prefixTrailingSlash: 'slash', schema: { hide: true, response: { 200: ApiIndex } }, config }, async () => INDEX)
}
