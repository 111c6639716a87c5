import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { metroPoint, metroPointSql } from '../../scripts/lib/metro.js'
import { randomStream, uniformsOf, uniformsSql } from '../../scripts/lib/random.js'
import { DEFAULTS, DEMO_PASSWORD, demoEmail, seedDatabase, type SeedOptions } from '../../scripts/seed.js'
import type { Database } from '../../src/db/database.js'
import { verifyPassword } from '../../src/lib/passwords.js'
import { MODERATOR_ROLE_ID, VOLUNTEER_ROLE_ID } from '../../src/accounts/roles/roles.repo.js'
import { startApp, TEST_SCRYPT, type TestApp } from '../helpers/app.js'
import { migratedDatabase } from '../helpers/databases.js'
import { databaseEngines } from '../helpers/engines.js'

const OPTIONS: SeedOptions = { ...DEFAULTS, requests: 500, users: 50, history: 300, seed: 42, now: new Date('2025-06-01T12:00:00Z'), scrypt: TEST_SCRYPT }

/** A digest of everything seeded except the password hash (salted at random, once per run). */
async function fingerprint (db: Database): Promise<string> {
  const [row] = await db.query<{ users: string, requests: string, responses: string, ratings: string, roles: string }>(/* sql */ `
    SELECT
      (SELECT md5(string_agg(concat_ws('|', id, email, first_name, last_name, phone, bio, address, city, latitude, longitude,
        volunteer_rating, completed_requests_count, email_verified, created_at), ',' ORDER BY id)) FROM users) AS users,
      (SELECT md5(string_agg(concat_ws('|', id, requester_id, request_type_id, assigned_volunteer_id, title, description, latitude,
        longitude, address, city, desired_completion_date, urgency, status, contact_phone, contact_notes, moderated_by, moderated_at,
        moderation_comment, created_at, updated_at), ',' ORDER BY id)) FROM requests) AS requests,
      (SELECT md5(string_agg(concat_ws('|', id, request_id, volunteer_id, status, message, responded_at, accepted_at), ',' ORDER BY id))
        FROM volunteer_responses) AS responses,
      (SELECT md5(string_agg(concat_ws('|', id, request_id, volunteer_id, rater_id, score, comment, created_at), ',' ORDER BY id))
        FROM ratings) AS ratings,
      (SELECT md5(string_agg(user_id || ':' || role_id, ',' ORDER BY user_id, role_id)) FROM user_roles) AS roles`)
  return JSON.stringify(row)
}

async function seeded (engine: Parameters<typeof migratedDatabase>[0], options: SeedOptions): Promise<{ db: Database, dispose(): Promise<void> }> {
  const database = await migratedDatabase(engine)
  await seedDatabase(database.db, options)
  return database
}

const count = async (db: Database, sql: string, params: unknown[] = []): Promise<number> =>
  Number((await db.query<{ n: number }>(sql, params))[0]?.n)

for (const engine of databaseEngines()) {
  describe(`demo data seed (${engine})`, () => {
    let first: Awaited<ReturnType<typeof seeded>>

    before(async () => { first = await seeded(engine, OPTIONS) })
    after(() => first.dispose())

    it('draws the same numbers and places in SQL as the shared generator and city model do in JS', async () => {
      // One generator and one city model for seed, bench and tests: the seed's SQL form must agree with the JS form.
      const rows = await first.db.query<{ i: number, u0: number, u1: number, u2: number, u3: number, u4: number, latitude: number, longitude: number }>(/* sql */ `
        SELECT g.i, u.*, l.* FROM generate_series(1, 200) AS g(i) ${uniformsSql('$1::text', 'check', 5)}
          CROSS JOIN LATERAL (SELECT ${metroPointSql('$2::float8', '$3::float8', 'u.u0', 'u.u1', 'u.u2')}) l ORDER BY g.i`,
      ['42', OPTIONS.center.lat, OPTIONS.center.lon])
      assert.equal(rows.length, 200)
      for (const row of rows) {
        const u = uniformsOf(42, 'check', row.i, 5)
        assert.deepEqual([row.u0, row.u1, row.u2, row.u3, row.u4], u, `row ${row.i}`)
        const point = metroPoint(OPTIONS.center, u[0]!, u[1]!, u[2]!)
        assert.ok(Math.abs(point.lat - row.latitude) < 1e-9 && Math.abs(point.lon - row.longitude) < 1e-9, `row ${row.i}: ${JSON.stringify(point)} ${row.latitude},${row.longitude}`)
      }
      const stream = randomStream(42, 'check')
      assert.deepEqual(Array.from({ length: 8 }, stream), [...uniformsOf(42, 'check', 1, 4), ...uniformsOf(42, 'check', 2, 4)])
    })

    it('is deterministic: the same seed gives the same rows, another seed other rows', async () => {
      const again = await seeded(engine, OPTIONS)
      const other = await seeded(engine, { ...OPTIONS, seed: 43 })
      try {
        assert.equal(await fingerprint(again.db), await fingerprint(first.db))
        assert.notEqual(await fingerprint(other.db), await fingerprint(first.db))
      } finally {
        await again.dispose()
        await other.dispose()
      }
    })

    it('makes the requested numbers of users and active and finished requests, about 80% of the active ones approved', async () => {
      const { db } = first
      assert.equal(await count(db, 'SELECT count(*)::int AS n FROM users'), 50)
      const rows = await db.query<{ status: string, n: number }>('SELECT status, count(*)::int AS n FROM requests GROUP BY status')
      const byStatus: Record<string, number> = {}
      for (const status of ['pending_moderation', 'approved', 'in_progress', 'completed', 'cancelled', 'rejected']) {
        byStatus[status] = rows.find((row) => row.status === status)?.n ?? 0
      }
      const { approved = 0, completed = 0 } = byStatus
      const active = approved + (byStatus.pending_moderation ?? 0) + (byStatus.in_progress ?? 0)
      const finished = completed + (byStatus.cancelled ?? 0) + (byStatus.rejected ?? 0)
      assert.equal(active, 500)
      assert.equal(finished, 300)
      assert.ok(approved >= 0.72 * active && approved <= 0.88 * active, `approved: ${approved}`)
      for (const [status, n] of Object.entries(byStatus)) assert.ok(n > 0, `some ${status}`)
      assert.ok(completed >= 0.6 * finished && completed <= 0.8 * finished, `completed: ${completed}`)
    })

    it('spreads requests over the metro area, much denser in the centre than in the suburbs', async () => {
      const [row] = await first.db.query<{ inner: number, ring: number, farthest: number }>(/* sql */ `
        SELECT count(*) FILTER (WHERE d < 5000)::int AS inner, count(*) FILTER (WHERE d BETWEEN 10000 AND 20000)::int AS ring,
          max(d) AS farthest
        FROM (SELECT earth_distance(location, ll_to_earth($1, $2)) AS d FROM requests) r`, [OPTIONS.center.lat, OPTIONS.center.lon])
      assert.ok(row !== undefined)
      // Per square kilometre: the disc of 5 km around the centre against the ring from 10 to 20 km.
      const innerDensity = row.inner / (Math.PI * 5 ** 2)
      const ringDensity = row.ring / (Math.PI * (20 ** 2 - 10 ** 2))
      assert.ok(row.ring > 0, 'some requests in the suburbs')
      assert.ok(innerDensity > 5 * ringDensity, `centre ${innerDensity.toFixed(2)}/km², suburbs ${ringDensity.toFixed(2)}/km²`)
      assert.ok(row.farthest <= 41_000, `farthest ${row.farthest} m`)
    })

    it('keeps the lifecycle consistent: assignments, responses, ratings, moderation and volunteer figures', async () => {
      const { db } = first
      const none = (sql: string, params: unknown[] = []) => count(db, `SELECT count(*)::int AS n FROM ${sql}`, params)
      // In progress and completed: an assigned volunteer who is not the requester, with exactly one accepted response.
      assert.equal(await none('requests r WHERE (r.status IN ($1, $2)) <> (r.assigned_volunteer_id IS NOT NULL)', ['in_progress', 'completed']), 0)
      assert.equal(await none('requests r WHERE r.assigned_volunteer_id = r.requester_id OR r.moderated_by = r.requester_id'), 0)
      assert.equal(await none(`requests r WHERE r.status IN ('in_progress', 'completed') AND 1 <> (
        SELECT count(*) FROM volunteer_responses v WHERE v.request_id = r.id AND v.status = 'accepted' AND v.volunteer_id = r.assigned_volunteer_id)`), 0)
      assert.equal(await none(`volunteer_responses v JOIN requests r ON r.id = v.request_id
        WHERE v.status = 'pending' AND (r.status <> 'approved' OR v.volunteer_id = r.requester_id)`), 0)
      assert.ok(await count(db, "SELECT count(*)::int AS n FROM volunteer_responses WHERE status = 'pending'") > 0)
      // Every completed request has its rating from the requester for the assigned volunteer, and only those.
      assert.equal(await none(`requests r WHERE (r.status = 'completed') <> EXISTS (
        SELECT 1 FROM ratings g WHERE g.request_id = r.id AND g.volunteer_id = r.assigned_volunteer_id AND g.rater_id = r.requester_id)`), 0)
      assert.equal(await none(`users u WHERE u.completed_requests_count <> (SELECT count(*) FROM ratings g WHERE g.volunteer_id = u.id)
        OR u.volunteer_rating IS DISTINCT FROM (SELECT avg(score)::float8 FROM ratings g WHERE g.volunteer_id = u.id)`), 0)
      // Moderated by a moderator unless awaiting moderation; rejected ones carry a reason.
      assert.equal(await none(`requests r WHERE (r.status = 'pending_moderation') = (r.moderated_by IS NOT NULL)
        OR (r.status = 'rejected') <> (r.moderation_comment IS NOT NULL)
        OR (r.moderated_by IS NOT NULL AND NOT EXISTS (SELECT 1 FROM user_roles ur WHERE ur.user_id = r.moderated_by AND ur.role_id = ${MODERATOR_ROLE_ID}))`), 0)
      // Nothing happens in the future, and history is older than the active requests.
      assert.equal(await none(`requests WHERE created_at > $1::timestamptz OR moderated_at > $1::timestamptz OR updated_at > $1::timestamptz
        OR moderated_at < created_at OR updated_at < created_at`, [OPTIONS.now.toISOString()]), 0)
      assert.equal(await none(`requests a, requests f WHERE a.status IN ('pending_moderation', 'approved', 'in_progress')
        AND f.status IN ('completed', 'cancelled', 'rejected') AND a.id < f.id`), 0)
    })

    it('gives every demo account the demo password and role volunteer; the first is a moderator', async () => {
      const { db } = first
      const rows = await db.query<{ email: string, password_hash: string, roles: number[] }>(/* sql */ `
        SELECT email, password_hash, ARRAY(SELECT role_id::int FROM user_roles ur WHERE ur.user_id = u.id ORDER BY role_id) AS roles
        FROM users u ORDER BY id`)
      assert.deepEqual(rows.map((row) => row.email), Array.from({ length: 50 }, (_, i) => demoEmail(i + 1)))
      assert.equal(new Set(rows.map((row) => row.password_hash)).size, 1, 'hashed once')
      assert.equal(await verifyPassword(DEMO_PASSWORD, rows[0]?.password_hash ?? ''), true)
      assert.deepEqual(rows[0]?.roles, [VOLUNTEER_ROLE_ID, MODERATOR_ROLE_ID])
      assert.deepEqual(rows[1]?.roles, [VOLUNTEER_ROLE_ID])
    })

    it('refuses to seed a database twice', async () => {
      await assert.rejects(seedDatabase(first.db, OPTIONS), /already holds seeded data/)
    })
  })

  describe(`seeded data through the service (${engine})`, () => {
    let t: TestApp
    before(async () => {
      t = await startApp(engine)
      await seedDatabase(t.db, { ...OPTIONS, requests: 50, users: 10, history: 20 })
    })
    after(() => t.close())

    it('a demo account logs in with the demo password and reads a seeded request and its own profile', async () => {
      const login = await t.post('/auth/login', { email: demoEmail(2), password: DEMO_PASSWORD })
      assert.equal(login.status, 200, login.text)
      const token = login.body.access_token as string
      const me = await t.get('/users/me', token)
      assert.equal(me.status, 200)
      assert.equal(me.body.email, demoEmail(2))
      const [request] = await t.db.query<{ id: number }>("SELECT id FROM requests WHERE status = 'approved' ORDER BY id LIMIT 1")
      assert.ok(request !== undefined)
      const detail = await t.get(`/requests/${request.id}`, token)
      assert.equal(detail.status, 200, detail.text)
      assert.equal(detail.body.status, 'approved')
      assert.equal(typeof detail.body.requester.email, 'string')
    })
  })
}
