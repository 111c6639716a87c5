import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { statementParts, type Queryable, type Statement } from '../../src/db/database.js'
import { hasPermission, isModerator } from '../../src/lib/principal.js'
import { PrincipalCache } from '../../src/accounts/auth/principals.js'

/** A database holding one user, 7, whose row the test changes; counts the lookups. */
function fakeDb () {
  const state = { is_blocked: false, roles: ['volunteer'], permissions: ['create_request'], lookups: 0 }
  const db: Queryable = {
    async query<R> (statement: Statement, values?: readonly unknown[]): Promise<R[]> {
      state.lookups += 1
      if (statementParts(statement, values).values?.[0] !== 7) return []
      return [{ is_blocked: state.is_blocked, roles: [...state.roles], permissions: [...state.permissions] }] as R[]
    },
  }
  return { db, state }
}

describe('PrincipalCache', () => {
  it('serves a user from the cache within the TTL, and reads the database again after it', async () => {
    const { db, state } = fakeDb()
    let now = 1_000
    const cache = new PrincipalCache(db, 2000, { now: () => new Date(now) })
    assert.deepEqual(await cache.get(7), { id: 7, roles: ['volunteer'], permissions: ['create_request'] })
    state.is_blocked = true
    now += 1999
    // Still cached: another instance's block is not seen yet.
    assert.equal((await cache.get(7))?.id, 7)
    assert.equal(state.lookups, 1)
    now += 1
    assert.equal(await cache.get(7), undefined, 'refused once the TTL has passed')
    assert.equal(state.lookups, 2)
  })

  it('forget() drops a user at once (changes made through this instance)', async () => {
    const { db, state } = fakeDb()
    const cache = new PrincipalCache(db, 5000, { now: () => new Date(0) })
    await cache.get(7)
    state.roles = ['volunteer', 'admin']
    cache.forget(7)
    assert.deepEqual((await cache.get(7))?.roles, ['volunteer', 'admin'])
  })

  it('with TTL 0 every call reads the database', async () => {
    const { db, state } = fakeDb()
    const cache = new PrincipalCache(db, 0)
    await cache.get(7)
    await cache.get(7)
    assert.equal(state.lookups, 2)
  })

  it('an unknown or blocked user is undefined', async () => {
    const { db, state } = fakeDb()
    const cache = new PrincipalCache(db, 0)
    assert.equal(await cache.get(8), undefined)
    state.is_blocked = true
    assert.equal(await cache.get(7), undefined)
  })

  it('a failed lookup is not remembered', async () => {
    const { db, state } = fakeDb()
    let fail = true
    const flaky: Queryable = {
      async query<R> (statement: Statement, params?: readonly unknown[]): Promise<R[]> {
        if (fail) throw new Error('connection lost')
        return await db.query<R>(statement, params)
      },
    }
    const cache = new PrincipalCache(flaky, 5000, { now: () => new Date(0) })
    await assert.rejects(cache.get(7), /connection lost/)
    fail = false
    assert.equal((await cache.get(7))?.id, 7)
    assert.equal(state.lookups, 1)
  })

  it('isModerator and hasPermission read the principal', () => {
    const volunteer = { id: 1, roles: ['volunteer'], permissions: ['create_request'] }
    assert.equal(isModerator(volunteer), false)
    assert.equal(isModerator({ ...volunteer, roles: ['volunteer', 'moderator'] }), true)
    assert.equal(isModerator({ ...volunteer, roles: ['admin'] }), true)
    assert.equal(hasPermission(volunteer, 'create_request'), true)
    assert.equal(hasPermission(volunteer, 'manage_users'), false)
  })
})
