import { randomUUID } from 'node:crypto'
import cors from '@fastify/cors'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { LogController, type FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { registerAuth } from './http/auth.js'
import { clientErrors, frameworkErrors, registerErrorHandling } from './http/errors.js'
import { registerJsonParser } from './http/json.js'
import { registerTextRule } from './http/text.js'
import { loggableUrl } from './http/log-url.js'
import { registerMetrics } from './http/metrics.js'
import { registerRateLimits } from './http/rate-limit.js'
import { API_PREFIX, registerOpenApi } from './http/openapi.js'
import { apiIndexRoutes } from './http/api-index.js'
import './http/route-config.js'
import { errors } from './http/schemas.js'
import { registerSecurityHeaders } from './http/security-headers.js'
import { schemaCompiler } from './http/validation.js'
import { registerWeb } from './http/web.js'
import { JobRunner } from './jobs/runner.js'
import { calendarOf } from './lib/checks.js'
import { systemClock } from './lib/clock.js'
import { changesOn, wireAreas } from './areas.js'
import { checkTimeZoneInDatabase, messagingChannels } from './messaging/index.js'
import type { StreamHub } from './realtime/stream-hub.js'
import type { AppOptions } from './app-options.js'

export type { AppOptions }

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's live event streams (for metrics and tests). */
    eventStreams: StreamHub
  }
}

/** Bodies are small: the longest text field is 2000 characters. */
const BODY_LIMIT_BYTES = 64 * 1024

/** The service as a Fastify instance, ready for inject() or listen(); it never listens itself. */
export async function buildApp (options: AppOptions): Promise<FastifyInstance> {
  const { config, db, jwtSecret, logStream, webRoot, clock = systemClock } = options
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Fastify's request serializer logs no headers or bodies; these paths are a second line of defence.
      // A body's `code` (docs/api/accounts.md › Getting back in) by its place, not `*.code`, which would also hide an error's code (ECONNREFUSED, SQLSTATE).
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.refresh_token', '*.access_token',
          '*.new_password', '*.current_password', 'body.code', '*.body.code'],
        censor: '[redacted]',
      },
      ...(logStream !== undefined ? { stream: logStream } : {}),
    },
    // Each form (boolean, hop count, address list) is accepted; Fastify's overloads just can't take their union.
    trustProxy: config.trustProxy as boolean,
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // One log line per request, written when it is answered (below), instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { maxParamLength: 200 },
    // Errors the router raises before any route runs (a malformed or overlong URL) get `{"error"}` bodies too.
    frameworkErrors,
    // What Node's HTTP parser refuses (headers over 16 KiB: 431) is answered with `Connection: close`.
    clientErrorHandler: clientErrors,
    // During shutdown a request that still arrives on an open connection is served (and its connection
    // closed, below) rather than refused with a body outside the contract.
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>()

  app.setValidatorCompiler(schemaCompiler())
  registerJsonParser(app)
  registerTextRule(app)
  registerErrorHandling(app)
  // Once shutdown begins, answers close their connection: a keep-alive connection would otherwise hold
  // the process open until its idle timeout after the last in-flight request is done.
  let closing = false
  app.addHook('preClose', async () => { closing = true })
  // A failure's request id finds its cause in the log; a success needs none (and every byte counts on it).
  app.addHook('onSend', async (request, reply) => {
    if (reply.statusCode >= 400) reply.header('x-request-id', request.id)
    if (closing) reply.header('connection', 'close')
  })
  // One line per request, written when it is answered: Fastify's 'incoming request' line says nothing
  // this one does not, and log lines are a noticeable share of the CPU (docs/performance.md › Why the code is as it is).
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info({ method: request.method, url: loggableUrl(request.url), remoteAddress: request.ip, statusCode: reply.statusCode, responseTime: reply.elapsedTime }, 'request completed')
    done()
  })

  // Every API route must say who may call it; a route that forgets fails at start-up, not in production.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(API_PREFIX) && route.schema?.hide !== true && route.config?.auth === undefined) {
      throw new Error(`route ${route.method} ${route.url} declares no config.auth`)
    }
  })

  // Every change's side effects go through this one dispatcher (src/events/, src/areas.ts).
  const channels = messagingChannels(config, db, jwtSecret, clock, options, app.log)
  await checkTimeZoneInDatabase(db, config.timeZone)
  const changes = changesOn(db, clock, { timeZone: config.timeZone, push: channels.push !== undefined, sms: channels.sms !== undefined })
  const areas = wireAreas({ config, db, jwtSecret, changes, clock, calendar: calendarOf(clock, config.timeZone), log: app.log, options }, channels)
  registerAuth(app, areas.accounts.tokens, areas.accounts.principals)
  await registerRateLimits(app, config.rateLimits, config.redisUrl)
  await registerSecurityHeaders(app, config)
  await app.register(cors, { origin: config.corsOrigins.length > 0 ? [...config.corsOrigins] : false })
  registerMetrics(app, db)
  await registerOpenApi(app)

  // Jobs run once the app is ready (listening, or the first inject) and stop, their runs under way
  // finished, before the caller closes the database (after app.close()).
  const runner = new JobRunner(areas.all.flatMap((area) => area.jobs), app.log)
  app.addHook('onReady', async () => runner.start())
  const hub = areas.messaging.hub
  app.decorate('eventStreams', hub)
  // Streams never finish by themselves: ended first on shutdown, or app.close() would wait for them forever.
  app.addHook('preClose', () => hub.close())
  app.addHook('onClose', async () => {
    await runner.stop()
    for (const area of areas.all) await area.close?.()
  })

  await app.register(async (api) => {
    api.get('/health', {
      schema: { tags: ['health'], summary: 'Liveness', response: { 200: { content: { 'text/plain': { schema: Type.String() } } } } },
      config: { auth: 'none', usesDatabase: false },
    }, async (_request, reply) => reply.type('text/plain; charset=utf-8').send('ok'))
    api.get('/ready', {
      schema: {
        tags: ['health'],
        summary: 'Readiness: whether the database answers',
        response: { 200: Type.Object({ status: Type.Literal('ready') }), ...errors(503) },
      },
      config: { auth: 'none', extension: true },
    }, async () => {
      await db.query('SELECT 1')
      return { status: 'ready' as const }
    })
    await api.register(apiIndexRoutes)
    for (const area of areas.all) await api.register(area.routes)
  }, { prefix: API_PREFIX })
  if (webRoot !== false) await registerWeb(app, webRoot)

  return app
}
