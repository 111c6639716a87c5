import assert from 'node:assert/strict'
import { cp, mkdtemp, readdir, rm, appendFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import type { Database } from '../../src/db/database.js'
import { migrate, MigrationError, MIGRATIONS_DIR } from '../../src/db/migrate.js'
import { ensureAdmin } from '../../src/accounts/roles/roles.service.js'
import { startApp, TEST_SCRYPT, uniqueEmail } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { migratedDatabase, scratchDatabase } from '../helpers/databases.js'
import { databaseEngines } from '../helpers/engines.js'

async function rolesOf (db: Database, email: string): Promise<string[]> {
  const rows = await db.query<{ name: string }>(/* sql */ `
    SELECT r.name FROM users u JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id
    WHERE u.email = $1 ORDER BY r.id`, [email])
  return rows.map((row) => row.name)
}

const MIGRATION_FILES = (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql')).sort()

for (const engine of databaseEngines()) {
  describe(`admin bootstrap (${engine})`, () => {
    it('run twice: one account holding volunteer and admin, which can log in', async () => {
      const t = await startApp(engine)
      try {
        const email = uniqueEmail('boot')
        const first = await ensureAdmin(t.db, email, 'first password 1', TEST_SCRYPT)
        const second = await ensureAdmin(t.db, email, 'second password 2', TEST_SCRYPT)
        assert.deepEqual(first, { id: first.id, created: true })
        assert.deepEqual(second, { id: first.id, created: false })
        assert.deepEqual(await rolesOf(t.db, email), ['volunteer', 'admin'])
        assert.equal((await t.db.query('SELECT 1 FROM users WHERE email = $1', [email])).length, 1)
        // The existing account keeps its password: a restart with another ADMIN_PASSWORD changes nothing.
        const login = await t.post('/auth/login', { email, password: 'first password 1' })
        assertStatus(login, 200)
        assertError(await t.post('/auth/login', { email, password: 'second password 2' }), 401, 'invalid email or password')
        assertStatus(await t.get('/roles', login.body.access_token), 200)
        const profile = (await t.get('/users/me', login.body.access_token)).body
        assert.deepEqual([profile.first_name, profile.last_name, profile.email_verified], ['Service', 'Administrator', true])
      } finally {
        await t.close()
      }
    })

    it('an existing account named by ADMIN_EMAIL (any case) becomes admin and keeps its password and name', async () => {
      const t = await startApp(engine)
      try {
        const account = await t.register({ first_name: 'Existing' })
        const result = await ensureAdmin(t.db, `  ${account.email.toUpperCase()} `, 'some other password', TEST_SCRYPT)
        assert.deepEqual(result, { id: account.id, created: false })
        assert.deepEqual(await rolesOf(t.db, account.email), ['volunteer', 'admin'])
        assertStatus(await t.get('/roles', account.token), 200)
        const login = await t.post('/auth/login', { email: account.email, password: account.password })
        assertStatus(login, 200)
        assert.equal(login.body.user.first_name, 'Existing')
      } finally {
        await t.close()
      }
    })

    it('migrate again applies nothing; a migration changed after it was applied stops it', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'vcs-migrations-'))
      const { db, dispose } = await migratedDatabase(engine)
      try {
        assert.deepEqual(await migrate(db), [])
        await cp(MIGRATIONS_DIR, dir, { recursive: true })
        assert.deepEqual(await migrate(db, dir), [])
        await appendFile(join(dir, MIGRATION_FILES[0]!), '\n-- edited\n')
        await assert.rejects(migrate(db, dir), (error: unknown) => {
          assert.ok(error instanceof MigrationError)
          assert.equal(error.message, `migration ${MIGRATION_FILES[0]} was changed after it was applied`)
          return true
        })
      } finally {
        await dispose()
        await rm(dir, { recursive: true, force: true })
      }
    })

    if (engine === 'postgres') {
      it('ensureAdmin run by five instances at once on a fresh database: exactly one admin account', async () => {
        const scratch = await scratchDatabase(engine)
        const handles = await Promise.all([1, 2, 3, 4, 5].map(() => scratch.open()))
        try {
          await migrate(handles[0]!)
          const email = uniqueEmail('race')
          const results = await Promise.all(handles.map((db) => ensureAdmin(db, email, 'race password 1', TEST_SCRYPT)))
          assert.equal(new Set(results.map((result) => result.id)).size, 1)
          assert.equal(results.filter((result) => result.created).length, 1)
          const db = handles[0]!
          assert.equal((await db.query('SELECT 1 FROM users')).length, 1)
          assert.deepEqual(await rolesOf(db, email), ['volunteer', 'admin'])
          assert.equal((await db.query('SELECT 1 FROM user_roles')).length, 2)
        } finally {
          await Promise.all(handles.map((db) => db.close()))
          await scratch.drop()
        }
      })

      it('migrate run from three connections at once on a fresh database: each migration applied exactly once', async () => {
        const scratch = await scratchDatabase(engine)
        const handles = await Promise.all([1, 2, 3].map(() => scratch.open()))
        try {
          const applied = await Promise.all(handles.map((db) => migrate(db)))
          // Every file was applied by exactly one of them.
          assert.deepEqual(applied.flat().sort(), MIGRATION_FILES)
          const rows = await handles[0]!.query<{ version: number, name: string }>('SELECT version, name FROM schema_migrations ORDER BY version')
          assert.deepEqual(rows.map((row) => row.name), MIGRATION_FILES)
          assert.deepEqual(rows.map((row) => row.version), MIGRATION_FILES.map((name) => Number(name.slice(0, 4))))
          // The schema is whole: the seeded roles (volunteer, moderator, admin; coordinator, manager of docs/api/on-behalf.md) are there once.
          assert.equal((await handles[1]!.query('SELECT 1 FROM roles')).length, 5)
        } finally {
          await Promise.all(handles.map((db) => db.close()))
          await scratch.drop()
        }
      })
    }
  })
}
