import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { resolve } from 'node:path'
import { describe, it } from 'node:test'
import { settingsTable, withSettingsTable } from '../../scripts/docs-config.js'
import { ConfigError, loadConfig, OWASP_SCRYPT } from '../../src/config.js'

const SECRET = 'a'.repeat(32)

function refuses (env: Record<string, string>, message: string): void {
  assert.throws(() => loadConfig(env), (error: unknown) => {
    assert.ok(error instanceof ConfigError, 'a ConfigError')
    assert.equal(error.message, message)
    return true
  })
}
describe('loadConfig', () => {
  it('has defaults for everything: embedded database in ./data, port 3000, 15-minute access tokens', () => {
    const config = loadConfig({})
    assert.deepEqual(config, {
      port: 3000,
      host: '127.0.0.1',
      dataDir: resolve('data'),
      databaseUrl: undefined,
      jwtSecret: undefined,
      accessTokenTtlSeconds: 900,
      refreshTokenTtlDays: 30,
      admin: undefined,
      logLevel: 'info',
      authCacheTtlMs: 2000,
      boundsResultCap: 1000,
      mapMarkerCap: 50,
      scrypt: OWASP_SCRYPT,
      redisUrl: undefined,
      rateLimits: { windowSeconds: 60, perAddress: 60, perAccount: 10 },
      passwordQueueSeconds: 10,
      corsOrigins: [],
      trustProxy: false,
      dbPoolSize: 10,
      dbConnectTimeoutMs: 3000,
      dbStatementTimeoutMs: 10000,
      workers: 1,
      locationPrivacy: 'exact',
      addressPrivacy: 'full',
      unmoderatedInSearch: 'everyone',
      retentionDays: 0,
      notificationRetentionDays: 90,
      clientRetentionDays: 0,
      mapTileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      mapTileAttribution: '© OpenStreetMap contributors',
      geocoderUrl: undefined,
      mapGridMeters: 300,
      timeZone: 'UTC',
      volunteerChecks: [],
      alerts: { roundSeconds: { urgent: 120, high: 600, medium: 1800, low: 3600 }, stopAfterOffers: 3, maxRounds: 5, batch: 5, ringMeters: 1000, catchUp: 3 },
      publicUrl: undefined,
      smsDir: undefined,
      smsFrom: undefined,
      smsSmppUrl: undefined,
      smtpUrl: undefined,
      mailDir: undefined,
      mailFrom: 'Neighbourly help <no-reply@localhost>',
      vapid: undefined,
      pushEndpointHosts: ['fcm.googleapis.com', 'updates.push.services.mozilla.com', '*.notify.windows.com', 'web.push.apple.com'],
      deliveryMaxAttempts: 6,
      emailVerification: 'self',
      smsDefaultCountry: 'DE',
      smsDailyLimitPerNumber: 10,
      smsDailyLimit: 500,
      smsHelpText: undefined,
      schedule: { horizonDays: 28, preferredHoldHours: 24, confirmBeforeHours: 24, confirmDeadlineHours: 12, remindBeforeMinutes: 120, staleAfterDays: 14 },
      visits: { checks: 'off', startGraceMinutes: 30, overdueMinutes: 120, escalateMinutes: 15, mileageRateCents: 30 },
    })
    assert.ok(Object.isFrozen(config))
    assert.deepEqual({ ...OWASP_SCRYPT }, { N: 16384, r: 8, p: 5 })
  })

  it('reads the alert settings; ALERT_ROUND_SECONDS by urgency, each level 1 to 86400, others keeping their defaults', () => {
    const config = loadConfig({ ALERT_ROUND_SECONDS: ' urgent=30, low = 86400 ', ALERT_BATCH: '8', ALERT_RING_METERS: '500', ALERT_MAX_ROUNDS: '2', ALERT_STOP_AFTER_OFFERS: '1', ALERT_CATCH_UP: '0' })
    assert.deepEqual(config.alerts, { roundSeconds: { urgent: 30, high: 600, medium: 1800, low: 86400 }, stopAfterOffers: 1, maxRounds: 2, batch: 8, ringMeters: 500, catchUp: 0 })
    assert.throws(() => loadConfig({ ALERT_CATCH_UP: '21' }), /ALERT_CATCH_UP must be a whole number from 0 to 20, got "21"/)
    for (const bad of ['urgent=0', 'low=86401', 'urgent=10,soon=5', 'urgent=', 'urgent=1.5', 'urgent=120;high=600']) {
      assert.throws(() => loadConfig({ ALERT_ROUND_SECONDS: bad }), (error: Error) => error instanceof ConfigError && error.message.startsWith('ALERT_ROUND_SECONDS must'), bad)
    }
    assert.throws(() => loadConfig({ ALERT_BATCH: '0' }), /ALERT_BATCH must be a whole number from 1 to 1000, got "0"/)
  })
  it('reads every setting, trimming surrounding spaces', () => {
    const config = loadConfig({
      PORT: ' 8080 ',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/vcs',
      DATABASE_URL: 'postgres://app@db:5432/vcs',
      JWT_SECRET: SECRET,
      ACCESS_TOKEN_TTL_SECONDS: '600',
      REFRESH_TOKEN_TTL_DAYS: '7',
      ADMIN_EMAIL: 'Admin@Example.org',
      ADMIN_PASSWORD: 'admin password',
      LOG_LEVEL: 'warn',
      AUTH_CACHE_TTL_MS: '0',
      BOUNDS_RESULT_CAP: '50',
    })
    assert.equal(config.port, 8080)
    assert.equal(config.host, '0.0.0.0')
    assert.equal(config.dataDir, '/var/lib/vcs')
    assert.equal(config.databaseUrl, 'postgres://app@db:5432/vcs')
    assert.equal(config.jwtSecret, SECRET)
    assert.equal(config.accessTokenTtlSeconds, 600)
    assert.equal(config.refreshTokenTtlDays, 7)
    assert.deepEqual(config.admin, { email: 'Admin@Example.org', password: 'admin password' })
    assert.equal(config.logLevel, 'warn')
    assert.equal(config.authCacheTtlMs, 0)
    assert.equal(config.boundsResultCap, 50)
  })

  it('reads the rate limits, Redis, CORS, proxy trust and database timeouts', () => {
    const config = loadConfig({
      REDIS_URL: 'redis://127.0.0.1:6379',
      RATE_LIMIT_WINDOW_SECONDS: '30',
      RATE_LIMIT_PER_ADDRESS: '100',
      RATE_LIMIT_PER_ACCOUNT: '5',
      CORS_ORIGINS: 'https://app.example.org, http://localhost:5173',
      TRUST_PROXY: '1',
      DB_POOL_SIZE: '4',
      DB_CONNECT_TIMEOUT_MS: '500',
      DB_STATEMENT_TIMEOUT_MS: '2000',
    })
    assert.equal(config.redisUrl, 'redis://127.0.0.1:6379')
    assert.deepEqual(config.rateLimits, { windowSeconds: 30, perAddress: 100, perAccount: 5 })
    assert.deepEqual(config.corsOrigins, ['https://app.example.org', 'http://localhost:5173'])
    assert.equal(config.trustProxy, 1)
    assert.equal(loadConfig({ TRUST_PROXY: 'true' }).trustProxy, true)
    assert.equal(loadConfig({ TRUST_PROXY: '10.0.0.1,10.0.0.2' }).trustProxy, '10.0.0.1,10.0.0.2')
    assert.equal(config.dbPoolSize, 4)
    assert.equal(config.dbConnectTimeoutMs, 500)
    assert.equal(config.dbStatementTimeoutMs, 2000)
  })

  it('refuses a REDIS_URL, a CORS origin or a rate limit that is not one', () => {
    assert.throws(() => loadConfig({ REDIS_URL: 'localhost:6379' }), { message: 'REDIS_URL must start with redis:// or rediss://' })
    assert.throws(() => loadConfig({ CORS_ORIGINS: 'https://ok.example.org,*' }), { message: 'CORS_ORIGINS must be origins like https://example.org, got "*"' })
    assert.throws(() => loadConfig({ CORS_ORIGINS: 'https://app.example.org/path' }), ConfigError)
    assert.throws(() => loadConfig({ RATE_LIMIT_PER_ACCOUNT: '0' }), { message: 'RATE_LIMIT_PER_ACCOUNT must be a whole number from 1 to 1000000, got "0"' })
    assert.throws(() => loadConfig({ DB_STATEMENT_TIMEOUT_MS: '10ms' }), ConfigError)
    assert.throws(() => loadConfig({ DB_POOL_SIZE: '0' }), { message: 'DB_POOL_SIZE must be a whole number from 1 to 1000, got "0"' })
  })

  it('empty variables count as unset', () => {
    assert.deepEqual(loadConfig({ PORT: '', DATABASE_URL: ' ', JWT_SECRET: '', ADMIN_EMAIL: '', ADMIN_PASSWORD: '' }), loadConfig({}))
  })
  it('accepts PORT 0 (any free port) and 65535', () => {
    assert.equal(loadConfig({ PORT: '0' }).port, 0)
    assert.equal(loadConfig({ PORT: '65535' }).port, 65535)
  })
  it('refuses a MAP_TILE_URL without a fixed host or without {z}, {x} and {y}', () => {
    const must = 'must be an http(s) address with {z}, {x} and {y} and a fixed host, such as https://tile.openstreetmap.org/{z}/{x}/{y}.png'
    for (const url of ['https://{s}.tile.example.org/{z}/{x}/{y}.png', 'https://tiles.example.org/{z}/{x}.png', 'ftp://tiles.example.org/{z}/{x}/{y}.png', 'tiles.example.org/{z}/{x}/{y}.png']) {
      refuses({ MAP_TILE_URL: url }, `MAP_TILE_URL ${must}, got "${url}"`)
    }
    assert.equal(loadConfig({ MAP_TILE_URL: 'http://127.0.0.1:8080/{z}/{x}/{y}.png' }).mapTileUrl, 'http://127.0.0.1:8080/{z}/{x}/{y}.png')
    refuses({ MAP_TILE_ATTRIBUTION: 'x'.repeat(301) }, `MAP_TILE_ATTRIBUTION must be 1 to 300 characters long, got "${'x'.repeat(301)}"`)
  })
  it('takes a GEOCODER_URL with a path, and refuses one with a query or of another scheme', () => {
    assert.equal(loadConfig({ GEOCODER_URL: 'https://geo.example.org/nominatim/' }).geocoderUrl, 'https://geo.example.org/nominatim/')
    const must = 'must be an http(s) address without a query, such as https://nominatim.openstreetmap.org'
    for (const url of ['https://geo.example.org/search?q=x', 'ftp://geo.example.org', 'geo.example.org']) refuses({ GEOCODER_URL: url }, `GEOCODER_URL ${must}, got "${url}"`)
  })

  it('refuses a bad PORT', () => {
    for (const port of ['abc', '65536', '-1', '80.5', '0x50']) refuses({ PORT: port }, `PORT must be a whole number from 0 to 65535, got "${port}"`)
  })

  it('reads the schedule settings (docs/api/schedule.md) in their ranges; the confirmation deadline comes before the question', () => {
    const config = loadConfig({ SERIES_HORIZON_DAYS: '90', CONFIRM_BEFORE_HOURS: '48', CONFIRM_DEADLINE_HOURS: '47', REMIND_BEFORE_MINUTES: '15' })
    assert.deepEqual([config.schedule.horizonDays, config.schedule.confirmBeforeHours, config.schedule.confirmDeadlineHours, config.schedule.remindBeforeMinutes], [90, 48, 47, 15])
    refuses({ SERIES_HORIZON_DAYS: '6' }, 'SERIES_HORIZON_DAYS must be a whole number from 7 to 90, got "6"')
    refuses({ CONFIRM_BEFORE_HOURS: '73' }, 'CONFIRM_BEFORE_HOURS must be a whole number from 2 to 72, got "73"')
    refuses({ CONFIRM_DEADLINE_HOURS: '24' }, 'CONFIRM_DEADLINE_HOURS must be less than CONFIRM_BEFORE_HOURS, got 24 and 24')
    refuses({ CONFIRM_BEFORE_HOURS: '6', CONFIRM_DEADLINE_HOURS: '12' }, 'CONFIRM_DEADLINE_HOURS must be less than CONFIRM_BEFORE_HOURS, got 12 and 6')
  })

  it('refuses a JWT_SECRET shorter than 32 characters', () => {
    refuses({ JWT_SECRET: 'short' }, 'JWT_SECRET must be at least 32 characters long')
    refuses({ JWT_SECRET: 'a'.repeat(31) }, 'JWT_SECRET must be at least 32 characters long')
    assert.equal(loadConfig({ JWT_SECRET: SECRET }).jwtSecret, SECRET)
  })

  it('refuses DATABASE_URL without JWT_SECRET, and a DATABASE_URL that is not PostgreSQL', () => {
    refuses({ DATABASE_URL: 'postgres://db/vcs' }, 'JWT_SECRET is required when DATABASE_URL is set')
    // No "got ..." for a URL or secret: it may hold a password, and the message goes to logs.
    refuses({ DATABASE_URL: 'mysql://app:hunter2@db/vcs', JWT_SECRET: SECRET }, 'DATABASE_URL must start with postgres:// or postgresql://')
    assert.equal(loadConfig({ DATABASE_URL: 'postgresql://db/vcs', JWT_SECRET: SECRET }).databaseUrl, 'postgresql://db/vcs')
  })

  it('refuses ADMIN_EMAIL without ADMIN_PASSWORD and the reverse', () => {
    refuses({ ADMIN_EMAIL: 'admin@example.org' }, 'ADMIN_EMAIL and ADMIN_PASSWORD must be set together')
    refuses({ ADMIN_PASSWORD: 'admin password' }, 'ADMIN_EMAIL and ADMIN_PASSWORD must be set together')
  })

  it('refuses an ADMIN_EMAIL that is not an e-mail address and an ADMIN_PASSWORD outside 8..128', () => {
    refuses({ ADMIN_EMAIL: 'admin', ADMIN_PASSWORD: 'admin password' }, 'ADMIN_EMAIL must be an e-mail address, got "admin"')
    refuses({ ADMIN_EMAIL: 'admin@example.org', ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD must be 8 to 128 characters long')
    refuses({ ADMIN_EMAIL: 'admin@example.org', ADMIN_PASSWORD: 'p'.repeat(129) }, 'ADMIN_PASSWORD must be 8 to 128 characters long')
  })

  it('refuses an unknown LOG_LEVEL', () => {
    refuses({ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"')
  })

  it('refuses token lifetimes and a principal cache TTL outside their ranges', () => {
    refuses({ ACCESS_TOKEN_TTL_SECONDS: '30' }, 'ACCESS_TOKEN_TTL_SECONDS must be a whole number from 60 to 86400, got "30"')
    refuses({ REFRESH_TOKEN_TTL_DAYS: '0' }, 'REFRESH_TOKEN_TTL_DAYS must be a whole number from 1 to 365, got "0"')
    // docs/api/accounts.md › Tokens: a block reaches every instance within 5 seconds.
    refuses({ AUTH_CACHE_TTL_MS: '5001' }, 'AUTH_CACHE_TTL_MS must be a whole number from 0 to 5000, got "5001"')
  })

  it('reads WORKERS: a whole number from 1 to 64, or auto for one per core', () => {
    const server = { DATABASE_URL: 'postgres://db/vcs', JWT_SECRET: SECRET }
    assert.equal(loadConfig({ ...server, WORKERS: '3' }).workers, 3)
    assert.equal(loadConfig({ ...server, WORKERS: 'auto' }).workers, availableParallelism())
    assert.equal(loadConfig({ WORKERS: '1' }).workers, 1)
    for (const value of ['0', '65', 'two', '1.5', '-1']) {
      refuses({ ...server, WORKERS: value }, `WORKERS must be auto or a whole number from 1 to 64, got "${value}"`)
    }
  })

  it('refuses more than one worker on the embedded database, which belongs to one process', () => {
    for (const value of ['2', 'auto']) {
      refuses({ WORKERS: value }, 'WORKERS needs DATABASE_URL: the embedded database can be opened by one process only, so leave WORKERS unset (or 1)')
    }
  })

  it('reads the privacy settings (privacy.md, docs/api/help.md › Maps) and refuses values outside them at start-up', () => {
    const config = loadConfig({ LOCATION_PRIVACY: 'grid', UNMODERATED_IN_SEARCH: 'parties', RETENTION_DAYS: '30', MAP_GRID_METERS: '50' })
    assert.deepEqual([config.locationPrivacy, config.unmoderatedInSearch, config.retentionDays, config.mapGridMeters], ['grid', 'parties', 30, 50])
    assert.equal(loadConfig({ RETENTION_DAYS: '0' }).retentionDays, 0)
    assert.equal(loadConfig({ RETENTION_DAYS: '7' }).retentionDays, 7)
    assert.equal(loadConfig({ RETENTION_DAYS: '3650' }).retentionDays, 3650)
    assert.equal(loadConfig({ MAP_GRID_METERS: '5000' }).mapGridMeters, 5000)
    assert.deepEqual(['0', '90', '3650'].map((days) => loadConfig({ NOTIFICATION_RETENTION_DAYS: days }).notificationRetentionDays), [0, 90, 3650])
    assert.equal(loadConfig({}).clientRetentionDays, 0)
    assert.deepEqual(['0', '30', '3650'].map((days) => loadConfig({ CLIENT_RETENTION_DAYS: days }).clientRetentionDays), [0, 30, 3650])
    for (const env of [{ LOCATION_PRIVACY: 'fuzzy' }, { UNMODERATED_IN_SEARCH: 'nobody' }, { RETENTION_DAYS: '6' }, { RETENTION_DAYS: '3651' },
      { RETENTION_DAYS: '-1' }, { MAP_GRID_METERS: '49' }, { MAP_GRID_METERS: '5001' }, { MAP_GRID_METERS: '300.5' },
      { NOTIFICATION_RETENTION_DAYS: '89' }, { NOTIFICATION_RETENTION_DAYS: '3651' }, { CLIENT_RETENTION_DAYS: '29' }, { CLIENT_RETENTION_DAYS: '3651' }]) {
      assert.throws(() => loadConfig(env), (error: unknown) => {
        assert.ok(error instanceof ConfigError)
        assert.match(error.message, new RegExp(`^${Object.keys(env)[0]} must `))
        return true
      }, JSON.stringify(env))
    }
    refuses({ RETENTION_DAYS: '6' }, 'RETENTION_DAYS must be 0 or a whole number from 7 to 3650, got "6"')
    refuses({ MAP_GRID_METERS: '49' }, 'MAP_GRID_METERS must be a whole number from 50 to 5000, got "49"')
  })

  it('reads TIME_ZONE (an IANA zone) and VOLUNTEER_CHECKS (kinds, each once, in their order), refusing anything else (docs/api/accounts.md › Checks that vet volunteers)', () => {
    const config = loadConfig({ TIME_ZONE: ' Europe/Berlin ', VOLUNTEER_CHECKS: ' background , identity,background ' })
    assert.equal(config.timeZone, 'Europe/Berlin')
    assert.deepEqual(config.volunteerChecks, ['identity', 'background'])
    assert.deepEqual(loadConfig({ VOLUNTEER_CHECKS: 'identity,background,training,reference' }).volunteerChecks, ['identity', 'background', 'training', 'reference'])
    for (const zone of ['Europe/Atlantis', 'Berlin', '+01:00', 'UTC+1', 'CEST1', 'europe/berlin', 'utc']) {
      assert.throws(() => loadConfig({ TIME_ZONE: zone }), (error: Error) => error instanceof ConfigError &&
        error.message === `TIME_ZONE must be an IANA time zone such as Europe/Berlin or UTC, got "${zone}"`, zone)
    }
    for (const kinds of ['passport', 'identity,dbs', 'Identity']) {
      assert.throws(() => loadConfig({ VOLUNTEER_CHECKS: kinds }), (error: Error) => error instanceof ConfigError &&
        error.message.startsWith('VOLUNTEER_CHECKS must be a comma-separated list of identity, background, training, reference, driving, got'), kinds)
    }
  })

  it('reads docs/api/messaging.md\'s settings and refuses what they cannot be; SMTP_URL needs PUBLIC_URL', () => {
    const keys = { VAPID_PUBLIC_KEY: 'B'.repeat(87), VAPID_PRIVATE_KEY: 'k'.repeat(43), VAPID_SUBJECT: 'mailto:help@example.org' }
    const config = loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.org:465', PUBLIC_URL: 'https://help.example.org', MAIL_DIR: '/var/mail/vcs', PUSH_ENDPOINT_HOSTS: 'localhost, *.example.org', DELIVERY_MAX_ATTEMPTS: '3', EMAIL_VERIFICATION: 'code', ...keys })
    assert.deepEqual([config.smtpUrl, config.publicUrl, config.mailDir, config.pushEndpointHosts, config.deliveryMaxAttempts, config.emailVerification],
      ['smtps://u:p@mail.example.org:465', 'https://help.example.org', '/var/mail/vcs', ['localhost', '*.example.org'], 3, 'code'])
    assert.deepEqual(config.vapid, { publicKey: keys.VAPID_PUBLIC_KEY, privateKey: keys.VAPID_PRIVATE_KEY, subject: keys.VAPID_SUBJECT })
    const refused = (env: Record<string, string>, message: RegExp) => assert.throws(() => loadConfig(env), (error: Error) => error instanceof ConfigError && message.test(error.message), JSON.stringify(env))
    refused({ SMTP_URL: 'smtp://mail.example.org' }, /^PUBLIC_URL is required when SMTP_URL is set/)
    refused({ SMTP_URL: 'mail.example.org' }, /^SMTP_URL must start with smtp:\/\/ or smtps:\/\/$/)
    refused({ PUBLIC_URL: 'help.example.org' }, /^PUBLIC_URL must be the app's http\(s\) address/)
    refused({ VAPID_PUBLIC_KEY: keys.VAPID_PUBLIC_KEY }, /must be set together/)
    refused({ ...keys, VAPID_SUBJECT: 'help@example.org' }, /^VAPID_SUBJECT must start with mailto: or https:\/\//)
    refused({ PUSH_ENDPOINT_HOSTS: 'https://fcm.googleapis.com' }, /^PUSH_ENDPOINT_HOSTS must be host names/)
    for (const [name, value] of [['DELIVERY_MAX_ATTEMPTS', '0'], ['EMAIL_VERIFICATION', 'link']] as const) refused({ [name]: value }, new RegExp(`^${name} must be`))
    assert.deepEqual((({ smsSmppUrl, smsDir, smsFrom }) => [smsSmppUrl, smsDir, smsFrom])(loadConfig({ SMS_SMPP_URL: 'ssmpp://charity:pw@smpp.example.org:3550', SMS_FROM: 'Nachbarn', SMS_DIR: '/var/sms' })), ['ssmpp://charity:pw@smpp.example.org:3550', '/var/sms', 'Nachbarn'])
    for (const [url, message] of [['smpp://charity:pw@smpp.example.org:2775', /^SMS_FROM is required when SMS_SMPP_URL is set/], ['http://charity:pw@smpp.example.org', /^SMS_SMPP_URL must be smpp:\/\//]] as const) refused({ SMS_SMPP_URL: url }, message)
    for (const from of ['+49 151', 'TwelveLetter', '4915112345678x']) refused({ SMS_FROM: from }, /^SMS_FROM must be a number in E\.164/)
    // A secret is never echoed back.
    assert.throws(() => loadConfig({ ...keys, VAPID_PRIVATE_KEY: 'secret!' }), (error: Error) => !error.message.includes('secret!'))
  })

  it('documents every setting once in the README, as the schema describes it (npm run docs:config rewrites it)', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
    assert.equal(withSettingsTable(readme), readme, 'README.md\'s settings table is out of date: run npm run docs:config')
    const names = [...settingsTable().matchAll(/^\| `([A-Z_]+)` \|/gm)].map((match) => match[1])
    assert.equal(new Set(names).size, names.length, 'each variable once')
    assert.ok(names.length >= 22 && names.includes('PORT') && names.includes('WORKERS'))
    for (const row of settingsTable().split('\n').slice(2)) assert.doesNotMatch(row, /\|\s*\|$/, `a description for ${row}`)
  })
})
