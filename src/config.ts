import { availableParallelism } from 'node:os'
import { isAbsolute, resolve } from 'node:path'
import { fullFormats } from 'ajv-formats/dist/formats.js'

/** The same e-mail syntax the API accepts at register and login, so the admin can log in. */
const EMAIL = fullFormats.email as RegExp

/** scrypt cost parameters; N=2^14, r=8, p=5 is one of OWASP's recommended sets (16 MiB). */
export interface ScryptParams { N: number, r: number, p: number }
export const OWASP_SCRYPT: ScryptParams = Object.freeze({ N: 2 ** 14, r: 8, p: 5 })

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

export interface Config {
  readonly port: number
  readonly host: string
  /** Folder of the embedded database and its generated signing secret. */
  readonly dataDir: string
  /** PostgreSQL server; when absent the embedded PGlite engine in dataDir is used. */
  readonly databaseUrl: string | undefined
  /** From JWT_SECRET; undefined means "generate one and keep it in dataDir" (embedded mode only). */
  readonly jwtSecret: string | undefined
  readonly accessTokenTtlSeconds: number
  readonly refreshTokenTtlDays: number
  readonly admin: { email: string, password: string } | undefined
  readonly logLevel: LogLevel
  /** How long an instance may trust its cached view of a user's roles and blocked flag. */
  readonly authCacheTtlMs: number
  /** Most items one bounds search returns (rules.md › Search and lists). */
  readonly boundsResultCap: number
  readonly scrypt: ScryptParams
  /** Shared rate-limit counters; process memory when undefined. */
  readonly redisUrl: string | undefined
  readonly rateLimits: { windowSeconds: number, perAddress: number, perAccount: number }
  /** Origins allowed to call the API from a browser; none when empty. */
  readonly corsOrigins: readonly string[]
  /** Fastify's trustProxy: false, true, a hop count, or a list of proxy addresses. */
  readonly trustProxy: boolean | number | string
  /** PostgreSQL connections per process. */
  readonly dbPoolSize: number
  /** How long a request waits for a database connection, and for one statement, before failing with 503. */
  readonly dbConnectTimeoutMs: number
  readonly dbStatementTimeoutMs: number
  /** Processes serving HTTP on the one port (node:cluster); 1 means no cluster. */
  readonly workers: number
  /** Fair nearby alerts (events.md § 5). */
  readonly alerts: AlertSettings
}

/** The alert policy's settings (events.md § 5); ALERT_* in the environment. */
export interface AlertSettings {
  /** Seconds between rounds, by the request's urgency. */
  readonly roundSeconds: Readonly<Record<'urgent' | 'high' | 'medium' | 'low', number>>
  /** Rounds stop while the request has this many pending responses. */
  readonly stopAfterOffers: number
  readonly maxRounds: number
  /** Volunteers alerted per round at most. */
  readonly batch: number
  /** Width of the distance rings of the fairness order. */
  readonly ringMeters: number
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>

function integer (env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim()
  if (raw === undefined || raw === '') return fallback
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`)
  }
  return Number(raw)
}

function text (env: Env, name: string): string | undefined {
  const raw = env[name]?.trim()
  return raw === undefined || raw === '' ? undefined : raw
}

function trustProxy (raw: string | undefined): boolean | number | string {
  if (raw === undefined || raw === 'false') return false
  if (raw === 'true') return true
  if (/^\d+$/.test(raw)) return Number(raw)
  return raw
}

/** WORKERS: a count, or `auto` for one per core. Above 1 needs a PostgreSQL server: PGlite belongs to one process. */
function workers (raw: string | undefined, databaseUrl: string | undefined): number {
  if (raw === undefined) return 1
  const count = raw === 'auto' ? availableParallelism() : /^\d+$/.test(raw) ? Number(raw) : NaN
  if (!(count >= 1 && count <= 64)) throw new ConfigError(`WORKERS must be auto or a whole number from 1 to 64, got "${raw}"`)
  if (databaseUrl === undefined && (count > 1 || raw === 'auto')) {
    throw new ConfigError('WORKERS needs DATABASE_URL: the embedded database can be opened by one process only, so leave WORKERS unset (or 1)')
  }
  return count
}

/** ALERT_ROUND_SECONDS: `urgent=120,high=600,medium=1800,low=3600`; a level left out keeps its default. */
function roundSeconds (raw: string | undefined): AlertSettings['roundSeconds'] {
  const seconds = { urgent: 120, high: 600, medium: 1800, low: 3600 }
  for (const part of (raw ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    const match = /^(urgent|high|medium|low)=(\d+)$/.exec(part)
    const value = Number(match?.[2])
    if (match === null || !(value >= 1 && value <= 86400)) {
      throw new ConfigError(`ALERT_ROUND_SECONDS must look like urgent=120,high=600,medium=1800,low=3600 with each value from 1 to 86400, got "${raw}"`)
    }
    seconds[match[1] as keyof typeof seconds] = value
  }
  return Object.freeze(seconds)
}

/** The only reader of the environment. Throws ConfigError with a message meant for the operator. */
export function loadConfig (env: Env = process.env): Config {
  const databaseUrl = text(env, 'DATABASE_URL')
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://')
  }
  const jwtSecret = text(env, 'JWT_SECRET')
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    throw new ConfigError('JWT_SECRET must be at least 32 characters long')
  }
  if (databaseUrl !== undefined && jwtSecret === undefined) {
    // Several instances share one server, so they must share the secret too; a generated one would differ.
    throw new ConfigError('JWT_SECRET is required when DATABASE_URL is set')
  }
  const adminEmail = text(env, 'ADMIN_EMAIL')
  const adminPassword = env.ADMIN_PASSWORD
  if ((adminEmail === undefined) !== (adminPassword === undefined || adminPassword === '')) {
    throw new ConfigError('ADMIN_EMAIL and ADMIN_PASSWORD must be set together')
  }
  if (adminEmail !== undefined && (adminEmail.length > 254 || !EMAIL.test(adminEmail))) {
    throw new ConfigError(`ADMIN_EMAIL must be an e-mail address, got "${adminEmail}"`)
  }
  if (adminPassword !== undefined && adminPassword !== '' && (adminPassword.length < 8 || adminPassword.length > 128)) {
    throw new ConfigError('ADMIN_PASSWORD must be 8 to 128 characters long')
  }
  const logLevel = (text(env, 'LOG_LEVEL') ?? 'info') as LogLevel
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`)
  }
  const redisUrl = text(env, 'REDIS_URL')
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError('REDIS_URL must start with redis:// or rediss://')
  }
  const corsOrigins = (text(env, 'CORS_ORIGINS') ?? '').split(',').map((origin) => origin.trim()).filter(Boolean)
  for (const origin of corsOrigins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) throw new ConfigError(`CORS_ORIGINS: "${origin}" is not an origin like https://example.org`)
  }
  const dataDir = text(env, 'DATA_DIR') ?? './data'
  return Object.freeze({
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: text(env, 'HOST') ?? '127.0.0.1',
    dataDir: isAbsolute(dataDir) ? dataDir : resolve(dataDir),
    databaseUrl,
    jwtSecret,
    accessTokenTtlSeconds: integer(env, 'ACCESS_TOKEN_TTL_SECONDS', 900, 60, 86400),
    refreshTokenTtlDays: integer(env, 'REFRESH_TOKEN_TTL_DAYS', 30, 1, 365),
    admin: adminEmail !== undefined && adminPassword ? { email: adminEmail, password: adminPassword } : undefined,
    logLevel,
    authCacheTtlMs: integer(env, 'AUTH_CACHE_TTL_MS', 2000, 0, 5000),
    boundsResultCap: integer(env, 'BOUNDS_RESULT_CAP', 1000, 1, 100000),
    scrypt: OWASP_SCRYPT,
    redisUrl,
    rateLimits: Object.freeze({
      windowSeconds: integer(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86400),
      perAddress: integer(env, 'RATE_LIMIT_PER_ADDRESS', 60, 1, 1_000_000),
      perAccount: integer(env, 'RATE_LIMIT_PER_ACCOUNT', 10, 1, 1_000_000),
    }),
    corsOrigins: Object.freeze(corsOrigins),
    trustProxy: trustProxy(text(env, 'TRUST_PROXY')),
    dbPoolSize: integer(env, 'DB_POOL_SIZE', 10, 1, 1000),
    dbConnectTimeoutMs: integer(env, 'DB_CONNECT_TIMEOUT_MS', 3000, 100, 60000),
    dbStatementTimeoutMs: integer(env, 'DB_STATEMENT_TIMEOUT_MS', 10000, 100, 600000),
    workers: workers(text(env, 'WORKERS'), databaseUrl),
    alerts: Object.freeze({
      roundSeconds: roundSeconds(text(env, 'ALERT_ROUND_SECONDS')),
      stopAfterOffers: integer(env, 'ALERT_STOP_AFTER_OFFERS', 3, 1, 1000),
      maxRounds: integer(env, 'ALERT_MAX_ROUNDS', 5, 1, 1000),
      batch: integer(env, 'ALERT_BATCH', 5, 1, 1000),
      ringMeters: integer(env, 'ALERT_RING_METERS', 1000, 1, 50000),
    }),
  })
}
