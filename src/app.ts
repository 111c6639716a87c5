import { randomUUID } from 'node:crypto'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { Type } from 'typebox'
import type { Config } from './config.js'
import type { Database } from './db/database.js'
import { registerAuth } from './http/auth.js'
import { frameworkErrors, registerErrorHandling } from './http/errors.js'
import { registerJsonParser } from './http/json.js'
import { API_PREFIX, registerOpenApi } from './http/openapi.js'
import './http/route-config.js'
import { schemaCompiler } from './http/validation.js'
import { accessTokens } from './lib/tokens.js'
import { authRoutes } from './modules/auth/auth.routes.js'
import { AuthService } from './modules/auth/auth.service.js'
import { PrincipalCache } from './modules/auth/principals.js'
import { moderationRoutes } from './modules/moderation/moderation.routes.js'
import { ModerationService } from './modules/moderation/moderation.service.js'
import { requestTypesRoutes } from './modules/request-types/request-types.routes.js'
import { requestsRoutes } from './modules/requests/requests.routes.js'
import { RequestsService } from './modules/requests/requests.service.js'
import { rolesRoutes } from './modules/roles/roles.routes.js'
import { RolesService } from './modules/roles/roles.service.js'
import { usersRoutes } from './modules/users/users.routes.js'
import { UsersService } from './modules/users/users.service.js'

export interface AppOptions {
  config: Config
  db: Database
  jwtSecret: string
  /** Overrides the logger built from config (tests capture log lines this way). */
  logger?: FastifyServerOptions['loggerInstance']
}

/** Bodies are small: the longest text field is 2000 characters. */
const BODY_LIMIT_BYTES = 64 * 1024

/** The service as a Fastify instance, ready for inject() or listen(); it never listens itself. */
export async function buildApp ({ config, db, jwtSecret, logger }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...(logger !== undefined
      ? { loggerInstance: logger }
      : { logger: { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] } }),
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    routerOptions: { maxParamLength: 200 },
    // Errors the router raises before any route runs (a malformed or overlong URL) get `{"error"}` bodies too.
    frameworkErrors,
  }).withTypeProvider<TypeBoxTypeProvider>()

  app.setValidatorCompiler(schemaCompiler())
  registerJsonParser(app)
  registerErrorHandling(app)
  app.addHook('onSend', async (request, reply) => { reply.header('x-request-id', request.id) })

  // Every API route must say who may call it; a route that forgets fails at start-up, not in production.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(API_PREFIX) && route.schema?.hide !== true && route.config?.auth === undefined) {
      throw new Error(`route ${route.method} ${route.url} declares no config.auth`)
    }
  })

  const tokens = accessTokens(jwtSecret, config.accessTokenTtlSeconds)
  const principals = new PrincipalCache(db, config.authCacheTtlMs)
  registerAuth(app, tokens, principals)
  await registerOpenApi(app)

  const auth = new AuthService(db, tokens, { scrypt: config.scrypt, refreshTokenTtlDays: config.refreshTokenTtlDays })
  const users = new UsersService(db)
  const roles = new RolesService(db, principals)
  const requests = new RequestsService(db)
  const moderation = new ModerationService(db)

  await app.register(async (api) => {
    api.get('/health', {
      schema: { tags: ['health'], summary: 'Liveness', response: { 200: { content: { 'text/plain': { schema: Type.String() } } } } },
      config: { auth: 'none' },
    }, async (_request, reply) => reply.type('text/plain; charset=utf-8').send('ok'))
    await api.register(authRoutes, { auth })
    await api.register(usersRoutes, { users })
    await api.register(rolesRoutes, { roles })
    await api.register(requestTypesRoutes, { db })
    await api.register(requestsRoutes, { requests })
    await api.register(moderationRoutes, { moderation })
  }, { prefix: API_PREFIX })

  return app
}
