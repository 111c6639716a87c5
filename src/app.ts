import { randomUUID } from 'node:crypto'
import cors from '@fastify/cors'
import helmet from '@fastify/helmet'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { LogController, type FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import type { Config } from './config.js'
import { registerAuth } from './http/auth.js'
import { clientErrors, frameworkErrors, registerErrorHandling } from './http/errors.js'
import { registerJsonParser } from './http/json.js'
import { loggableUrl } from './http/log-url.js'
import { registerMetrics } from './http/metrics.js'
import { registerRateLimits } from './http/rate-limit.js'
import { API_PREFIX, registerOpenApi } from './http/openapi.js'
import './http/route-config.js'
import { errors } from './http/schemas.js'
import { schemaCompiler } from './http/validation.js'
import { registerWeb } from './http/web.js'
import { JobRunner } from './jobs/runner.js'
import type { Job } from './jobs/job.js'
import { calendarOf } from './lib/checks.js'
import { systemClock } from './lib/clock.js'
import { gridPoint, type GridPoint } from './lib/grid.js'
import { accessTokens } from './lib/tokens.js'
import { AlertService, alertRoundsJob } from './help/alerts/alerts.service.js'
import { CatchUpService, catchUpJob } from './help/alerts/catch-up.service.js'
import { authRoutes } from './accounts/auth/auth.routes.js'
import { concernsRoutes } from './help/concerns/concerns.routes.js'
import { ConcernsService } from './help/concerns/concerns.service.js'
import { AuthService } from './accounts/auth/auth.service.js'
import { AccountCodes } from './accounts/auth/codes.js'
import { RecoveryService } from './accounts/auth/recovery.service.js'
import { PrincipalCache } from './accounts/auth/principals.js'
import { pushRoutes } from './messaging/push/push.routes.js'
import { PushChannel } from './messaging/push/push-channel.js'
import { PushService } from './messaging/push/push.service.js'
import { privacyRoutes } from './data-protection/privacy/privacy.routes.js'
import { accessRoutes } from './accounts/access/access.routes.js'
import { AccessService } from './accounts/access/access.service.js'
import { AccessRecorder } from './accounts/access/access.recorder.js'
import { PrivacyService } from './data-protection/privacy/privacy.service.js'
import { changesOn } from './areas.js'
import { checkTimeZoneInDatabase, deliveriesJobFor, deliveriesServiceFor, deliveryChannels } from './messaging/deliveries/setup.js'
import { deliveriesRoutes } from './messaging/deliveries/deliveries.routes.js'
import { RetentionJob, retentionJob } from './data-protection/privacy/retention.js'
import { CheckExpiryNotifier, checkExpiryJob } from './accounts/checks/check-expiry.js'
import { checksRoutes } from './accounts/checks/checks.routes.js'
import { ChecksService } from './accounts/checks/checks.service.js'
import { availabilityRoutes } from './help/availability/availability.routes.js'
import { AvailabilityService } from './help/availability/availability.service.js'
import { eventsRoutes } from './messaging/notifications/events.routes.js'
import { notificationStream } from './messaging/notifications/event-stream.js'
import { notificationsRoutes } from './messaging/notifications/notifications.routes.js'
import { NotificationsService } from './messaging/notifications/notifications.service.js'
import { moderationRoutes } from './help/moderation/moderation.routes.js'
import { ModerationService } from './help/moderation/moderation.service.js'
import { requestTypesRoutes } from './help/request-types/request-types.routes.js'
import { RequestTypesService } from './help/request-types/request-types.service.js'
import { requestsRoutes } from './help/requests/requests.routes.js'
import { MapSettings } from './help/requests/requests.schemas.js'
import { RequestsService } from './help/requests/requests.service.js'
import type { SearchContext } from './help/requests/search/shared.js'
import { Disclosure } from './help/requests/disclosure.js'
import { responsesRoutes } from './help/responses/responses.routes.js'
import { ResponsesService } from './help/responses/responses.service.js'
import { sessionRoutes } from './accounts/session/session.routes.js'
import { accountSettingsRoutes } from './accounts/session/account-settings.routes.js'
import { rolesRoutes } from './accounts/roles/roles.routes.js'
import { RolesService } from './accounts/roles/roles.service.js'
import { usersRoutes } from './accounts/users/users.routes.js'
import { UsersService } from './accounts/users/users.service.js'
import { openRealtime } from './realtime/open.js'
import { StreamHub } from './realtime/stream-hub.js'
import { SCHEDULE_TICK_MS, scheduleApi, scheduleJobsFor } from './regular-help/index.js'
import { behalfApi } from './on-behalf/index.js'
import type { AppOptions } from './app-options.js'

export type { AppOptions }

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's live event streams (for metrics and tests). */
    eventStreams: StreamHub
  }
}

const ALERT_TICK_MS = 1000
const DELIVERY_TICK_MS = 1000

/** Under LOCATION_PRIVACY=grid alerts, like searches, see each request at its grid point (privacy.md § 1). */
export function alertPlace (config: Config): ((latitude: number, longitude: number) => GridPoint) | undefined {
  return config.locationPrivacy === 'grid' ? (latitude, longitude) => gridPoint(latitude, longitude, config.mapGridMeters) : undefined
}

/** Bodies are small: the longest text field is 2000 characters. */
const BODY_LIMIT_BYTES = 64 * 1024

/** The service as a Fastify instance, ready for inject() or listen(); it never listens itself. */
export async function buildApp ({
  config, db, jwtSecret, logStream, webRoot, streams, alertTickMs = ALERT_TICK_MS, retentionMs = 0, checkExpiryMs = 0, clock = systemClock,
  deliveryTickMs = DELIVERY_TICK_MS, scheduleTickMs = SCHEDULE_TICK_MS, horizonTickMs = SCHEDULE_TICK_MS, channels: givenChannels = {}, push, pushAgent,
}: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Fastify's request serializer logs no headers or bodies; these paths are a second line of defence.
      // A body's `code` (reach.md § 2) by its place, not `*.code`, which would also hide an error's code (ECONNREFUSED, SQLSTATE).
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
  registerErrorHandling(app)
  // Once shutdown begins, answers close their connection: a keep-alive connection would otherwise hold
  // the process open until its idle timeout after the last in-flight request is done.
  let closing = false
  app.addHook('preClose', async () => { closing = true })
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id)
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

  const tokens = accessTokens(jwtSecret, config.accessTokenTtlSeconds, clock)
  const principals = new PrincipalCache(db, config.authCacheTtlMs, clock)
  registerAuth(app, tokens, principals)
  await registerRateLimits(app, config.rateLimits, config.redisUrl)
  // The docs page loads its own scripts and styles from this service, so a same-origin policy fits it.
  // No upgrade-insecure-requests: behind plain HTTP it would break that page's own assets.
  // Images also from the map's tile server (MAP_TILE_URL), calls also to the geocoder (GEOCODER_URL), nothing else.
  const geocoder = config.geocoderUrl === undefined ? [] : [new URL(config.geocoderUrl).origin]
  await app.register(helmet, {
    contentSecurityPolicy: {
      // worker-src: the app's service worker, /sw.js (docs/web.md › Offline reading), and nothing else.
      directives: { 'img-src': ["'self'", 'data:', new URL(config.mapTileUrl).origin], 'connect-src': ["'self'", ...geocoder], 'worker-src': ["'self'"], 'upgrade-insecure-requests': null },
    },
  })
  await app.register(cors, { origin: config.corsOrigins.length > 0 ? [...config.corsOrigins] : false })
  registerMetrics(app, db)
  await registerOpenApi(app)

  // Every change's side effects go through this one dispatcher (src/events/, src/areas.ts).
  // Push is on when the app has a VAPID identity (reach.md § 1): then every subscription gets its delivery.
  const pushChannel = givenChannels.push ?? (push === undefined ? undefined : new PushChannel({ db, identity: push, endpointHosts: config.pushEndpointHosts, clock, agent: pushAgent }))
  const channels = deliveryChannels(config, jwtSecret, { ...givenChannels, push: pushChannel }, app.log)
  await checkTimeZoneInDatabase(db, config.timeZone)
  const changes = changesOn(db, clock, { timeZone: config.timeZone, push: channels.push !== undefined })
  // reach.md § 2: codes hashed and sealed with keys from the signing secret, which every instance shares.
  const codes = new AccountCodes(jwtSecret)
  const authSettings = { scrypt: config.scrypt, refreshTokenTtlDays: config.refreshTokenTtlDays, emailVerification: config.emailVerification }
  const auth = new AuthService(db, changes, codes, tokens, authSettings, clock)
  const recovery = new RecoveryService(db, changes, codes, auth, authSettings)
  // Today in TIME_ZONE: the day through which a check is valid (trust.md § 2).
  const calendar = calendarOf(clock, config.timeZone)
  // Who has been shown contact details, written before each answer leaves (trust.md §5).
  const access = new AccessRecorder(db)
  const users = new UsersService(db, changes, calendar, access, config.addressPrivacy)
  const roles = new RolesService(db, changes, principals, calendar)
  const checks = new ChecksService(db, calendar)
  // What every answer carrying a request shows and records (requests/disclosure.ts, trust.md §1 and §5).
  const disclosure = new Disclosure(access, { mapGridMeters: config.mapGridMeters, addressPrivacy: config.addressPrivacy }, clock)
  const requests = new RequestsService(db, changes, disclosure, clock)
  const search: SearchContext = {
    db,
    policy: {
      locationPrivacy: config.locationPrivacy,
      unmoderatedInSearch: config.unmoderatedInSearch,
      ...disclosure.policy,
      boundsResultCap: config.boundsResultCap,
      mapMarkerCap: config.mapMarkerCap,
    },
    disclosure,
  }
  const moderation = new ModerationService(db, changes, disclosure)
  const privacy = new PrivacyService(db, changes, principals, { mapGridMeters: config.mapGridMeters }, calendar)
  const concerns = new ConcernsService(db, changes, principals, clock)

  const responses = new ResponsesService(db, changes, { required: config.volunteerChecks, calendar })
  const jobs: Job[] = []
  if (alertTickMs > 0) {
    const alertChecks = { required: config.volunteerChecks, timeZone: config.timeZone }
    jobs.push(alertRoundsJob(new AlertService(changes, config.alerts, clock, 'fair', alertPlace(config), alertChecks), alertTickMs))
    // reach.md § 3: volunteers coming on duty are told of open requests within 5 s (ticks of a second by default).
    jobs.push(catchUpJob(new CatchUpService(changes, config.alerts, clock, alertPlace(config), alertChecks), alertTickMs))
  }
  jobs.push(...scheduleJobsFor(config, changes, clock, app.log, { horizonTickMs, scheduleTickMs }))
  if (checkExpiryMs > 0) jobs.push(checkExpiryJob(new CheckExpiryNotifier(changes, calendar), checkExpiryMs))
  const retention = new RetentionJob(db, {
    retentionDays: config.retentionDays, notificationRetentionDays: config.notificationRetentionDays, clientRetentionDays: config.clientRetentionDays, mapGridMeters: config.mapGridMeters,
  }, app.log, clock)
  if (retentionMs > 0 && retention.enabled) jobs.push(retentionJob(retention, retentionMs))
  if (deliveryTickMs > 0) jobs.push(deliveriesJobFor(config, db, channels, jwtSecret, clock, app.log, deliveryTickMs))
  // Jobs run once the app is ready (listening, or the first inject) and stop, their runs under way
  // finished, before the caller closes the database (after app.close()).
  const runner = new JobRunner(jobs, app.log)
  app.addHook('onReady', async () => runner.start())
  app.addHook('onClose', async () => {
    await runner.stop()
    await Promise.all([channels.email.close(), channels.push?.close()])
  })
  const availability = new AvailabilityService(db, changes)
  const notifications = new NotificationsService(db)
  const realtime = openRealtime(db)
  const hub = new StreamHub(realtime, notificationStream(db), app.log, streams, clock)
  app.decorate('eventStreams', hub)
  // Streams never finish by themselves: ended first on shutdown, or app.close() would wait for them forever.
  app.addHook('preClose', () => hub.close())
  app.addHook('onClose', () => realtime.close())
  const requestTypes = new RequestTypesService(db)

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
    // Fixed for the life of the process: worked out once.
    const mapSettings = { tile_url: config.mapTileUrl, attribution: config.mapTileAttribution, geocoder_url: config.geocoderUrl?.replace(/\/+$/, '') ?? null }
    api.get('/map-settings', {
      schema: {
        tags: ['requests'],
        summary: 'Where the web app\'s map pictures come from, their credit, and the geocoder',
        description: 'MAP_TILE_URL, MAP_TILE_ATTRIBUTION and GEOCODER_URL (null when off); docs/web.md › Map. Public: nothing in it is secret.',
        response: { 200: MapSettings },
      },
      config: { auth: 'none', extension: true, usesDatabase: false },
    }, async () => mapSettings)
    await api.register(authRoutes, { auth, recovery })
    await api.register(sessionRoutes, { auth, recovery, refreshTokenTtlDays: config.refreshTokenTtlDays })
    await api.register(usersRoutes, { users, recovery, emailVerification: config.emailVerification })
    await api.register(rolesRoutes, { roles })
    await api.register(checksRoutes, { checks })
    await api.register(accountSettingsRoutes, { emailVerification: config.emailVerification })
    await api.register(requestTypesRoutes, { requestTypes })
    await api.register(requestsRoutes, { requests, search })
    await api.register(moderationRoutes, { moderation })
    await api.register(responsesRoutes, { responses })
    await api.register(scheduleApi, { config, db, changes, disclosure, clock })
    await api.register(behalfApi, { config, db, changes, clock })
    await api.register(privacyRoutes, { privacy })
    await api.register(concernsRoutes, { concerns })
    await api.register(accessRoutes, { access: new AccessService(db) })
    await api.register(availabilityRoutes, { availability })
    await api.register(notificationsRoutes, { notifications })
    await api.register(eventsRoutes, { hub })
    await api.register(pushRoutes, { push: new PushService(db, push, config.pushEndpointHosts, clock) })
    await api.register(deliveriesRoutes, { deliveries: deliveriesServiceFor(config, db, jwtSecret) })
  }, { prefix: API_PREFIX })
  if (webRoot !== false) await registerWeb(app, webRoot)

  return app
}
