import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Database } from '../../src/db/database.js'
import type { NewNotification } from '../../src/events/notifications.js'
import { insertNotifications, NOTIFY_CHANNEL } from '../../src/messaging/notifications/notifications.repo.js'
import { openRealtime } from '../../src/realtime/open.js'
import { migratedDatabase } from '../helpers/databases.js'
import { databaseEngines } from '../helpers/engines.js'

async function fixture (db: Database): Promise<{ userId: number, requestId: number }> {
  const [user] = await db.query<{ id: number }>(`INSERT INTO users (email, password_hash, first_name, last_name)
    VALUES ('inbox.' || md5(random()::text) || '@example.org', 'x', 'In', 'Box') RETURNING id`)
  const [request] = await db.query<{ id: number }>(`INSERT INTO requests (requester_id, request_type_id, title, description, latitude, longitude, address, urgency)
    VALUES ($1, 1, 'Order test', 'Order test', 52.5, 13.4, 'Street 1', 'low') RETURNING id`, [user!.id])
  return { userId: user!.id, requestId: request!.id }
}

const note = (userId: number, requestId: number): NewNotification => ({ userId, type: 'request_approved', requestId, data: {} })

for (const engine of databaseEngines()) {
  describe(`notification ids and wake-ups (${engine})`, () => {
    let db: Database
    let dispose: () => Promise<void>
    before(async () => { ({ db, dispose } = await migratedDatabase(engine)) })
    after(async () => { await dispose() })

    it('wake their recipients on commit, and nobody when the transaction rolls back', async () => {
      const { userId, requestId } = await fixture(db)
      const payloads: Array<string | undefined> = []
      let woken: () => void = () => {}
      const realtime = openRealtime(db)
      const stop = await realtime.listen(NOTIFY_CHANNEL, (payload) => { payloads.push(payload); woken() })
      try {
        await assert.rejects(db.transaction(async (tx) => {
          await insertNotifications(tx, [note(userId, requestId)])
          throw new Error('the change fails after the notification was written')
        }), /the change fails/)
        assert.equal((await db.query('SELECT 1 FROM notifications WHERE user_id = $1', [userId])).length, 0)
        const wake = new Promise<void>((resolve) => { woken = resolve })
        await db.transaction((tx) => insertNotifications(tx, [note(userId, requestId)]))
        await wake
        // Only the committed one: the rolled-back NOTIFY was never delivered.
        assert.deepEqual(payloads, [String(userId)])
      } finally {
        await stop()
        await realtime.close()
      }
    })

    if (engine === 'postgres') {
      it('a second transaction for the same recipient waits for the first, so its larger id commits later', async () => {
        const { userId, requestId } = await fixture(db)
        let release: () => void = () => {}
        const held = new Promise<void>((resolve) => { release = resolve })
        let firstInserted: () => void = () => {}
        const inserted = new Promise<void>((resolve) => { firstInserted = resolve })
        const idOf = async (tx: Database | Parameters<Parameters<Database['transaction']>[0]>[0]) =>
          Number((await tx.query<{ id: number }>('SELECT max(id) AS id FROM notifications WHERE user_id = $1', [userId]))[0]!.id)
        const first = db.transaction(async (tx) => {
          await insertNotifications(tx, [note(userId, requestId)])
          const id = await idOf(tx)
          firstInserted()
          await held
          return id
        })
        await inserted
        const second = db.transaction(async (tx) => {
          await insertNotifications(tx, [note(userId, requestId)])
          return await idOf(tx)
        })
        let secondEnded = false
        second.then(() => { secondEnded = true }, () => { secondEnded = true })
        // The second is blocked on the recipient's inbox lock while the first is open.
        for (;;) {
          assert.equal(secondEnded, false, 'the second transaction committed while the first was still open')
          const waiting = await db.query('SELECT 1 FROM pg_locks WHERE locktype = \'advisory\' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())')
          if (waiting.length > 0) break
          await new Promise((resolve) => setTimeout(resolve, 10))
        }
        assert.equal((await db.query('SELECT 1 FROM notifications WHERE user_id = $1', [userId])).length, 0)
        release()
        const [a, b] = await Promise.all([first, second])
        assert.ok(a < b, `first ${a} < second ${b}`)
      })

      it('many concurrent writers to one inbox: a reader tailing id > last seen misses none', async () => {
        const { userId, requestId } = await fixture(db)
        const writers = 8
        const each = 40
        let done = false
        const seen: number[] = []
        const reader = (async () => {
          let last = 0
          for (;;) {
            const finished = done
            const rows = await db.query<{ id: number }>('SELECT id FROM notifications WHERE user_id = $1 AND id > $2 ORDER BY id', [userId, last])
            for (const row of rows) seen.push(Number(row.id))
            if (rows.length > 0) last = Number(rows.at(-1)!.id)
            if (finished) return
          }
        })()
        await Promise.all(Array.from({ length: writers }, async () => {
          for (let i = 0; i < each; i++) {
            // Another recipient in the same transaction too.
            const other = await fixture(db)
            await db.transaction(async (tx) => {
              await tx.query('SELECT pg_sleep(0.001 * random())')
              await insertNotifications(tx, [note(other.userId, other.requestId), note(userId, requestId)])
            })
          }
        }))
        done = true
        await reader
        const all = (await db.query<{ id: number }>('SELECT id FROM notifications WHERE user_id = $1 ORDER BY id', [userId])).map((row) => Number(row.id))
        assert.equal(all.length, writers * each)
        assert.deepEqual(seen, all)
      })
    }
  })
}
