import assert from 'node:assert/strict'
import { after, before, beforeEach, describe, it } from 'node:test'
import { statementParts, type Database, type Statement, type Transaction } from '../../src/db/database.js'
import { startApp, uniqueEmail, type TestApp } from '../helpers/app.js'
import { assertError } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { engines } from '../helpers/engines.js'

/*
 * Trying a code does not tell, by its timing, whether the address has an account (docs/security.md ›
 * Getting back in). Pinned without a stopwatch first: a wrong code for an address without an account,
 * for an account without a live code and for one with a live code sends the very same statements, in
 * one transaction each. Then the floor: no answer sooner than 100 ms, which hides what the same
 * statements still cost apart (a row written, or not, and its commit).
 */

const INVALID_CODE = 'invalid or expired code'
const MINUTE_MS = 60_000

/** The texts of the statements the app sends through `db` while `fn` runs, inside transactions too, and how many transactions. */
async function counting (db: Database, fn: () => Promise<void>): Promise<{ statements: string[], transactions: number }> {
  const counted = { statements: [] as string[], transactions: 0 }
  const { query, transaction } = db
  const count = (statement: Statement, params?: readonly unknown[]) => counted.statements.push(statementParts(statement, params).text)
  db.query = async <R>(statement: Statement, params?: readonly unknown[]): Promise<R[]> => {
    count(statement, params)
    return await query.call(db, statement, params) as R[]
  }
  db.transaction = async <T>(body: (tx: Transaction) => Promise<T>): Promise<T> => {
    counted.transactions++
    return await transaction.call(db, async (tx) => await body({
      exec: (script) => tx.exec(script),
      query: async <R>(statement: Statement, params?: readonly unknown[]) => {
        count(statement, params)
        return await tx.query<R>(statement, params)
      },
    })) as T
  }
  try {
    await fn()
  } finally {
    db.query = query
    db.transaction = transaction
  }
  return counted
}

for (const engine of engines()) {
  describe(`trying a code takes the same work for every address (${engine})`, () => {
    const start = new Date()
    const clock = new ManualClock(start)
    let t: TestApp
    before(async () => { t = await startApp(engine, {}, { clock, alertTickMs: 0 }) })
    beforeEach(() => { clock.set(start) })
    after(() => t.close())

    for (const [path, ask] of [['/auth/code/confirm', '/auth/code'], ['/auth/password-reset/confirm', '/auth/password-reset']] as const) {
      const body = (email: string) => ({ email, code: '000000', new_password: 'a brand new password' })

      /** The statements of one wrong try for `email`, after checking its answer is the same 400. */
      const wrongTry = async (email: string) => await counting(t.db, async () => {
        assertError(await t.post(path, body(email)), 400, INVALID_CODE)
      })

      it(`${path}: no account, no live code, a live code: the same statements, one transaction each`, async () => {
        const withoutCode = await t.register()
        const withCode = await t.register()
        await t.post(ask, { email: withCode.email })
        const nobody = await wrongTry(uniqueEmail('nobody'))
        assert.equal(nobody.transactions, 1)
        assert.ok(nobody.statements.some((text) => /FROM auth_codes/.test(text)), 'an unknown address looks for a code too')
        assert.deepEqual(await wrongTry(withoutCode.email), nobody)
        assert.deepEqual(await wrongTry(withCode.email), nobody)
      })

      it(`${path}: an expired code and the fifth wrong try delete it, in as many statements`, async () => {
        const nobody = await wrongTry(uniqueEmail('nobody'))
        const expired = await t.register()
        await t.post(ask, { email: expired.email })
        clock.advance(30 * MINUTE_MS)
        assert.equal((await wrongTry(expired.email)).statements.length, nobody.statements.length)
        clock.set(start)
        const tried = await t.register()
        await t.post(ask, { email: tried.email })
        for (let i = 1; i < 5; i++) await wrongTry(tried.email)
        const fifth = await wrongTry(tried.email)
        assert.equal(fifth.statements.length, nobody.statements.length)
        assert.ok(fifth.statements.some((text) => /DELETE FROM auth_codes/.test(text)))
      })

      it(`${path}: no answer sooner than 100 ms, with an account or without`, async () => {
        const account = await t.register()
        await t.post(ask, { email: account.email })
        for (const email of [account.email, uniqueEmail('nobody'), account.email, uniqueEmail('nobody')]) {
          const started = performance.now()
          assertError(await t.post(path, body(email)), 400, INVALID_CODE)
          assert.ok(performance.now() - started >= 99, email)
        }
      })
    }
  })
}
