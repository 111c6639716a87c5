import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import fastifyStatic from '@fastify/static'
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify'
import { frameworkErrors } from './errors.js'

/** The built web app (`vite build` writes it); from src/http and from dist/http alike. */
export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../web/dist/', import.meta.url))

/** A year: Vite names every file under assets/ by a hash of its content, so a changed file is a new URL. */
const IMMUTABLE = 'public, max-age=31536000, immutable'

/** The app's service worker at the root of the build, as sent plain or precompressed. */
const SERVICE_WORKER = /[\\/]sw\.js(\.br|\.gz)?$/

/**
 * Serves the web app at `/` next to the API. Files come precompressed (the build writes .br and .gz
 * beside each), so nothing is compressed per request and API answers are left as they are. A browser
 * navigation to any app route (a GET that accepts HTML, outside /api/, with no file extension) gets
 * index.html and the app routes itself; everything else that matches nothing stays a JSON 404.
 * Without a build (e.g. `npm run dev` before `vite build`) the API runs alone.
 */
export async function registerWeb (app: FastifyInstance, root: string = DEFAULT_WEB_ROOT): Promise<boolean> {
  if (!existsSync(`${root}/index.html`)) {
    app.log.warn({ root }, 'web app not built: serving the API only (npm run build builds it)')
    return false
  }
  await app.register(fastifyStatic, {
    root,
    prefix: '/',
    // One route per file found at start-up: an unknown path falls through to the routes below.
    wildcard: false,
    preCompressed: true,
    index: false,
    setHeaders (res, path) {
      res.header('cache-control', path.includes('/assets/') ? IMMUTABLE : 'no-cache')
      // The app's service worker (web/service-worker.js) serves the whole app, whose pages are all under /.
      // (`path` is the file sent: sw.js.br or sw.js.gz when compressed.)
      if (SERVICE_WORKER.test(path)) res.header('service-worker-allowed', '/')
    },
  })
  const page = (reply: FastifyReply) => reply.header('cache-control', 'no-cache').sendFile('index.html')
  app.get('/', { schema: { hide: true } }, (_request, reply) => page(reply))
  // Without this catch-all the router answers an API path with an overlong segment 414 (it matches no
  // route); the catch-all does match it, so it gives the router's answer itself.
  const maxParamLength = (app.initialConfig as { routerOptions?: { maxParamLength?: number } }).routerOptions?.maxParamLength ?? 100
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    const path = request.url.split('?')[0] ?? ''
    if (path.startsWith('/api/')) {
      if (path.split('/').some((segment) => segment.length > maxParamLength)) {
        return frameworkErrors({ code: 'FST_ERR_MAX_PARAM_LENGTH' } as FastifyError, request, reply)
      }
      return reply.callNotFound()
    }
    const navigation = (request.headers.accept ?? '').includes('text/html')
    if (!navigation || /\.[a-z0-9]+$/i.test(path)) return reply.callNotFound()
    return page(reply)
  })
  return true
}
