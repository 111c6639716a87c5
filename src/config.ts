/**
 * Every setting of the service, in one TypeBox schema (SETTINGS below) shaped like the Config the code
 * reads. Each leaf names its environment variable (`env`) and carries its limits, `default` and
 * `description`; from it come the Config type, the defaults, the checks and their messages (loadConfig,
 * by src/lib/env-schema.ts) and the README's settings table (scripts/docs-config.ts: `npm run docs:config`,
 * checked by test/unit/config.test.ts).
 *
 * To add a setting: add one property to SETTINGS, e.g.
 *   retentionDays: Type.Integer({ env: 'RETENTION_DAYS', minimum: 1, maximum: 3650, default: 365, description: '...' }),
 * then run `npm run docs:config`. Optional (`Type.Optional`, no default) means unset is allowed; a list is
 * `Type.Array` (comma-separated); `must` words a pattern or format check ('start with redis://');
 * `secret` keeps the value out of messages; a value that needs converting after the check is a
 * `Type.Codec`. A rule between settings goes in RULES.
 */
import { availableParallelism } from 'node:os'
import { isAbsolute, resolve } from 'node:path'
import { Type, type StaticDecode } from 'typebox'
import { CHECK_KINDS } from './lib/checks.js'
import { MAX_SMS_SEGMENTS as MAX_SEGMENTS, smsShape } from './lib/sms-segments.js'
import { isTimeZone } from './lib/values.js'
import { ConfigError, deepFreeze, readSettings, type Env } from './lib/env-schema.js'
import type { ScryptParams } from './lib/passwords.js'
import { VISIT_SETTINGS } from './help/settings.js'
import { REACH_SETTINGS } from './messaging/settings.js'
import { SCHEDULE_SETTINGS } from './regular-help/settings.js'

// The operator's error, thrown by loadConfig; src/cli.ts tells it apart from a crash.
export { ConfigError }

/** scrypt cost parameters; N=2^14, r=8, p=5 is one of OWASP's recommended sets (16 MiB). */
export const OWASP_SCRYPT: ScryptParams = Object.freeze({ N: 2 ** 14, r: 8, p: 5 })

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = typeof LOG_LEVELS[number]

/** A whole number within limits. */
const whole = (env: string, minimum: number, maximum: number, fallback: number, description: string) =>
  Type.Integer({ env, minimum, maximum, default: fallback, description })

const ROUND_PART = '\\s*(urgent|high|medium|low)\\s*=\\s*\\d{1,9}\\s*'
const ROUND_LEVELS = { urgent: 120, high: 600, medium: 1800, low: 3600 }

/** ALERT_ROUND_SECONDS (checked by its pattern) as seconds by urgency; a level left out keeps its default. */
function roundSeconds (text: string): Readonly<Record<keyof typeof ROUND_LEVELS, number>> {
  const seconds = { ...ROUND_LEVELS }
  for (const part of text.split(',')) {
    const [level, value] = part.split('=').map((word) => word.trim()) as [keyof typeof ROUND_LEVELS, string]
    seconds[level] = Number(value)
  }
  return Object.freeze(seconds)
}

export const SETTINGS = Type.Object({
  port: whole('PORT', 0, 65535, 3000, 'TCP port to listen on (0: any free port)'),
  host: Type.String({ env: 'HOST', default: '127.0.0.1', description: 'address to listen on (`0.0.0.0` for all interfaces)' }),
  dataDir: Type.Codec(Type.String({ env: 'DATA_DIR', default: './data', description: 'folder of the embedded database and its generated signing secret' }))
    .Decode((dir) => isAbsolute(dir) ? dir : resolve(dir))
    .Encode((dir) => dir),
  databaseUrl: Type.Optional(Type.String({
    env: 'DATABASE_URL',
    pattern: '^postgres(ql)?://',
    must: 'start with postgres:// or postgresql://',
    secret: true,
    description: '`postgres://...` of a PostgreSQL server; when set, the server is used instead of the embedded database',
  })),
  jwtSecret: Type.Optional(Type.String({
    env: 'JWT_SECRET',
    minLength: 32,
    secret: true,
    unset: 'generated',
    description: 'secret that signs access tokens. Without it, the embedded mode generates one on first start and keeps it in `DATA_DIR/jwt-secret`. Required with `DATABASE_URL`, and must be the same on every instance',
  })),
  accessTokenTtlSeconds: whole('ACCESS_TOKEN_TTL_SECONDS', 60, 86400, 900, 'access token lifetime'),
  refreshTokenTtlDays: whole('REFRESH_TOKEN_TTL_DAYS', 1, 365, 30, 'refresh token lifetime'),
  // Both or neither (a group: an optional object of settings).
  admin: Type.Optional(Type.Object({
    // The e-mail syntax the API accepts at register and login, so the admin can log in.
    email: Type.String({
      env: 'ADMIN_EMAIL',
      format: 'email',
      maxLength: 254,
      must: 'be an e-mail address',
      description: 'with `ADMIN_PASSWORD`: this account is created if missing and given the admin role at every start (an existing account keeps its password)',
    }),
    password: Type.String({ env: 'ADMIN_PASSWORD', minLength: 8, maxLength: 128, secret: true, untrimmed: true, description: 'password of that account when it is created' }),
  })),
  logLevel: Type.Enum(LOG_LEVELS, { env: 'LOG_LEVEL', default: 'info', description: 'how much the service logs' }),
  // docs/api/accounts.md › Tokens: a block reaches every instance within 5 seconds.
  authCacheTtlMs: whole('AUTH_CACHE_TTL_MS', 0, 5000, 2000, 'how long an instance trusts its cached view of a user\'s roles and blocked flag'),
  // docs/api/help.md › Searches.
  boundsResultCap: whole('BOUNDS_RESULT_CAP', 1, 100000, 1000, 'most items one map-rectangle search returns'),
  mapMarkerCap: whole('MAP_MARKER_CAP', 1, 1000, 50, 'most markers `GET /requests/map` returns for one view: those nearest its centre'),
  redisUrl: Type.Optional(Type.String({
    env: 'REDIS_URL',
    pattern: '^rediss?://',
    must: 'start with redis:// or rediss://',
    secret: true,
    description: '`redis://...`; when set, rate-limit counters are shared by every instance through Redis (otherwise kept per process)',
  })),
  rateLimits: Type.Object({
    windowSeconds: whole('RATE_LIMIT_WINDOW_SECONDS', 1, 86400, 60, 'length of a rate-limit window'),
    perAddress: whole('RATE_LIMIT_PER_ADDRESS', 1, 1_000_000, 60, 'login, register and refresh calls, and those of codes and password changes (docs/api/accounts.md › Getting back in), together per client address per window'),
    perAccount: whole('RATE_LIMIT_PER_ACCOUNT', 1, 1_000_000, 10, 'login (and register, and asking for or trying a code) calls per e-mail address, and erasure (DELETE /users/me) and password change calls per account, per window'),
  }),
  // docs/api/accounts.md › A burst of sign-ups.
  passwordQueueSeconds: whole('PASSWORD_QUEUE_SECONDS', 1, 300, 10, 'longest a registration waits for a password-hashing thread before it is refused with 429 and `Retry-After`; a sign-in may wait twice as long, so people with an account still get in during a burst of sign-ups'),
  corsOrigins: Type.Array(Type.String({ pattern: '^https?://[^/\\s]+$' }), {
    env: 'CORS_ORIGINS',
    default: [],
    must: 'be origins like https://example.org',
    description: 'comma-separated origins (`https://app.example.org`) allowed to call the API from a browser',
  }),
  // Fastify's trustProxy: false, true, a hop count, or a list of proxy addresses.
  trustProxy: Type.Union([Type.Boolean(), Type.Integer({ minimum: 0 }), Type.String()], {
    env: 'TRUST_PROXY',
    default: false,
    description: 'behind a reverse proxy: `true`, a hop count, or the proxies\' addresses, so the client address comes from `X-Forwarded-For`',
  }),
  dbPoolSize: whole('DB_POOL_SIZE', 1, 1000, 10, 'PostgreSQL server: connections each process keeps open (with `WORKERS`, per worker: size `max_connections` for instances × workers × this)'),
  dbConnectTimeoutMs: whole('DB_CONNECT_TIMEOUT_MS', 100, 60000, 3000, 'PostgreSQL server: how long a request waits for a connection before failing with 503'),
  dbStatementTimeoutMs: whole('DB_STATEMENT_TIMEOUT_MS', 100, 600000, 10000, 'PostgreSQL server: longest a statement may run'),
  workers: Type.Codec(Type.Union([Type.Literal('auto'), Type.Integer({ minimum: 1, maximum: 64 })], {
    env: 'WORKERS',
    default: 1,
    description: 'processes serving HTTP on the one port (node:cluster), `auto` for one per core. Above 1 needs `DATABASE_URL`. Each worker has its own connection pool, in-memory rate-limit counters (set `REDIS_URL` to share them) and `/metrics` figures. See `docs/performance.md` for when it pays',
  })).Decode((count) => count === 'auto' ? availableParallelism() : count).Encode((count) => count),
  // docs/privacy.md: what each protects and what not.
  locationPrivacy: Type.Enum(['exact', 'grid'] as const, {
    env: 'LOCATION_PRIVACY',
    default: 'exact',
    description: '`grid`: searches by anyone but moderators and admins treat each request as standing at the centre of its grid cell (radius, rectangle, order, `distance_meters`), so no sequence of searches locates a home; `exact`: interface 1.0.1',
  }),
  addressPrivacy: Type.Enum(['full', 'parties'] as const, {
    env: 'ADDRESS_PRIVACY',
    default: 'full',
    description: '`parties`: everyone but a request\'s requester, moderators, admins and its accepted volunteer sees only its city (or "address shared after acceptance") and "Erna S." for the requester\'s name (docs/privacy.md); `full`: interface 1.0.1',
  }),
  unmoderatedInSearch: Type.Enum(['everyone', 'parties'] as const, {
    env: 'UNMODERATED_IN_SEARCH',
    default: 'everyone',
    description: '`parties`: requests awaiting moderation appear in searches only for their requester, moderators and admins',
  }),
  // At least a week when set, so that a slip of the finger cannot erase yesterday's work.
  retentionDays: Type.Union([Type.Integer({ minimum: 0, maximum: 0 }), Type.Integer({ minimum: 7, maximum: 3650 })], {
    env: 'RETENTION_DAYS',
    default: 0,
    must: 'be 0 or a whole number from 7 to 3650',
    description: '0 keeps everything; 7 to 3650: requests finished longer ago lose contact data, address, description and exact point (a job at start-up and hourly, once across instances; `npm run retention` runs it on demand)',
  }),
  // docs/api/messaging.md › Notifications allows deleting notifications older than 90 days, no younger.
  notificationRetentionDays: Type.Union([Type.Integer({ minimum: 0, maximum: 0 }), Type.Integer({ minimum: 90, maximum: 3650 })], {
    env: 'NOTIFICATION_RETENTION_DAYS',
    default: 90,
    must: 'be 0 or a whole number from 90 to 3650',
    description: '0 keeps every notification; 90 to 3650: notifications older than this are deleted (the retention job, at start-up and hourly, once across instances)',
  }),
  // A month at least: a client helped monthly keeps their record between two requests.
  clientRetentionDays: Type.Union([Type.Integer({ minimum: 0, maximum: 0 }), Type.Integer({ minimum: 30, maximum: 3650 })], {
    env: 'CLIENT_RETENTION_DAYS',
    default: 0,
    must: 'be 0 or a whole number from 30 to 3650',
    description: '0 keeps the coordinators\' client records; 30 to 3650: a client with no request under way, whose record and requests have not changed for this long, is erased as `DELETE /clients/{id}` does (the retention job)',
  }),
  // The web app's map (docs/web/help.md › Map); the CSP lets the app load images from this host only.
  mapTileUrl: Type.String({
    env: 'MAP_TILE_URL',
    default: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
    pattern: '^https?://[^/\\s{}]+/\\S*\\{z\\}\\S*\\{x\\}\\S*\\{y\\}\\S*$',
    must: 'be an http(s) address with {z}, {x} and {y} and a fixed host, such as https://tile.openstreetmap.org/{z}/{x}/{y}.png',
    description: 'map pictures (raster tiles) of the web app\'s map; the page works without them. Mind the tile server\'s usage policy',
  }),
  mapTileAttribution: Type.String({
    env: 'MAP_TILE_ATTRIBUTION',
    default: '© OpenStreetMap contributors',
    minLength: 1,
    maxLength: 300,
    description: 'credit for the map pictures, shown on the map as plain text (their licence asks for it)',
  }),
  geocoderUrl: Type.Optional(Type.String({
    env: 'GEOCODER_URL',
    pattern: '^https?://[^/\\s?#]+(/[^\\s?#]*)?$',
    must: 'be an http(s) address without a query, such as https://nominatim.openstreetmap.org',
    description: 'a Nominatim-compatible geocoder (`<url>/search?format=jsonv2`) the web app asks, from the browser, for the point of a typed address; unset: off. The address typed goes to that server; the CSP allows it',
  })),
  mapGridMeters: whole('MAP_GRID_METERS', 50, 5000, 300, 'size of the grid cells of the approximate `location` shown to strangers and of `LOCATION_PRIVACY=grid`; after a change, start-up recomputes the stored grid points'),
  // docs/api/accounts.md › Checks that vet volunteers: a check is valid through the whole of its last day, in this zone.
  timeZone: Type.String({
    env: 'TIME_ZONE',
    default: 'UTC',
    must: 'be an IANA time zone such as Europe/Berlin or UTC',
    description: 'the deployment\'s time zone (IANA name): the calendar day in which a check\'s `valid_until` ends, and the zone of a series of requests that names none (docs/api/schedule.md)',
  }),
  // Listed once each, whatever the operator typed twice.
  volunteerChecks: Type.Codec(Type.Array(Type.Enum(CHECK_KINDS), {
    env: 'VOLUNTEER_CHECKS',
    default: [],
    must: `be a comma-separated list of ${CHECK_KINDS.join(', ')}`,
    description: 'comma-separated kinds of check (`identity,background`) a volunteer must hold, valid, to offer help and to be alerted; unset: none',
  })).Decode((kinds) => CHECK_KINDS.filter((kind) => kinds.includes(kind))).Encode((kinds) => kinds),
  // Fair nearby alerts (docs/alerts.md).
  alerts: Type.Object({
    roundSeconds: Type.Codec(Type.String({
      env: 'ALERT_ROUND_SECONDS',
      default: 'urgent=120,high=600,medium=1800,low=3600',
      pattern: `^(${ROUND_PART})(,(${ROUND_PART}))*$`,
      must: 'look like urgent=120,high=600,medium=1800,low=3600 (each value from 1 to 86400)',
      description: 'seconds between the alert rounds of an approved request, by urgency (each 1 to 86400; a level left out keeps its default). See `docs/alerts.md`',
    })).Decode(roundSeconds).Encode((seconds) => Object.entries(seconds).map(([level, value]) => `${level}=${value}`).join(',')),
    stopAfterOffers: whole('ALERT_STOP_AFTER_OFFERS', 1, 1000, 3, 'no alert rounds while a request has this many pending offers'),
    maxRounds: whole('ALERT_MAX_ROUNDS', 1, 1000, 5, 'most alert rounds after a request becomes approved'),
    batch: whole('ALERT_BATCH', 1, 1000, 5, 'volunteers alerted per round at most'),
    ringMeters: whole('ALERT_RING_METERS', 1, 50000, 1000, 'width of the distance rings within which alerts are shared out fairly'),
    // docs/api/help.md › Catch-up alerts.
    catchUp: whole('ALERT_CATCH_UP', 0, 20, 3, 'most open requests a volunteer is alerted to on coming on duty (or moving, widening the radius, changing kinds while on duty)'),
  }),
  ...REACH_SETTINGS,
  ...SCHEDULE_SETTINGS,
  ...VISIT_SETTINGS,
})

/** The alert policy's settings (docs/alerts.md). */
export type AlertSettings = Config['alerts']
/** The schedule's settings (src/regular-help/settings.ts; docs/api/schedule.md). */
export type ScheduleSettings = Config['schedule']
/** The visit checks' settings (src/help/settings.ts; docs/api/visit-checks.md). */
export type VisitSettings = Config['visits']

/** The settings as the code reads them, plus the fixed scrypt parameters. */
export type Config = Readonly<StaticDecode<typeof SETTINGS> & { scrypt: ScryptParams }>

/** Rules between settings, checked after each one alone; `env` holds the trimmed raw values. */
const RULES: Array<(config: Config, env: Env) => string | undefined> = [
  // Several instances share one server, so they must share the secret too; a generated one would differ.
  (config) => config.databaseUrl !== undefined && config.jwtSecret === undefined ? 'JWT_SECRET is required when DATABASE_URL is set' : undefined,
  // PGlite belongs to one process.
  (config, env) => config.databaseUrl === undefined && (config.workers > 1 || env.WORKERS === 'auto')
    ? 'WORKERS needs DATABASE_URL: the embedded database can be opened by one process only, so leave WORKERS unset (or 1)'
    : undefined,
  (config) => config.smtpUrl !== undefined && config.publicUrl === undefined ? 'PUBLIC_URL is required when SMTP_URL is set: e-mails link to the app' : undefined,
  (config) => config.smsSmppUrl !== undefined && config.smsFrom === undefined ? 'SMS_FROM is required when SMS_SMPP_URL is set: texts need a sender' : undefined,
  (config) => config.smsHelpText !== undefined && smsShape(config.smsHelpText).segments > MAX_SEGMENTS
    ? `SMS_HELP_TEXT must fit in ${MAX_SEGMENTS} text segments, got ${smsShape(config.smsHelpText).segments}`
    : undefined,
  (config) => isTimeZone(config.timeZone) ? undefined : `TIME_ZONE must be an IANA time zone such as Europe/Berlin or UTC, got "${config.timeZone}"`,
  (config) => config.schedule.confirmDeadlineHours >= config.schedule.confirmBeforeHours
    ? `CONFIRM_DEADLINE_HOURS must be less than CONFIRM_BEFORE_HOURS, got ${config.schedule.confirmDeadlineHours} and ${config.schedule.confirmBeforeHours}`
    : undefined,
  (config, env) => Object.values(config.alerts.roundSeconds).some((seconds) => seconds < 1 || seconds > 86400)
    ? `ALERT_ROUND_SECONDS must have each value from 1 to 86400, got "${env.ALERT_ROUND_SECONDS ?? ''}"`
    : undefined,
]

/** The only reader of the environment. Throws ConfigError with a message meant for the operator. */
export function loadConfig (env: Env = process.env): Config {
  const config = { ...readSettings(SETTINGS, env), scrypt: OWASP_SCRYPT } as unknown as Config
  const trimmed = Object.fromEntries(Object.entries(env).map(([name, value]) => [name, value?.trim()]))
  for (const rule of RULES) {
    const message = rule(config, trimmed)
    if (message !== undefined) throw new ConfigError(message)
  }
  return deepFreeze(config)
}
