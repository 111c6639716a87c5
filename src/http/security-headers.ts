import helmet from '@fastify/helmet'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Config } from '../config.js'
import { API_PREFIX } from './openapi.js'

/** The interactive API reference: a page, with its own scripts and styles. */
const DOCS_PREFIX = `${API_PREFIX}/docs`

/** Pages (the web app's files, the docs page) are everything outside the API, and the docs page inside it. */
export function isPage (url: string): boolean {
  return !url.startsWith(`${API_PREFIX}/`) || url.startsWith(DOCS_PREFIX)
}

/**
 * Page security headers (CSP, frame and referrer policy, HSTS, ...) go on pages only: a browser reads them
 * from documents, and on every JSON answer they were two thirds of its bytes. JSON answers keep what
 * matters to them: `nosniff`, and `no-store` (personal data) unless the route set its own cache policy;
 * CORS is its own plugin, as configured.
 */
export async function registerSecurityHeaders (app: FastifyInstance, config: Pick<Config, 'mapTileUrl' | 'geocoderUrl'>): Promise<void> {
  // The docs page loads its own scripts and styles from this service, so a same-origin policy fits it.
  // No upgrade-insecure-requests: behind plain HTTP it would break that page's own assets.
  // Images also from the map's tile server (MAP_TILE_URL), calls also to the geocoder (GEOCODER_URL), nothing else.
  const geocoder = config.geocoderUrl === undefined ? [] : [new URL(config.geocoderUrl).origin]
  await app.register(helmet, {
    global: false,
    contentSecurityPolicy: {
      // worker-src: the app's service worker, /sw.js (docs/web.md › Offline reading), and nothing else.
      directives: { 'img-src': ["'self'", 'data:', new URL(config.mapTileUrl).origin], 'connect-src': ["'self'", ...geocoder], 'worker-src': ["'self'"], 'upgrade-insecure-requests': null },
    },
  })
  // After helmet's own hook, which gives each reply its helmet().
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done) => {
    if (isPage(request.url)) {
      reply.helmet()
    } else {
      reply.header('x-content-type-options', 'nosniff')
    }
    done()
  })
  // Every API answer: most carry personal data, and those that do not (health, request types) lose nothing.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control') && !isPage(request.url)) reply.header('cache-control', 'no-store')
    done(null, payload)
  })
}
