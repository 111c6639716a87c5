import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { AlertSettings } from '../../src/config.js'
import { alertsOf, approvedAt, newPlace, noticesOf, TEST_ALERTS, volunteerAt } from '../helpers/alerts.js'
import { startApp, startSecondInstance, type Account, type TestApp } from '../helpers/app.js'
import { eventually } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'

/**
 * Two instances of the service on one PostgreSQL database, each with its own ticker looking for due
 * rounds every few milliseconds, so every round is fought over by both and only the claim decides.
 */
if (engines().includes('postgres')) {
  describe('alert rounds on two instances at once (postgres)', () => {
    const settings: AlertSettings = { ...TEST_ALERTS, roundSeconds: { urgent: 1, high: 3600, medium: 3600, low: 3600 } }
    let a: TestApp
    let b: TestApp
    let moderator: Account

    before(async () => {
      a = await startApp('postgres', { alerts: settings }, { alertTickMs: 5 })
      b = await startSecondInstance(a, { alerts: settings }, { alertTickMs: 5 })
      moderator = await a.registerWithRole('moderator')
    })
    after(async () => {
      await b.close()
      await a.close()
    })

    const roundsLeft = async (ids: readonly number[]) =>
      (await a.db.query<{ n: number }>('SELECT count(*)::int AS n FROM alert_rounds WHERE request_id = ANY ($1::bigint[])', [ids]))[0]!.n

    it('runs each round once and alerts each volunteer once per request', async () => {
      const here = newPlace()
      const volunteers = await Promise.all(Array.from({ length: 12 }, (_, i) => volunteerAt(a, here, 100 + 150 * i, { max_alerts_per_day: 50 })))
      const requester = await a.register()
      // High urgency: round 2 is an hour away, so what the test sees is round 1 of each request.
      const requests = await Promise.all(Array.from({ length: 20 }, (_, i) =>
        approvedAt(i % 2 === 0 ? a : b, here, requester, moderator, { urgency: 'high' })))
      await eventually(async () => {
        const rows = await a.db.query<{ n: number }>('SELECT count(*)::int AS n FROM request_alerts WHERE request_id = ANY ($1::bigint[])', [requests])
        return rows[0]!.n >= requests.length * settings.batch
      })
      const perRequest = new Map<number, number[]>()
      for (const volunteer of volunteers) {
        for (const alert of await alertsOf(a, volunteer)) {
          assert.equal(alert.data.round, 1)
          perRequest.set(alert.request_id, [...perRequest.get(alert.request_id) ?? [], volunteer.id])
        }
      }
      for (const requestId of requests) {
        const alerted = perRequest.get(requestId) ?? []
        // One run of round 1: exactly one batch, nobody twice (a second run would have alerted five more).
        assert.equal(alerted.length, settings.batch, `request ${requestId}: ${alerted.join(',')}`)
        assert.equal(new Set(alerted).size, alerted.length)
      }
      const rounds = await a.db.query<{ round: number }>('SELECT round FROM alert_rounds WHERE request_id = ANY ($1::bigint[])', [requests])
      assert.deepEqual(rounds.map((r) => r.round), Array(requests.length).fill(2))
    })

    it('sends no alert for a request after it is assigned or cancelled: every alert not answered is followed by its closing', async () => {
      const here = newPlace()
      const volunteers = await Promise.all(Array.from({ length: 10 }, (_, i) => volunteerAt(a, here, 100 + 200 * i, { max_alerts_per_day: 50 })))
      const requester = await a.register()
      // Urgent: a round a second. The accepts and cancels come within milliseconds of the approvals, on
      // both instances, so they race the first rounds.
      const outcomes = await Promise.all(Array.from({ length: 24 }, async (_, i) => {
        const on = i % 2 === 0 ? a : b
        const requestId = await approvedAt(on, here, requester, moderator, { urgency: 'urgent' })
        if (i % 4 === 3) {
          await new Promise((resolve) => setTimeout(resolve, i % 7))
          assert.equal((await on.post(`/requests/${requestId}/cancel`, undefined, requester.token)).status, 200)
          return requestId
        }
        const helper = volunteers[i % volunteers.length]!
        const offer = await on.post(`/requests/${requestId}/responses`, {}, helper.token)
        assert.equal(offer.status, 201, offer.text)
        await new Promise((resolve) => setTimeout(resolve, i % 7))
        const accepted = await (i % 2 === 0 ? b : a).post(`/requests/${requestId}/responses/${offer.body.id}/accept`, undefined, requester.token)
        assert.equal(accepted.status, 200, accepted.text)
        return requestId
      }))
      // Every request left approved, so each instance's next look at its round ends it.
      await eventually(async () => await roundsLeft(outcomes) === 0)

      let alerts = 0
      for (const volunteer of volunteers) {
        const responded = new Set((await a.db.query<{ request_id: number }>(
          'SELECT request_id FROM volunteer_responses WHERE volunteer_id = $1', [volunteer.id])).map((r) => Number(r.request_id)))
        for (const requestId of outcomes) {
          const notices = (await noticesOf(a, volunteer, requestId)).filter((n) => n.type.startsWith('request_alert'))
          const types = notices.map((n) => n.type)
          if (types.length === 0) continue
          alerts++
          // Ids increase in commit order within one inbox: an alert committed after the closing would come last.
          if (responded.has(requestId)) assert.deepEqual(types, ['request_alert'])
          else assert.deepEqual(types, ['request_alert', 'request_alert_closed'], `volunteer ${volunteer.id}, request ${requestId}`)
        }
      }
      assert.ok(alerts > 0, 'some alerts were sent before the requests closed')
    })

    it('makes an accept that comes while a round is choosing wait for the round, then tells its volunteers', async () => {
      const here = newPlace()
      // Round 1 alerts the five closest (the batch); the held round 2 chooses among the next ones.
      const closest = await Promise.all([50, 60, 70, 80, 90].map((m) => volunteerAt(a, here, m)))
      const [nearest, other, helper] = [await volunteerAt(a, here, 100), await volunteerAt(a, here, 200), await volunteerAt(a, here, 300)]
      const requester = await a.register()
      // High urgency: round 2 is an hour away until the test makes it due.
      const requestId = await approvedAt(a, here, requester, moderator, { urgency: 'high' })
      await eventually(async () => (await a.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM alert_rounds WHERE request_id = $1 AND round = 2', [requestId]))[0]!.n === 1)
      // The request's first offer, made before any round is held: a first offer writes its time on the request
      // row (first_offer_at), so it takes the row for update and would wait for a round's share lock.
      const early = await a.post(`/requests/${requestId}/responses`, {}, closest[0]!.token)
      assert.equal(early.status, 201, early.text)
      // Holds round 2 mid-way: an uncommitted alert row for the nearest volunteer makes the round's own
      // insert of that row wait, while the round holds its claim and its share lock on the request.
      let release!: () => void
      const released = new Promise<void>((resolve) => { release = resolve })
      let blocking!: () => void
      const blocked = new Promise<void>((resolve) => { blocking = resolve })
      const holder = a.db.transaction(async (tx) => {
        await tx.query('INSERT INTO request_alerts (request_id, volunteer_id, round, sent_at) VALUES ($1, $2, 2, now())', [requestId, nearest.id])
        blocking()
        await released
        throw new Error('rolled back on purpose')
      }).catch(() => {})
      await blocked
      try {
        await a.db.query('UPDATE alert_rounds SET due_at = now() WHERE request_id = $1', [requestId])
        const waitingFor = async (pattern: string) => (await a.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1", [pattern]))[0]!.n > 0
        // The round's statement (pg_stat_activity keeps only the start of its text).
        await eventually(() => waitingFor('%WITH clock AS MATERIALIZED%'))
        // A later offer takes a share lock like the round's and goes through; the accept must wait for the round.
        const offer = await b.post(`/requests/${requestId}/responses`, {}, helper.token)
        assert.equal(offer.status, 201, offer.text)
        const accepting = b.post(`/requests/${requestId}/responses/${offer.body.id}/accept`, undefined, requester.token)
        const settled = { done: false }
        accepting.then(() => { settled.done = true }, () => { settled.done = true })
        await eventually(async () => settled.done || await waitingFor('%FROM requests WHERE id = $1 FOR NO KEY UPDATE%'))
        assert.equal(settled.done, false, 'the accept waited for the round')
        release()
        await holder
        assert.equal((await accepting).status, 200)
      } finally {
        release()
        await holder
      }
      // Everyone the two rounds alerted who did not offer is told the request is closed, the held round's too.
      for (const volunteer of [...closest.slice(1), nearest, other]) {
        const types = (await noticesOf(a, volunteer, requestId)).map((n) => n.type).filter((type) => type.startsWith('request_alert'))
        assert.deepEqual(types, ['request_alert', 'request_alert_closed'], `volunteer ${volunteer.id}`)
      }
    })
  })
}
