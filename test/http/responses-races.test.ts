import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, startSecondInstance, type Account, type TestApp } from '../helpers/app.js'
import { databaseEngines, engines } from '../helpers/engines.js'
import { approvedRequest, assertConsistent, assignedRequest, respond, tally } from '../helpers/lifecycle.js'

/**
 * Races through real parallel HTTP requests. `apps` are instances of the service on one database;
 * call i goes to instance i mod n, so with two instances every race is fought between them and only
 * the database can decide it. (PGlite runs one statement at a time, so there the races are tame, but
 * the outcome must be the same.)
 */
function races (setup: () => { apps: TestApp[], moderator: Account }): void {
  const on = (i: number): TestApp => {
    const { apps } = setup()
    return apps[i % apps.length]!
  }
  const first = (): TestApp => on(0)
  const count = async (sql: string, params: unknown[]): Promise<number> =>
    ((await first().db.query<{ n: number }>(sql, params))[0]!).n

  it('many accepts on one request: exactly one succeeds, the rest get 400', async () => {
    const t = first()
    const requester = await t.register()
    const requestId = await approvedRequest(t, requester, setup().moderator)
    const volunteers = await Promise.all(Array.from({ length: 10 }, () => t.register()))
    const responseIds = await Promise.all(volunteers.map((v) => respond(t, requestId, v)))
    // Ten first offers at once, each writing the request's first offer time under the request's lock (no deadlock):
    // the earliest one's time is kept (docs/api/on-behalf.md › Reports for funders).
    assert.equal(await count(`SELECT count(*)::int AS n FROM requests r WHERE r.id = $1
      AND r.first_offer_at = (SELECT min(v.responded_at) FROM volunteer_responses v WHERE v.request_id = r.id)`, [requestId]), 1)

    const results = await Promise.all(responseIds.map((id, i) =>
      on(i).post(`/requests/${requestId}/responses/${id}/accept`, undefined, requester.token)))
    assert.deepEqual(tally(results), { 200: 1, 400: 9 })
    for (const res of results.filter((r) => r.status === 400)) {
      assert.deepEqual(res.body, { error: 'a response has already been accepted for this request' })
    }
    const winner = results.find((r) => r.status === 200)!.body.volunteer_id
    const { status, responses } = await assertConsistent(t, requester, requestId)
    assert.equal(status, 'in_progress')
    for (const response of responses) {
      assert.equal(response.status, response.volunteer_id === winner ? 'accepted' : 'rejected')
    }
  })

  it('the same response posted twice at once: one 201, one 400', async () => {
    const t = first()
    const requestId = await approvedRequest(t, await t.register(), setup().moderator)
    const volunteer = await t.register()
    const results = await Promise.all([0, 1, 2, 3].map((i) =>
      on(i).post(`/requests/${requestId}/responses`, { message: `offer ${i}` }, volunteer.token)))
    assert.deepEqual(tally(results), { 201: 1, 400: 3 })
    for (const res of results.filter((r) => r.status === 400)) {
      assert.deepEqual(res.body, { error: 'already responded to this request' })
    }
    assert.equal((await t.get(`/requests/${requestId}/responses`, volunteer.token)).body.length, 1)
  })

  it('many completes of one request: exactly one succeeds and one rating is stored', async () => {
    const t = first()
    const requester = await t.register()
    const volunteer = await t.register()
    const { requestId } = await assignedRequest(t, requester, setup().moderator, volunteer)
    const scores = [1, 2, 3, 4, 5, 5]
    const results = await Promise.all(scores.map((rating, i) =>
      on(i).post(`/requests/${requestId}/complete`, { rating }, requester.token)))
    assert.deepEqual(tally(results), { 200: 1, 400: 5 })
    for (const res of results.filter((r) => r.status === 400)) {
      assert.deepEqual(res.body, { error: 'request is already completed' })
    }
    const winner = scores[results.findIndex((r) => r.status === 200)]
    assert.equal(await count('SELECT count(*)::int AS n FROM ratings WHERE request_id = $1', [requestId]), 1)
    const profile = await t.get(`/users/${volunteer.id}`, requester.token)
    assert.equal(profile.body.completed_requests_count, 1)
    assert.equal(profile.body.volunteer_rating, winner)
  })

  it('one volunteer\'s requests completed at once: no completion is lost from the count or the mean', async () => {
    const t = first()
    const volunteer = await t.register()
    const scores = [5, 4, 3, 2, 1, 5, 4, 1]
    const assigned = await Promise.all(scores.map(async () => {
      const requester = await t.register()
      return { requester, ...await assignedRequest(t, requester, setup().moderator, volunteer) }
    }))
    const results = await Promise.all(assigned.map(({ requester, requestId }, i) =>
      on(i).post(`/requests/${requestId}/complete`, { rating: scores[i] }, requester.token)))
    assert.deepEqual(tally(results), { 200: scores.length })
    const me = await t.get('/users/me', volunteer.token)
    assert.equal(me.body.completed_requests_count, scores.length)
    assert.ok(Math.abs(me.body.volunteer_rating - scores.reduce((a, b) => a + b, 0) / scores.length) < 1e-12)
  })

  it('a withdrawal racing the accept of the same response leaves a consistent state', async () => {
    const t = first()
    for (let round = 0; round < 8; round++) {
      const requester = await t.register()
      const [volunteer, other] = [await t.register(), await t.register()]
      const requestId = await approvedRequest(t, requester, setup().moderator)
      const responseId = await respond(t, requestId, volunteer)
      const otherId = await respond(t, requestId, other)
      const [accept, withdraw] = await Promise.all([
        on(round).post(`/requests/${requestId}/responses/${responseId}/accept`, undefined, requester.token),
        on(round + 1).post(`/requests/${requestId}/responses/${responseId}/cancel`, undefined, volunteer.token),
      ])
      // The withdrawal always succeeds: from pending, or from accepted (which reopens the request).
      assert.equal(withdraw.status, 200, withdraw.text)
      const { status, responses } = await assertConsistent(t, requester, requestId)
      assert.equal(status, 'approved')
      const byId = new Map(responses.map((r) => [r.id, r.status]))
      assert.equal(byId.get(responseId), 'cancelled')
      if (accept.status === 200) {
        assert.equal(byId.get(otherId), 'rejected')
      } else {
        assert.deepEqual([accept.status, accept.body], [404, { error: 'response not found' }])
        assert.equal(byId.get(otherId), 'pending')
      }
    }
  })

  it('a withdrawal racing the completion: exactly one of them succeeds', async () => {
    const t = first()
    for (let round = 0; round < 6; round++) {
      const requester = await t.register()
      const volunteer = await t.register()
      const { requestId, responseId } = await assignedRequest(t, requester, setup().moderator, volunteer)
      const [complete, withdraw] = await Promise.all([
        on(round).post(`/requests/${requestId}/complete`, { rating: 5 }, requester.token),
        on(round + 1).post(`/requests/${requestId}/responses/${responseId}/cancel`, undefined, volunteer.token),
      ])
      const ratings = await count('SELECT count(*)::int AS n FROM ratings WHERE request_id = $1', [requestId])
      const profile = await t.get('/users/me', volunteer.token)
      if (complete.status === 200) {
        assert.deepEqual([withdraw.status, withdraw.body], [400, { error: 'cannot withdraw from a completed request' }])
        assert.equal((await t.get(`/requests/${requestId}`, requester.token)).body.status, 'completed')
        assert.deepEqual([ratings, profile.body.completed_requests_count], [1, 1])
      } else {
        assert.equal(withdraw.status, 200, withdraw.text)
        assert.deepEqual([complete.status, complete.body], [400, { error: 'request is not in progress' }])
        assert.equal((await assertConsistent(t, requester, requestId)).status, 'approved')
        assert.deepEqual([ratings, profile.body.completed_requests_count], [0, 0])
      }
    }
  })

  it('a response racing an accept is never left pending on an in_progress request', async () => {
    const t = first()
    for (let round = 0; round < 6; round++) {
      const requester = await t.register()
      const [chosen, late] = [await t.register(), await t.register()]
      const requestId = await approvedRequest(t, requester, setup().moderator)
      const responseId = await respond(t, requestId, chosen)
      const [accept, offer] = await Promise.all([
        on(round).post(`/requests/${requestId}/responses/${responseId}/accept`, undefined, requester.token),
        on(round + 1).post(`/requests/${requestId}/responses`, {}, late.token),
      ])
      assert.equal(accept.status, 200, accept.text)
      // Either the offer came first and the accept rejected it, or it came too late.
      const { responses } = await assertConsistent(t, requester, requestId)
      if (offer.status === 201) {
        assert.equal(responses.find((r) => r.id === offer.body.id)!.status, 'rejected')
      } else {
        assert.deepEqual([offer.status, offer.body], [400, { error: 'request is not open for responses' }])
      }
    }
  })
}

// Also on PGlite's public API (the adapter's fallback): its locking decides these races there.
for (const engine of databaseEngines()) {
  describe(`responses under concurrency, one instance (${engine})`, () => {
    let t: TestApp
    let moderator: Account
    before(async () => {
      t = await startApp(engine)
      moderator = await t.registerWithRole('moderator')
    })
    after(() => t.close())
    races(() => ({ apps: [t], moderator }))
  })
}

// Two servers share one PostgreSQL database: nothing held in one process's memory can decide these races.
if (engines().includes('postgres')) {
  describe('responses under concurrency, two instances on one PostgreSQL database (postgres)', () => {
    let t: TestApp
    let second: TestApp
    let moderator: Account
    before(async () => {
      t = await startApp('postgres')
      second = await startSecondInstance(t)
      moderator = await t.registerWithRole('moderator')
    })
    after(async () => {
      await second.close()
      await t.close()
    })

    it('the two instances share one database', async () => {
      const account = await t.register()
      const res = await second.get('/users/me', account.token)
      assert.equal(res.status, 200)
      assert.equal(res.body.id, account.id)
      assert.notEqual(second.db, t.db)
    })

    races(() => ({ apps: [t, second], moderator }))
  })
}
