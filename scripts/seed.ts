// Fills the configured database with realistic demo data: users, active requests spread over a metro
// area (denser in the centre), and finished history. Deterministic for a given --seed.
//
//   npm run seed -- --requests 10000 --users 1000 [--history 50000] [--seed 1] [--center 52.52,13.405] [--city Berlin]
//
// Every row is made by set-based SQL (INSERT ... SELECT FROM generate_series), its random numbers and
// places drawn in SQL from the generator and city model the bench and tests share (scripts/lib/).
import { pathToFileURL } from 'node:url'
import { loadConfig } from '../src/config.js'
import type { Database, Queryable } from '../src/db/database.js'
import { migrate } from '../src/db/migrate.js'
import { openDatabase } from '../src/db/open.js'
import { hashPassword } from '../src/lib/passwords.js'
import { MODERATOR_ROLE_ID, VOLUNTEER_ROLE_ID } from '../src/accounts/roles/roles.repo.js'
import { REPORT_TIMES_FROM_OFFERS } from './lib/report-times.js'
import { metroPointSql } from './lib/metro.js'
import { uniformsSql } from './lib/random.js'
import { DEFAULTS, parseCli, progressBar, type Progress, type SeedOptions } from './lib/seed-options.js'
import { BIOS, DESCRIPTIONS, FIRST_NAMES, LAST_NAMES, MESSAGES, parameters, pick, REJECT_REASONS, STREETS, TITLES } from './lib/seed-sql.js'

export const DEMO_PASSWORD = 'demo-password'
export const demoEmail = (n: number): string => `demo-${n}@example.org`
export { DEFAULTS, type Progress, type SeedOptions }

export interface SeedSummary {
  users: { first: number, last: number, moderators: number }
  requests: { first: number, last: number } | undefined
}

/** Rows per statement: big enough to be set-based, small enough for a lively progress bar. */
const BATCH = 20_000

/** One moderator per hundred users (at least one): demo-1 .. demo-k. */
export const moderatorCount = (users: number): number => Math.max(1, Math.floor(users / 100))

async function insertUsers (tx: Queryable, options: SeedOptions, passwordHash: string, progress: Progress): Promise<{ first: number, last: number }> {
  let first = 0
  let last = 0
  for (let lo = 1; lo <= options.users; lo += BATCH) {
    const hi = Math.min(options.users, lo + BATCH - 1)
    const { p, values } = parameters()
    const seed = p(String(options.seed), 'text')
    const lat = p(options.center.lat, 'float8')
    const lon = p(options.center.lon, 'float8')
    const [range] = await tx.query<{ first: number, last: number, count: number }>(/* sql */ `
      WITH ins AS (
        -- direct write: set-based seeding, 20,000 users a statement; users.repo inserts one account per call
        INSERT INTO users (email, password_hash, first_name, last_name, phone, bio, address, city, latitude, longitude,
          email_verified, created_at, updated_at)
        SELECT 'demo-' || g.i || '@example.org', ${p(passwordHash, 'text')},
          ${pick(p(FIRST_NAMES, 'text[]'), FIRST_NAMES.length, 'u.u0')}, ${pick(p(LAST_NAMES, 'text[]'), LAST_NAMES.length, 'u.u1')},
          CASE WHEN u.u5 < 0.6 THEN '+4930' || lpad(floor(u.u5 * 1e7)::text, 7, '0') END,
          CASE WHEN u.u6 < 0.3 THEN ${pick(p(BIOS, 'text[]'), BIOS.length, 'u.u6 / 0.3')} END,
          ${pick(p(STREETS, 'text[]'), STREETS.length, 'u.u9')} || ' ' || (1 + floor(u.u10 * 120)),
          ${p(options.city, 'text')}, l.latitude, l.longitude,
          u.u7 < 0.9, t.created_at, t.created_at
        FROM generate_series(${p(lo, 'int')}, ${p(hi, 'int')}) AS g(i)
          ${uniformsSql(seed, 'user', 11)}
          CROSS JOIN LATERAL (SELECT ${metroPointSql(lat, lon, 'u.u2', 'u.u3', 'u.u4')}) l
          CROSS JOIN LATERAL (SELECT ${p(options.now.toISOString(), 'timestamptz')} - interval '3 years' - u.u8 * interval '2 years' AS created_at) t
        ORDER BY g.i
        RETURNING id
      )
      SELECT min(id) AS first, max(id) AS last, count(*)::int AS count FROM ins`, values)
    if (range === undefined || range.last - range.first + 1 !== range.count || (last !== 0 && range.first !== last + 1)) {
      throw new Error('seeded users did not get consecutive ids')
    }
    if (first === 0) first = range.first
    last = range.last
    progress('users', hi, options.users)
  }
  // direct write: set-based, every seeded user's roles in one statement; roles.repo grants one role per call
  await tx.query(/* sql */ `
    INSERT INTO user_roles (user_id, role_id, assigned_at)
    SELECT id, $4::bigint, created_at FROM users WHERE id BETWEEN $1 AND $2
    UNION ALL
    SELECT id, $5::bigint, created_at FROM users WHERE id BETWEEN $1 AND $1 + $3 - 1`, [first, last, moderatorCount(options.users), VOLUNTEER_ROLE_ID, MODERATOR_ROLE_ID])
  return { first, last }
}

/**
 * One batch of requests with their responses and ratings, in one statement (data-modifying CTEs).
 * Active: 80% approved, 12% pending_moderation, 8% in_progress (with an accepted response); 30% of the
 * approved ones have a pending response. History: 70% completed (accepted response and a rating),
 * 20% cancelled, 10% rejected by a moderator.
 */
function requestBatch (kind: 'active' | 'history', lo: number, hi: number, options: SeedOptions, users: { first: number, last: number }, typeIds: number[]): { text: string, values: unknown[] } {
  const { p, values } = parameters()
  const seed = p(String(options.seed), 'text')
  const now = p(options.now.toISOString(), 'timestamptz')
  const firstUser = p(users.first, 'bigint')
  const userCount = p(options.users, 'bigint')
  const moderators = p(moderatorCount(options.users), 'bigint')
  const types = p(typeIds, 'bigint[]')
  const status = kind === 'active'
    ? "CASE WHEN u.u0 < 0.80 THEN 'approved' WHEN u.u0 < 0.92 THEN 'pending_moderation' ELSE 'in_progress' END"
    : "CASE WHEN u.u0 < 0.70 THEN 'completed' WHEN u.u0 < 0.90 THEN 'cancelled' ELSE 'rejected' END"
  // Active requests are from the last 30 days (those awaiting moderation from the last 2), history from the 3 years before.
  const created = kind === 'active'
    ? `${now} - u.u11 * CASE WHEN s.status = 'pending_moderation' THEN interval '2 days' ELSE interval '30 days' END`
    : `${now} - interval '30 days' - u.u11 * interval '3 years'`
  const title = `(${p(TITLES, 'text[]')})[1 + (type_index % 6) * 4 + floor(u6 * 4)::int]`
  const text = /* sql */ `
    WITH src AS (
      SELECT g.i, u.*, s.*, l.*, t.*,
        -- Requesters are the users after the moderators, so nobody moderates their own request.
        ${firstUser} + ${moderators} + floor(u.u4 * (${userCount} - ${moderators}))::bigint AS requester_id,
        ${firstUser} + floor(u.u15 * ${moderators})::bigint AS moderator_id
      FROM generate_series(${p(lo, 'int')}, ${p(hi, 'int')}) AS g(i)
        ${uniformsSql(seed, kind, 20)}
        CROSS JOIN LATERAL (SELECT ${status} AS status, floor(u.u5 * cardinality(${types}))::int AS type_index) s
        CROSS JOIN LATERAL (SELECT ${metroPointSql(p(options.center.lat, 'float8'), p(options.center.lon, 'float8'), 'u.u1', 'u.u2', 'u.u3')}) l
        CROSS JOIN LATERAL (SELECT ${created} AS created_at) t
    ), shaped AS (
      SELECT src.*,
        -- Anyone but the requester: the requester's index plus 1 .. users-1, wrapped around.
        CASE WHEN status IN ('in_progress', 'completed')
          THEN ${firstUser} + (requester_id - ${firstUser} + 1 + floor(u14 * (${userCount} - 1))::bigint) % ${userCount} END AS volunteer_id,
        -- Within a day of creation, and never in the future.
        CASE WHEN status <> 'pending_moderation' THEN created_at + u16 * least(interval '1 day', (${now} - created_at) / 2) END AS moderated_at,
        CASE WHEN u12 < 0.5 THEN NULL
          WHEN status IN ('pending_moderation', 'approved', 'in_progress') THEN ${now} + (1 + u12 * 40) * interval '1 day'
          ELSE created_at + (1 + u12 * 28) * interval '1 day' END AS desired_completion_date
      FROM src
    ), ins AS (
      -- direct write: set-based seeding of whole histories (requests.repo starts each request pending)
      INSERT INTO requests (requester_id, request_type_id, assigned_volunteer_id, title, description, latitude, longitude,
        address, city, desired_completion_date, urgency, status, contact_phone, contact_notes,
        moderated_by, moderated_at, moderation_comment, created_at, updated_at)
      SELECT requester_id, (${types})[1 + type_index], volunteer_id, ${title},
        ${pick(p(DESCRIPTIONS, 'text[]'), DESCRIPTIONS.length, 'u7')}, latitude, longitude,
        ${pick(p(STREETS, 'text[]'), STREETS.length, 'u8')} || ' ' || (1 + floor(u9 * 120)), ${p(options.city, 'text')},
        desired_completion_date,
        CASE WHEN u10 < 0.3 THEN 'low' WHEN u10 < 0.7 THEN 'medium' WHEN u10 < 0.9 THEN 'high' ELSE 'urgent' END,
        status,
        CASE WHEN u13 < 0.6 THEN '+4930' || lpad(floor(u13 * 1e7)::text, 7, '0') END,
        CASE WHEN u13 < 0.2 THEN 'Please ring twice' END,
        CASE WHEN moderated_at IS NOT NULL THEN moderator_id END, moderated_at,
        CASE WHEN status = 'rejected' THEN ${pick(p(REJECT_REASONS, 'text[]'), REJECT_REASONS.length, 'u17')} END,
        created_at,
        CASE WHEN status IN ('pending_moderation', 'approved', 'rejected') THEN coalesce(moderated_at, created_at)
          ELSE moderated_at + u18 * least(interval '5 days', ${now} - moderated_at) END
      FROM shaped
      ORDER BY i
      RETURNING id, requester_id, assigned_volunteer_id, status, moderated_at, updated_at
    ), accepted AS (
      -- direct write: set-based, with the past times and states the seeded history needs
      INSERT INTO volunteer_responses (request_id, volunteer_id, status, message, responded_at, accepted_at)
      SELECT id, assigned_volunteer_id, 'accepted', ${pick(p(MESSAGES, 'text[]'), MESSAGES.length, 'u.u0')},
        moderated_at + (updated_at - moderated_at) / 4, moderated_at + (updated_at - moderated_at) / 2
      FROM ins ${uniformsSql(seed, `${kind}-accepted`, 1, 'ins.id')}
      WHERE status IN ('in_progress', 'completed')
    ), offered AS (
      -- direct write: set-based, with the past times the seeded history needs
      INSERT INTO volunteer_responses (request_id, volunteer_id, status, message, responded_at)
      SELECT id, ${firstUser} + (requester_id - ${firstUser} + 1 + floor(u.u1 * (${userCount} - 1))::bigint) % ${userCount},
        'pending', ${pick(p(MESSAGES, 'text[]'), MESSAGES.length, 'u.u2')}, moderated_at + u.u3 * (${now} - moderated_at)
      FROM ins ${uniformsSql(seed, `${kind}-offered`, 4, 'ins.id')}
      WHERE status = 'approved' AND u.u0 < 0.3
    )
    -- direct write: set-based, with the past times the seeded history needs
    INSERT INTO ratings (request_id, volunteer_id, rater_id, score, comment, created_at)
    SELECT id, assigned_volunteer_id, requester_id,
      CASE WHEN u.u0 < 0.5 THEN 5 WHEN u.u0 < 0.8 THEN 4 WHEN u.u0 < 0.92 THEN 3 WHEN u.u0 < 0.97 THEN 2 ELSE 1 END,
      CASE WHEN u.u1 < 0.4 THEN 'Thank you so much!' END, updated_at
    FROM ins ${uniformsSql(seed, `${kind}-rating`, 2, 'ins.id')}
    WHERE status = 'completed'`
  return { text, values }
}

async function insertRequests (tx: Queryable, kind: 'active' | 'history', total: number, options: SeedOptions, users: { first: number, last: number }, typeIds: number[], progress: Progress): Promise<void> {
  for (let lo = 1; lo <= total; lo += BATCH) {
    const hi = Math.min(total, lo + BATCH - 1)
    const { text, values } = requestBatch(kind, lo, hi, options, users, typeIds)
    await tx.query(text, values)
    progress(kind === 'active' ? 'active requests' : 'history', hi, total)
  }
}

export function validateOptions (options: SeedOptions): void {
  const whole = (name: string, value: number, min: number) => {
    if (!Number.isSafeInteger(value) || value < min) throw new Error(`--${name} must be a whole number of at least ${min}`)
  }
  whole('requests', options.requests, 0)
  whole('users', options.users, 2)
  whole('history', options.history, 0)
  whole('seed', options.seed, 0)
  const { lat, lon } = options.center
  if (!(Math.abs(lat) <= 85 && Math.abs(lon) <= 180)) throw new Error('--center must be "lat,lon" with lat within ±85 and lon within ±180')
}

/**
 * Seeds a migrated database, all in one transaction (all or nothing), then VACUUM ANALYZE. Refuses a database
 * that already holds seeded data, since the demo e-mails are unique.
 */
export async function seedDatabase (db: Database, options: SeedOptions, progress: Progress = () => {}): Promise<SeedSummary> {
  validateOptions(options)
  // Hashed once: every demo account shares the one known demo password.
  const passwordHash = await hashPassword(DEMO_PASSWORD, options.scrypt)
  const summary = await db.transaction(async (tx) => {
    // No other insert into users while ours run, so the seeded users get consecutive ids (row n is demo-n).
    await tx.query('LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE')
    // Each batch sorts its rows by number before inserting them; keep that sort in memory.
    await tx.query("SET LOCAL work_mem = '64MB'")
    if ((await tx.query('SELECT 1 FROM users WHERE email = $1', [demoEmail(1)])).length > 0) {
      throw new Error(`this database already holds seeded data (${demoEmail(1)} exists): seed an empty database`)
    }
    const typeIds = (await tx.query<{ id: number }>('SELECT id FROM request_types WHERE is_active ORDER BY id')).map((row) => row.id)
    if (typeIds.length === 0) throw new Error('there is no active request type')
    const users = await insertUsers(tx, options, passwordHash, progress)
    const [before] = await tx.query<{ last: number | null }>('SELECT max(id) AS last FROM requests')
    // History first: it is older, so it has the lower ids, as in a service that has been running for a while.
    await insertRequests(tx, 'history', options.history, options, users, typeIds, progress)
    await insertRequests(tx, 'active', options.requests, options, users, typeIds, progress)
    const [after] = await tx.query<{ last: number | null }>('SELECT max(id) AS last FROM requests')
    // A volunteer's count and mean rating follow from their ratings (docs/api/help.md › Volunteer responses, completion and ratings).
    // direct write: every seeded volunteer at once; users.repo's recountVolunteer does one per call
    await tx.query(/* sql */ `
      UPDATE users u SET completed_requests_count = r.count, volunteer_rating = r.mean
      FROM (SELECT volunteer_id, count(*) AS count, avg(score)::float8 AS mean FROM ratings
            WHERE volunteer_id BETWEEN $1 AND $2 GROUP BY volunteer_id) r
      WHERE u.id = r.volunteer_id`, [users.first, users.last])
    // direct write: set-based, the seeded offers' first times on their requests (scripts/lib/report-times.ts)
    await tx.query(REPORT_TIMES_FROM_OFFERS)
    const requests = after?.last == null || after.last === before?.last ? undefined : { first: (before?.last ?? 0) + 1, last: after.last }
    return { users: { ...users, moderators: moderatorCount(options.users) }, requests }
  })
  // VACUUM marks the new rows visible to all once, rather than leaving it to the first queries that read
  // them (each would dirty the pages it reads); ANALYZE gives the planner their statistics.
  progress('vacuum analyze', 0, 1)
  await db.query('VACUUM ANALYZE users, user_roles, requests, volunteer_responses, ratings')
  progress('vacuum analyze', 1, 1)
  return summary
}

async function main (): Promise<void> {
  const config = loadConfig()
  const options: SeedOptions = { ...parseCli(process.argv.slice(2)), now: new Date() }
  validateOptions(options)
  // Big batches and the closing VACUUM ANALYZE outlast the service's statement timeout.
  const db = await openDatabase({ ...config, dbStatementTimeoutMs: 600_000 })
  try {
    await migrate(db)
    const where = config.databaseUrl !== undefined ? 'the PostgreSQL server in DATABASE_URL' : `the embedded database in ${config.dataDir}`
    process.stderr.write(`Seeding ${where}: ${options.users} users, ${options.requests} active requests, ${options.history} finished, seed ${options.seed}\n`)
    const started = Date.now()
    const summary = await seedDatabase(db, options, progressBar())
    const seconds = ((Date.now() - started) / 1000).toFixed(1)
    const { moderators } = summary.users
    process.stdout.write([
      `Seeded in ${seconds} s: users ${summary.users.first}..${summary.users.last}` +
        (summary.requests !== undefined ? `, requests ${summary.requests.first}..${summary.requests.last}` : ''),
      `Every demo account's password is: ${DEMO_PASSWORD}`,
      `  moderator${moderators > 1 ? 's' : ''}: ${demoEmail(1)}${moderators > 1 ? ` .. ${demoEmail(moderators)}` : ''}`,
      `  volunteers: ${demoEmail(moderators + 1)}, ${demoEmail(moderators + 2)} .. ${demoEmail(options.users)}`,
      '',
    ].join('\n'))
  } finally {
    await db.close()
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main().catch((error: unknown) => {
    process.stderr.write(`\nseed failed: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  })
}
