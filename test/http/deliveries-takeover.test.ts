import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { buildApp } from '../../src/app.js'
import { sealerFor } from '../../src/lib/sealing.js'
import { unsubscribeTokens } from '../../src/lib/unsubscribe.js'
import { claimDueDeliveries } from '../../src/messaging/deliveries/deliveries.repo.js'
import { emailChannel } from '../../src/messaging/deliveries/email-channel.js'
import { OutboxSender } from '../../src/messaging/deliveries/outbox-sender.js'
import { startApp, TEST_SECRET, testConfig, uniqueEmail, type TestApp } from '../helpers/app.js'
import { ManualClock } from '../helpers/clock.js'
import { scratchDatabase, type ScratchDatabase } from '../helpers/databases.js'
import { deliveriesOf, peopleAwaitingMail, until } from '../helpers/deliveries.js'
import { engines } from '../helpers/engines.js'
import { json, startService, type RunningService } from '../helpers/service.js'
import { startSmtp, type TestSmtp } from '../helpers/smtp.js'

/**
 * docs/api/messaging.md Delivery guarantees across a crash: a live sender keeps the rows it holds however long its
 * server takes; a dead one's are sent by another instance within 30 s, or on the embedded engine by the process
 * restarted as soon as it is up, each once.
 */

const PUBLIC_URL = 'https://help.example.org'
/** The sending loop's lease (outbox-sender.ts). */
const LEASE_MS = 15_000
const TAKE_OVER_LIMIT_MS = 30_000

for (const engine of engines()) {
  describe(`a dead sender's claims (${engine})`, () => {
    let smtp: TestSmtp
    before(async () => { smtp = await startSmtp() })
    after(() => smtp.close())

    describe('in one process, time moved by the clock', () => {
      const clock = new ManualClock()
      let t: TestApp
      before(async () => { t = await startApp(engine, { smtpUrl: smtp.url, publicUrl: PUBLIC_URL }, { clock, deliveryTickMs: 0 }) })
      after(() => t.close())

      function sender () {
        const email = emailChannel({ smtpUrl: smtp.url, mailDir: tmpdir(), from: 'x <x@localhost>', links: { publicUrl: PUBLIC_URL, unsubscribe: unsubscribeTokens(TEST_SECRET) }, log: { info () {} } })
        return { email, sender: new OutboxSender(t.db, { email }, sealerFor(TEST_SECRET), { maxAttempts: 6, timeZone: 'UTC' }, clock, { warn () {} }) }
      }

      it('a live sender renews its leases while its server is slow: another sender claims none of its rows, however long it takes', async () => {
        const people = await peopleAwaitingMail(t, clock, 3)
        const first = sender()
        const second = sender()
        smtp.hold()
        const run = first.sender.sendDue()
        try {
          await until(async () => smtp.heldCount === 3 ? true : undefined, 10_000, 'the three sends under way')
          // Four leases' time passes while the server says nothing; after each step the lease is renewed.
          for (let step = 0; step < 8; step++) {
            clock.advance(LEASE_MS / 2)
            const renewedTo = clock.now().getTime() + LEASE_MS
            await until(async () => {
              const rows = (await Promise.all(people.map((person) => deliveriesOf(t, person.id)))).flat()
              return rows.every((row) => row.leased_until?.getTime() === renewedTo) ? true : undefined
            }, 10_000, 'the leases renewed')
            assert.deepEqual(await second.sender.sendDue(), { claimed: 0, more: false })
          }
        } finally {
          smtp.release()
        }
        assert.deepEqual(await run, { claimed: 3, more: false })
        for (const person of people) {
          assert.deepEqual((await deliveriesOf(t, person.id)).map((row) => [row.status, row.attempts, row.leased_until]), [['sent', 1, null]])
          assert.equal(smtp.countTo(person.email), 1)
        }
        await first.email.close()
        await second.email.close()
      })

      it('rows claimed by a sender that is gone (never renewed) are taken by another when the lease ends, not before', async () => {
        const people = await peopleAwaitingMail(t, clock, 3)
        // A claim whose sender died at once: nothing renews it.
        const claimed = await t.db.transaction((tx) => claimDueDeliveries(tx, clock.now(), new Date(clock.now().getTime() + LEASE_MS), 50))
        assert.equal(claimed.length, 3)
        const heir = sender()
        clock.advance(LEASE_MS - 1)
        assert.deepEqual(await heir.sender.sendDue(), { claimed: 0, more: false })
        clock.advance(1)
        assert.deepEqual(await heir.sender.sendDue(), { claimed: 3, more: false })
        for (const person of people) {
          assert.deepEqual((await deliveriesOf(t, person.id)).map((row) => [row.status, row.attempts]), [['sent', 2]])
          assert.equal(smtp.countTo(person.email), 1)
        }
        await heir.email.close()
      })

      it('a sender writes each outcome before its next send: with the writes held up, no more than the ten under way are sent', { skip: engine !== 'postgres' && 'row locks from a second connection need PostgreSQL (PGlite has one connection)' }, async () => {
        const people = await peopleAwaitingMail(t, clock, 30)
        const { email, sender: running } = sender()
        const locker = await t.scratch.open()
        let unlock!: () => void
        const unlocked = new Promise<void>((resolve) => { unlock = resolve })
        try {
          smtp.hold()
          const run = running.sendDue()
          await until(async () => smtp.heldCount === 10 ? true : undefined, 10_000, 'ten sends under way')
          // Another connection takes the rows' locks: the sender's writes of outcomes wait behind it.
          let locked!: () => void
          const lockTaken = new Promise<void>((resolve) => { locked = resolve })
          const holding = locker.transaction(async (tx) => {
            await tx.query('SELECT id FROM deliveries WHERE status = \'pending\' FOR UPDATE')
            locked()
            await unlocked
          })
          await lockTaken
          smtp.release()
          await until(async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = \'Lock\' AND datname = current_database()'))[0]!.n > 0 ? true : undefined, 10_000, 'a write of outcomes waiting')
          // A moment in which a sender that went on without its write would send the twenty others.
          const sentOn = await until(async () => people.filter((person) => smtp.countTo(person.email) > 0).length > 10 ? true : undefined, 1500).catch(() => false)
          assert.equal(sentOn, false)
          assert.equal(people.filter((person) => smtp.countTo(person.email) > 0).length, 10)
          unlock()
          await holding
          assert.deepEqual(await run, { claimed: 30, more: false })
          for (const person of people) assert.equal(smtp.countTo(person.email), 1)
        } finally {
          unlock()
          smtp.release()
          await locker.close()
          await email.close()
        }
      })

      const atStart = engine === 'pglite' ? 'frees the claims its last run left, and sends them at once' : 'leaves claims alone: another instance may be sending them'
      it(`a process starting on the ${engine === 'pglite' ? 'embedded engine' : 'server'} ${atStart}`, async () => {
        const people = await peopleAwaitingMail(t, clock, 2)
        const claimed = await t.db.transaction((tx) => claimDueDeliveries(tx, clock.now(), new Date(clock.now().getTime() + LEASE_MS), 50))
        assert.equal(claimed.length, 2)
        // The clock stands still: only the release at start-up lets them go before the lease ends. A third
        // e-mail, never claimed, shows when the new process's loop has run.
        const [marker] = await peopleAwaitingMail(t, clock, 1)
        const restarted = await buildApp({ config: testConfig({ smtpUrl: smtp.url, publicUrl: PUBLIC_URL }), db: t.db, jwtSecret: TEST_SECRET, deliveryTickMs: 20, clock })
        try {
          await restarted.ready()
          await smtp.nextTo(marker!.email)
          if (engine === 'pglite') {
            for (const person of people) await smtp.nextTo(person.email)
            await until(async () => (await Promise.all(people.map((person) => deliveriesOf(t, person.id)))).flat().every((row) => row.status === 'sent') ? true : undefined)
            for (const person of people) assert.equal(smtp.countTo(person.email), 1)
          } else {
            const rows = (await Promise.all(people.map((person) => deliveriesOf(t, person.id)))).flat()
            assert.deepEqual(rows.map((row) => [row.status, row.leased_until !== null]), [['pending', true], ['pending', true]])
            assert.deepEqual(people.map((person) => smtp.countTo(person.email)), [0, 0])
          }
        } finally {
          await restarted.close()
        }
        if (engine === 'postgres') await t.db.query('UPDATE deliveries SET leased_until = NULL, status = \'dropped\' WHERE status = \'pending\'')
      })
    })

    describe('real processes, kill -9', () => {
      let dataDir: string
      let scratch: ScratchDatabase | undefined
      let env: Record<string, string>
      before(async () => {
        dataDir = await mkdtemp(join(tmpdir(), 'vcs-takeover-'))
        env = { DATA_DIR: dataDir, SMTP_URL: smtp.url, PUBLIC_URL, LOG_LEVEL: 'warn' }
        if (engine === 'postgres') {
          scratch = await scratchDatabase('postgres')
          env = { ...env, DATABASE_URL: scratch.url!, JWT_SECRET: TEST_SECRET }
        }
      })
      after(async () => {
        await scratch?.drop()
        await rm(dataDir, { recursive: true, force: true })
      })

      const heir = engine === 'postgres' ? 'the other instance, running beside it, sends each of them once within 30 s' : 'restarted, it sends each of them once at start-up'
      it(`a process killed while it holds claims: ${heir}`, async (t) => {
        const processes: RunningService[] = []
        try {
          const first = await startService(env)
          processes.push(first)
          const people: Array<{ email: string, token: string }> = []
          for (let i = 0; i < 7; i++) {
            const email = uniqueEmail('takeover')
            const registered = await json(first.base, 'POST', '/auth/register', { email, password: 'long enough', first_name: 'T', last_name: 'O' })
            assert.equal(registered.status, 201)
            people.push({ email, token: registered.body.access_token as string })
          }
          // Each asks for a sign-in code. The first e-mail, held, keeps the loop's run busy while the six others
          // are written; once it is answered the next run claims the six together and is caught sending them.
          const opener = people.shift()!
          smtp.hold()
          assert.equal((await json(first.base, 'POST', '/auth/code', { email: opener.email })).status, 202)
          await until(async () => smtp.heldCount === 1 ? true : undefined, 20_000, 'the first e-mail under way')
          for (const person of people) assert.equal((await json(first.base, 'POST', '/auth/code', { email: person.email })).status, 202)
          const receivedBefore = smtp.received.length + 1
          smtp.release()
          smtp.hold()
          await until(async () => smtp.heldCount === people.length ? true : undefined, 20_000, 'the six e-mails under way')
          if (engine === 'postgres') {
            processes.push(await startService(env))
            // The other instance is up, and the first one's leases hold: it has sent nothing of them.
            assert.equal(smtp.received.length, receivedBefore)
            assert.equal(smtp.heldCount, people.length)
          }
          const killedAt = Date.now()
          first.child.kill('SIGKILL')
          assert.equal(await first.exited, 'SIGKILL')
          // The server never answered them: not sent, as far as anyone knows.
          smtp.release(true)
          let listeningMs = 0
          if (engine === 'pglite') {
            processes.push(await startService(env))
            listeningMs = Date.now() - killedAt
          }
          const base = processes.at(-1)!.base
          const arrived = await Promise.all(people.map(async (person) => {
            await smtp.nextTo(person.email, 3 * TAKE_OVER_LIMIT_MS)
            return Date.now() - killedAt
          }))
          const firstMs = Math.min(...arrived)
          const warnings = processes.at(-1)!.stdout().split('\n').filter((line) => line.includes('"level":40'))
          if (warnings.length > 0) t.diagnostic(`the heir's warnings: ${warnings.join(' | ')}`)
          t.diagnostic(`kill -9 to the first of the dead process's e-mails: ${firstMs} ms, to the last: ${Math.max(...arrived)} ms (${arrived.join(', ')})` +
            (engine === 'pglite' ? `; the restarted process listening after ${listeningMs} ms` : ''))
          if (engine === 'postgres') assert.ok(firstMs <= TAKE_OVER_LIMIT_MS, `taken over after ${firstMs} ms`)
          // The one process of the embedded engine frees its claims at start-up: no lease is waited out after the restart.
          else assert.ok(firstMs - listeningMs < LEASE_MS / 2, `sent ${firstMs - listeningMs} ms after the restart`)
          for (const person of people) {
            const listed = await until(async () => {
              const res = await json(base, 'GET', '/users/me/deliveries', undefined, person.token)
              return res.body.every((d: { status: string }) => d.status === 'sent') ? res.body : undefined
            })
            // Claimed twice (once by the dead process), sent once.
            assert.deepEqual(listed.map((d: { account_message: string, attempts: number }) => [d.account_message, d.attempts]), [['sign_in_code', 2]])
            assert.equal(smtp.countTo(person.email), 1)
          }
        } finally {
          smtp.release(true)
          for (const service of processes) service.child.kill('SIGKILL')
          await Promise.all(processes.map((service) => service.exited))
        }
      })
    })
  })
}
