import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { accessTokens } from '../../src/lib/tokens.js'
import { insertNotifications } from '../../src/messaging/notifications/notifications.repo.js'
import { startApp, startSecondInstance, TEST_SECRET, uniqueEmail, type Account, type TestApp } from '../helpers/app.js'
import { assertError } from '../helpers/assert.js'
import { scratchDatabase } from '../helpers/databases.js'
import { engines } from '../helpers/engines.js'
import { approvedRequest, REQUEST_INPUT, respond } from '../helpers/lifecycle.js'
import { json, startService } from '../helpers/service.js'
import { SseClient } from '../helpers/sse.js'

const STREAMS = { pingMs: 100, blockCheckMs: 200, drainTimeoutMs: 300 }

for (const engine of engines()) {
  describe(`live events stream (${engine})`, () => {
    let t: TestApp
    let base: string
    let moderator: Account
    const open: SseClient[] = []
    const stream = async (token: string | undefined, options: { lastEventId?: number | string, path?: string } = {}) => {
      const client = await SseClient.open(base, token, options)
      open.push(client)
      return client
    }

    before(async () => {
      t = await startApp(engine, {}, { streams: STREAMS })
      base = await t.listen()
      moderator = await t.registerWithRole('moderator')
    })
    after(async () => {
      for (const client of open) client.close()
      await t.close()
    })

    it('401 without the Authorization header, also with a token in the URL', async () => {
      const user = await t.register()
      assertError(await t.get('/events'), 401, 'unauthorized')
      const inUrl = await stream(undefined, { path: `/events?access_token=${user.token}` })
      assert.equal(inUrl.status, 401)
      assert.deepEqual(JSON.parse(inUrl.body), { error: 'unauthorized' })
      const other = await stream(undefined, { path: `/events?token=${user.token}` })
      assert.equal(other.status, 401)
    })

    it('each new notification becomes one event (id, type, the Notification as data), in id order; only new ones without Last-Event-ID', async () => {
      const requester = await t.register()
      const volunteer = await t.register({ first_name: 'Vera', last_name: 'Helper' })
      const earlier = await approvedRequest(t, requester, moderator)
      const client = await stream(requester.token)
      assert.equal(client.status, 200)
      assert.match(String(client.headers['content-type']), /^text\/event-stream/)
      const responseId = await respond(t, earlier, volunteer)
      const [event] = await client.waitFor(1)
      // The approval before the stream opened is not sent again.
      assert.equal(client.events.length, 1)
      assert.equal(client.events[0]!.event, 'response_received')
      assert.equal(client.events[0]!.id, String(event.id))
      assert.deepEqual(Object.keys(event).sort(), ['created_at', 'data', 'id', 'read_at', 'request_id', 'type'])
      assert.equal(event.request_id, earlier)
      assert.deepEqual(event.data, { response_id: responseId, volunteer_name: 'Vera Helper', message: 'I can help' })
      const inbox = await t.get('/notifications', requester.token)
      assert.deepEqual(inbox.body[0], event)
    })

    it('Last-Event-ID: every later notification in order, then live; nothing missed, nothing repeated', async () => {
      const requester = await t.register()
      const ids: number[] = []
      for (let i = 0; i < 4; i++) ids.push(await approvedRequest(t, requester, moderator))
      const inbox = (await t.get('/notifications?limit=100', requester.token)).body.map((n: { id: number }) => n.id).reverse()
      assert.equal(inbox.length, 4)
      const client = await stream(requester.token, { lastEventId: inbox[1] })
      await client.waitFor(2)
      const more = await approvedRequest(t, requester, moderator)
      const events = await client.waitFor(3)
      assert.deepEqual(events.map((n) => n.request_id), [ids[2], ids[3], more])
      assert.deepEqual(events.map((n) => n.type), ['request_approved', 'request_approved', 'request_approved'])
      const all = (await t.get('/notifications?limit=100', requester.token)).body.map((n: { id: number }) => n.id).reverse()
      assert.deepEqual(events.map((n) => n.id), all.slice(2))
      // Resuming from the last one received: nothing is repeated, and the next one comes.
      client.close()
      const resumed = await stream(requester.token, { lastEventId: events.at(-1).id })
      const last = await approvedRequest(t, requester, moderator)
      const again = await resumed.waitFor(1)
      assert.deepEqual(again.map((n) => n.request_id), [last])
      assert.equal(resumed.events.length, 1)
    })

    it('a user sees only their own notifications on the stream', async () => {
      const alice = await t.register()
      const bob = await t.register()
      const aliceStream = await stream(alice.token, { lastEventId: 0 })
      const bobStream = await stream(bob.token, { lastEventId: 0 })
      await approvedRequest(t, alice, moderator)
      const bobRequest = await approvedRequest(t, bob, moderator)
      await bobStream.waitFor(1)
      assert.deepEqual(bobStream.notifications().map((n) => n.request_id), [bobRequest])
      await aliceStream.waitFor(1)
      assert.equal(aliceStream.notifications().length, 1)
      assert.notEqual(aliceStream.notifications()[0].request_id, bobRequest)
    })

    it('sends `: ping` comments on an idle stream', async () => {
      const user = await t.register()
      const client = await stream(user.token)
      assert.ok(await client.until(() => client.comments.includes('ping')))
    })

    it('at most 5 open streams per user: the sixth is 429, and a closed one frees its place', async () => {
      const user = await t.register()
      const five = await Promise.all(Array.from({ length: 5 }, () => stream(user.token)))
      assert.deepEqual(five.map((client) => client.status), [200, 200, 200, 200, 200])
      const sixth = await stream(user.token)
      assert.equal(sixth.status, 429)
      assert.deepEqual(JSON.parse(sixth.body), { error: 'too many open streams' })
      assertError(await t.get('/events', user.token), 429, 'too many open streams')
      // Another user is not affected.
      assert.equal((await stream((await t.register()).token)).status, 200)
      five[0]!.close()
      await five[0]!.ended
      let reopened: SseClient
      do reopened = await stream(user.token); while (reopened.status === 429)
      assert.equal(reopened.status, 200)
    })

    it('a blocked user\'s streams end', async () => {
      const user = await t.register()
      const clients = [await stream(user.token), await stream(user.token)]
      const blocked = await t.post(`/admin/users/${user.id}/block`, undefined, t.admin.token)
      assert.equal(blocked.status, 200, blocked.text)
      await Promise.all(clients.map((client) => client.ended))
    })

    it('ends when the access token expires', async () => {
      const user = await t.register()
      const shortLived = accessTokens(TEST_SECRET, 1).sign(user.id)
      const client = await stream(shortLived)
      assert.equal(client.status, 200)
      await client.ended
      assert.equal(client.status, 200)
    })

    it('drops a client too slow to take its events; it resumes by Last-Event-ID with nothing missed', async () => {
      const user = await t.register()
      const requestId = await approvedRequest(t, user, moderator)
      const slow = await stream(user.token)
      slow.pause()
      // Large rows, so the socket's buffers fill up quickly: 200 × 64 KiB.
      const big = 'x'.repeat(64 * 1024)
      for (let i = 0; i < 20; i++) {
        await t.db.transaction((tx) => insertNotifications(tx, Array.from({ length: 10 }, () => ({ userId: user.id, type: 'request_approved' as const, requestId, data: { padding: big } }))))
      }
      // The server lets go of it (no timing: it must happen, since the client reads nothing)...
      while (t.app.eventStreams.count(user.id) > 0) await new Promise((resolve) => setTimeout(resolve, 20))
      // ...and the client, reading again, gets what was already on its way, then the end.
      slow.resume()
      await slow.ended
      const received = slow.notifications()
      assert.ok(received.length < 200, `dropped before all 200 were sent (${received.length})`)
      const approval = Number((await t.db.query<{ id: number }>('SELECT min(id) AS id FROM notifications WHERE user_id = $1', [user.id]))[0]!.id)
      const resumed = await stream(user.token, { lastEventId: received.at(-1)?.id ?? approval })
      const rest = (await resumed.waitFor(200 - received.length)).slice(0)
      const ids = [...received, ...rest].map((n) => n.id)
      const all = (await t.db.query<{ id: number }>('SELECT id FROM notifications WHERE user_id = $1 ORDER BY id', [user.id])).map((row) => Number(row.id))
      assert.deepEqual(ids, all.slice(1))
    })
  })
}

for (const engine of engines().filter((name) => name === 'postgres')) {
  describe('live events across instances (postgres)', () => {
    it('a change made on instance A reaches a stream on instance B within 2 s', async () => {
      const a = await startApp(engine)
      const b = await startSecondInstance(a, {}, { streams: STREAMS })
      let client: SseClient | undefined
      try {
        const baseB = await b.listen()
        const moderator = await a.registerWithRole('moderator')
        const requester = await a.register()
        const created = await a.post('/requests', REQUEST_INPUT, requester.token)
        assert.equal(created.status, 201, created.text)
        client = await SseClient.open(baseB, requester.token)
        const started = Date.now()
        const approved = await a.post(`/moderation/requests/${created.body.id}/approve`, {}, moderator.token)
        assert.equal(approved.status, 200)
        const [event] = await client.waitFor(1)
        const elapsed = Date.now() - started
        assert.equal(event.type, 'request_approved')
        assert.equal(event.request_id, created.body.id)
        assert.ok(elapsed < 2000, `arrived after ${elapsed} ms`)
      } finally {
        client?.close()
        await b.close()
        await a.close()
      }
    })

    it('a lost listening connection ends the streams (their places went with it); they resume with nothing missed', async () => {
      const t = await startApp(engine, {}, { streams: STREAMS })
      const clients: SseClient[] = []
      try {
        const base = await t.listen()
        const moderator = await t.registerWithRole('moderator')
        const requester = await t.register()
        const five = await Promise.all(Array.from({ length: 5 }, () => SseClient.open(base, requester.token)))
        clients.push(...five)
        assert.deepEqual(five.map((client) => client.status), [200, 200, 200, 200, 200])
        // The listening connection's last statement was its LISTEN or a place's lock.
        const killed = await t.db.query<{ n: number }>(/* sql */ `
          SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND (query LIKE 'LISTEN%' OR query LIKE 'SELECT pg_try_advisory_lock%')`)
        assert.equal(killed[0]!.n, 1, 'the one listening connection')
        await Promise.all(five.map((client) => client.ended))
        const created = await t.post('/requests', REQUEST_INPUT, requester.token)
        assert.equal((await t.post(`/moderation/requests/${created.body.id}/approve`, {}, moderator.token)).status, 200)
        // Back on a new connection (until then 503): five places again, and the approval made while they were away arrives.
        let resumed: SseClient
        do {
          resumed = await SseClient.open(base, requester.token, { lastEventId: 0 })
          clients.push(resumed)
        } while (resumed.status !== 200)
        const [event] = await resumed.waitFor(1)
        assert.equal(event.type, 'request_approved')
        const more = await Promise.all(Array.from({ length: 4 }, () => SseClient.open(base, requester.token)))
        clients.push(...more)
        assert.deepEqual(more.map((client) => client.status), [200, 200, 200, 200])
      } finally {
        for (const client of clients) client.close()
        await t.close()
      }
    })

    it('at most 5 open streams per user across instances; a closed stream or a stopped instance frees its places', async () => {
      const a = await startApp(engine, {}, { streams: STREAMS })
      const b = await startSecondInstance(a, {}, { streams: STREAMS })
      const c = await startSecondInstance(a, {}, { streams: STREAMS })
      const clients: SseClient[] = []
      const open = async (base: string, token: string) => {
        const client = await SseClient.open(base, token)
        clients.push(client)
        return client
      }
      try {
        const [baseA, baseB, baseC] = [await a.listen(), await b.listen(), await c.listen()]
        const user = await a.register()
        const onA = [await open(baseA, user.token), await open(baseA, user.token)]
        const onB = [await open(baseB, user.token), await open(baseB, user.token), await open(baseB, user.token)]
        assert.deepEqual([...onA, ...onB].map((client) => client.status), [200, 200, 200, 200, 200])
        for (const base of [baseA, baseB, baseC]) assert.equal((await open(base, user.token)).status, 429, base)
        // Another user is not affected.
        assert.equal((await open(baseC, (await a.register()).token)).status, 200)

        onA[0]!.close()
        await onA[0]!.ended
        let reopened: SseClient
        do reopened = await open(baseC, user.token); while (reopened.status === 429)
        assert.equal((await open(baseA, user.token)).status, 429)
        // An instance that stops takes its places with it (its listening session ends).
        await b.close()
        for (let i = 0; i < 3; i++) assert.equal((await open(i === 0 ? baseA : baseC, user.token)).status, 200)
        assert.equal((await open(baseA, user.token)).status, 429)
      } finally {
        for (const client of clients) client.close()
        await c.close()
        await b.close().catch(() => {})
        await a.close()
      }
    })
  })
}

for (const engine of engines()) {
  describe(`live events and shutdown (${engine})`, () => {
    it('SIGTERM ends every stream cleanly and the process still exits 0', async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'vcs-events-'))
      const scratch = engine === 'postgres' ? await scratchDatabase('postgres') : undefined
      const env: Record<string, string> = { DATA_DIR: dataDir, ...(scratch !== undefined ? { DATABASE_URL: scratch.url as string, JWT_SECRET: TEST_SECRET } : {}) }
      try {
        const service = await startService(env)
        const registered = await json(service.base, 'POST', '/auth/register', { email: uniqueEmail(), password: 'long enough', first_name: 'A', last_name: 'B' })
        const clients = await Promise.all([SseClient.open(service.base, registered.body.access_token), SseClient.open(service.base, registered.body.access_token)])
        assert.deepEqual(clients.map((client) => client.status), [200, 200])
        service.child.kill('SIGTERM')
        await Promise.all(clients.map((client) => client.ended))
        assert.equal(await service.exited, 0)
      } finally {
        await scratch?.drop()
        await rm(dataDir, { recursive: true, force: true })
      }
    })
  })
}
