import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Database, Statement, Transaction } from '../../src/db/database.js'
import { statementParts } from '../../src/db/database.js'
import { Changes, type Reactions } from '../../src/events/dispatcher.js'
import type { Actor, DomainEvent } from '../../src/events/events.js'
import { insertNotifications } from '../../src/messaging/notifications/notifications.repo.js'
import { systemClock } from '../../src/lib/clock.js'
import { changesOn, REACTIONS } from '../../src/areas.js'
import { notificationWriter } from '../../src/messaging/index.js'
import { migratedDatabase } from '../helpers/databases.js'
import { databaseEngines } from '../helpers/engines.js'

/** Two users and a request of the first (pending moderation), straight in SQL. */
async function fixture (db: Database): Promise<{ requester: number, volunteer: number, requestId: number }> {
  const user = async (name: string) => Number((await db.query<{ id: number }>(`INSERT INTO users (email, password_hash, first_name, last_name)
    VALUES ($1 || md5(random()::text) || '@example.org', 'x', $1, 'Test') RETURNING id`, [name]))[0]!.id)
  const requester = await user('requester')
  const volunteer = await user('volunteer')
  const [request] = await db.query<{ id: number }>(`INSERT INTO requests (requester_id, request_type_id, title, description, latitude, longitude, address, urgency)
    VALUES ($1, 1, 'Dispatch test', 'Dispatch test', 52.5, 13.4, 'Street 1', 'low') RETURNING id`, [requester])
  return { requester, volunteer, requestId: Number(request!.id) }
}

/** The database, with every statement run in its transactions counted when it writes notifications. */
function countingNotificationInserts (db: Database): { db: Database, inserts: () => number } {
  let inserts = 0
  const counting = (tx: Transaction): Transaction => ({
    exec: (script) => tx.exec(script),
    query: (statement: Statement, params?: readonly unknown[]) => {
      if (/INSERT INTO notifications\b/.test(statementParts(statement, params).text)) inserts++
      return tx.query(statement, params)
    },
  })
  return { db: { ...db, transaction: (fn) => db.transaction((tx) => fn(counting(tx))) }, inserts: () => inserts }
}

const countOf = async (db: Database, sql: string, params: unknown[]) => Number((await db.query<{ n: number }>(sql, params))[0]!.n)
const noticesOf = (db: Database, userId: number) =>
  db.query<{ type: string, request_id: number, data: Record<string, unknown> }>('SELECT type, request_id, data FROM notifications WHERE user_id = $1 ORDER BY id', [userId])

for (const engine of databaseEngines()) {
  describe(`the change dispatcher, src/events/dispatcher.ts (${engine})`, () => {
    let db: Database
    let dispose: () => Promise<void>
    before(async () => { ({ db, dispose } = await migratedDatabase(engine)) })
    after(async () => { await dispose() })

    it('writes every notification of a change and its reactions in one statement, at the end', async () => {
      const { requester, volunteer, requestId } = await fixture(db)
      const counted = countingNotificationInserts(db)
      const seen: Array<{ type: string, actor: Actor, insertsSoFar: number }> = []
      const reactions: Reactions[] = [
        { async request_approved (event, { notify, actor }) { seen.push({ type: event.type, actor, insertsSoFar: counted.inserts() }); notify({ userId: event.requesterId, type: 'request_approved', requestId, data: {} }) } },
        { async request_approved (event, { notify }) { notify({ userId: volunteer, type: 'request_alert', requestId: event.requestId, data: { round: 1 } }) } },
        { async response_rejected (event, { notify, actor }) { seen.push({ type: event.type, actor, insertsSoFar: counted.inserts() }); notify({ userId: event.volunteerId, type: 'response_rejected', requestId, data: { response_id: event.responseId } }) } },
      ]
      const result = await new Changes(counted.db, reactions, insertNotifications).run(requester, async (_tx, change) => {
        change.record({ type: 'request_approved', requestId, requesterId: requester })
        change.record({ type: 'response_rejected', requestId, responseId: 7, volunteerId: volunteer })
        change.notify({ userId: requester, type: 'request_completed', requestId, data: { rating: 5 } })
        return 'done'
      })
      assert.equal(result, 'done')
      assert.equal(counted.inserts(), 1)
      // The reactions ran in the order of their events, before the one write, with the change's actor.
      assert.deepEqual(seen, [{ type: 'request_approved', actor: requester, insertsSoFar: 0 }, { type: 'response_rejected', actor: requester, insertsSoFar: 0 }])
      assert.deepEqual((await noticesOf(db, requester)).map((n) => n.type).sort(), ['request_approved', 'request_completed'])
      assert.deepEqual((await noticesOf(db, volunteer)).map((n) => n.type).sort(), ['request_alert', 'response_rejected'])
    })

    it('dispatches the events a reaction records in the same pass', async () => {
      const { requester, volunteer, requestId } = await fixture(db)
      const counted = countingNotificationInserts(db)
      const order: string[] = []
      const reactions: Reactions[] = [{
        async request_cancelled (event, { record }) {
          order.push(event.type)
          record({ type: 'open_responses_cancelled', requestId: event.requestId, volunteerIds: [volunteer] })
        },
        async open_responses_cancelled (event, { notify }) {
          order.push(event.type)
          notify(...event.volunteerIds.map((userId) => ({ userId, type: 'request_cancelled' as const, requestId: event.requestId, data: {} })))
        },
      }]
      await new Changes(counted.db, reactions, insertNotifications).run(requester, async (_tx, change) => {
        change.record({ type: 'request_cancelled', requestId, requesterId: requester, cancelledBy: requester })
      })
      assert.deepEqual(order, ['request_cancelled', 'open_responses_cancelled'])
      assert.equal(counted.inserts(), 1)
      assert.deepEqual(await noticesOf(db, volunteer), [{ type: 'request_cancelled', request_id: requestId, data: {} }])
    })

    it("the modules' reactions: a cancellation cancels the open responses, whose volunteers are told by the event that records", async () => {
      const { requester, volunteer, requestId } = await fixture(db)
      await db.query("UPDATE requests SET status = 'approved' WHERE id = $1", [requestId])
      await db.query('INSERT INTO volunteer_responses (request_id, volunteer_id) VALUES ($1, $2)', [requestId, volunteer])
      const moderator = (await fixture(db)).volunteer
      const counted = countingNotificationInserts(db)
      await new Changes(counted.db, REACTIONS, insertNotifications).run(moderator, async (tx, change) => {
        await tx.query("UPDATE requests SET status = 'cancelled' WHERE id = $1", [requestId])
        change.record({ type: 'request_cancelled', requestId, requesterId: requester, cancelledBy: moderator })
      })
      assert.equal(counted.inserts(), 1)
      assert.equal(await countOf(db, "SELECT count(*)::int AS n FROM volunteer_responses WHERE request_id = $1 AND status = 'cancelled'", [requestId]), 1)
      assert.deepEqual(await noticesOf(db, volunteer), [{ type: 'request_cancelled', request_id: requestId, data: {} }])
      // A moderator cancelled: the requester is told too.
      assert.deepEqual(await noticesOf(db, requester), [{ type: 'request_cancelled', request_id: requestId, data: {} }])
    })

    it('a change that throws after recording writes nothing: no reaction runs, no notification, no alert round', async () => {
      const { requester, requestId } = await fixture(db)
      let reacted = false
      const changes = new Changes(db, [...REACTIONS, { async request_approved () { reacted = true } }], insertNotifications)
      await assert.rejects(changes.run(requester, async (_tx, change) => {
        change.record({ type: 'request_approved', requestId, requesterId: requester })
        change.notify({ userId: requester, type: 'request_completed', requestId, data: {} })
        throw new Error('the change fails after recording')
      }), /the change fails after recording/)
      assert.equal(reacted, false)
      assert.equal(await countOf(db, 'SELECT count(*)::int AS n FROM notifications WHERE request_id = $1', [requestId]), 0)
      assert.equal(await countOf(db, 'SELECT count(*)::int AS n FROM alert_rounds WHERE request_id = $1', [requestId]), 0)
    })

    it('a reaction that throws rolls back the change and the reactions that ran before it', async () => {
      const { requester, requestId } = await fixture(db)
      const failing: Reactions = { async request_approved () { throw new Error('a reaction fails') } }
      // The modules' reactions first: request_approved schedules the first alert round and notifies the requester.
      const changes = changesOn(db)
      const withFailure = new Changes(db, [...REACTIONS, failing], insertNotifications)
      await assert.rejects(withFailure.run(requester, async (tx, change) => {
        await tx.query("UPDATE requests SET status = 'approved' WHERE id = $1", [requestId])
        change.record({ type: 'request_approved', requestId, requesterId: requester })
      }), /a reaction fails/)
      assert.equal(await countOf(db, "SELECT count(*)::int AS n FROM requests WHERE id = $1 AND status = 'approved'", [requestId]), 0)
      assert.equal(await countOf(db, 'SELECT count(*)::int AS n FROM notifications WHERE request_id = $1', [requestId]), 0)
      assert.equal(await countOf(db, 'SELECT count(*)::int AS n FROM alert_rounds WHERE request_id = $1', [requestId]), 0)
      // The same change without the failing reaction commits all three.
      await changes.run(requester, async (tx, change) => {
        await tx.query("UPDATE requests SET status = 'approved' WHERE id = $1", [requestId])
        change.record({ type: 'request_approved', requestId, requesterId: requester })
      })
      assert.equal(await countOf(db, 'SELECT count(*)::int AS n FROM notifications WHERE request_id = $1', [requestId]), 1)
      assert.equal(await countOf(db, 'SELECT count(*)::int AS n FROM alert_rounds WHERE request_id = $1', [requestId]), 1)
    })

    it('refuses events and notifications added after the change was applied', async () => {
      const { requester, requestId } = await fixture(db)
      let late: ((event: DomainEvent) => void) | undefined
      await new Changes(db, [], insertNotifications).run(requester, async (_tx, change) => { late = change.record })
      assert.throws(() => late!({ type: 'request_approved', requestId, requesterId: requester }), /recorded after its change was applied/)
    })

    it('routes a requester\'s notifications (docs/api/on-behalf.md › Coordinators and clients, § 2) in one statement, and runs none for a batch of alerts', async () => {
      const { requester, volunteer, requestId } = await fixture(db)
      let routings = 0
      const counting: Database = {
        ...db,
        transaction: (fn) => db.transaction((tx) => fn({
          exec: (script) => tx.exec(script),
          query: (statement: Statement, params?: readonly unknown[]) => {
            if (/FROM request_history h/.test(statementParts(statement, params).text)) routings++
            return tx.query(statement, params)
          },
        })),
      }
      const changes = new Changes(counting, [], notificationWriter(systemClock))
      await changes.run(null, async (_tx, change) => {
        change.notify(...[1, 2, 3].map((round) => ({ userId: volunteer, type: 'request_alert' as const, requestId, data: { round } })))
      })
      assert.equal(routings, 0, 'an alert round reads nothing more')
      await changes.run(null, async (_tx, change) => {
        change.notify({ userId: requester, type: 'request_approved', requestId, data: {} }, { userId: requester, type: 'response_received', requestId, data: {} })
      })
      assert.equal(routings, 1)
    })
  })
}
