import assert from 'node:assert/strict'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { buildApp } from '../../src/app.js'
import type { AccountMessage } from '../../src/events/notifications.js'
import { sealerFor } from '../../src/lib/sealing.js'
import { unsubscribeTokens } from '../../src/lib/unsubscribe.js'
import { emailChannel } from '../../src/messaging/deliveries/email-channel.js'
import { OutboxSender } from '../../src/messaging/deliveries/outbox-sender.js'
import { changesOn } from '../../src/areas.js'
import { startApp, startSecondInstance, TEST_SECRET, testConfig, uniqueEmail, type Account, type TestApp } from '../helpers/app.js'
import { ManualClock } from '../helpers/clock.js'
import { scratchDatabase } from '../helpers/databases.js'
import { deliveriesOf, until } from '../helpers/deliveries.js'
import { engines } from '../helpers/engines.js'
import { REQUEST_INPUT } from '../helpers/lifecycle.js'
import { startService } from '../helpers/service.js'
import { startSmtp, type TestSmtp } from '../helpers/smtp.js'

/** docs/api/messaging.md › Deliveries and e-mail, its guarantees: once across instances, nothing lost to kill -9, failures, secrets kept out of logs. */

const PUBLIC_URL = 'https://help.example.org'

/** Writes an account e-mail to `userId` in its own committed change, as the routes of getting back in do. */
async function accountMessage (t: TestApp, clock: ManualClock | undefined, userId: number, message: AccountMessage, code: string | null = null): Promise<void> {
  await changesOn(t.db, clock).run(userId, async (_tx, change) => {
    change.record({ type: 'account_message', userId, message, sealedCode: code === null ? null : sealerFor(TEST_SECRET).seal(code) })
  })
}

for (const engine of engines()) {
  describe(`delivery guarantees (${engine})`, () => {
    let smtp: TestSmtp
    before(async () => { smtp = await startSmtp() })
    after(() => smtp.close())

    it('after DELIVERY_MAX_ATTEMPTS a delivery is failed, its code cleared, its reason shown to its owner', async () => {
      const clock = new ManualClock()
      const t = await startApp(engine, { smtpUrl: smtp.url, publicUrl: PUBLIC_URL, deliveryMaxAttempts: 2 }, { clock, deliveryTickMs: 20 })
      try {
        const person = await t.register()
        smtp.refuse(550)
        await accountMessage(t, clock, person.id, 'password_reset_code', '111222')
        await until(async () => (await deliveriesOf(t, person.id))[0]?.last_error !== null ? true : undefined)
        clock.advance(60_000)
        const [row] = await until(async () => {
          const rows = await deliveriesOf(t, person.id)
          return rows[0]?.status === 'failed' ? rows : undefined
        })
        assert.equal(row?.attempts, 2)
        assert.equal(row?.secret, null)
        const listed = await t.get('/users/me/deliveries', person.token)
        assert.deepEqual(listed.body.map((d: any) => [d.account_message, d.status, d.attempts, d.last_error, d.sent_at]),
          [['password_reset_code', 'failed', 2, 'the mail server refused the message (550)', null]])
        assert.ok(!listed.text.includes('111222'))
      } finally {
        smtp.refuse(false)
        await t.close()
      }
    })

    it('an alert still waiting when its request has left approved is dropped unsent', async () => {
      const clock = new ManualClock()
      const t = await startApp(engine, { smtpUrl: smtp.url, publicUrl: PUBLIC_URL }, { clock, deliveryTickMs: 0 })
      try {
        const requester = await t.register()
        const volunteer = await t.register()
        assert.equal((await t.request('PUT', '/users/me/notification-settings', { body: { email: { types: ['request_alert'] } }, token: volunteer.token })).status, 200)
        const created = await t.post('/requests', REQUEST_INPUT, requester.token)
        await changesOn(t.db, clock).run(null, async (_tx, change) => {
          change.notify({ userId: volunteer.id, type: 'request_alert', requestId: created.body.id, data: { title: REQUEST_INPUT.title } })
        })
        // The request was never approved (pending): due now, and dropped when the loop reaches it.
        const email = emailChannel({ smtpUrl: smtp.url, mailDir: tmpdir(), from: 'x <x@localhost>', links: { publicUrl: PUBLIC_URL, unsubscribe: unsubscribeTokens(TEST_SECRET) }, log: { info () {} } })
        await new OutboxSender(t.db, { email }, sealerFor(TEST_SECRET), { maxAttempts: 6, timeZone: 'UTC' }, clock, { warn () {} }).sendDue()
        await email.close()
        const [row] = await deliveriesOf(t, volunteer.id)
        assert.deepEqual([row?.status, row?.attempts, row?.last_error], ['dropped', 0, 'the request is no longer open'])
        assert.equal(smtp.countTo(volunteer.email), 0)
      } finally {
        await t.close()
      }
    })

    it('a retry that falls inside the recipient\'s quiet hours waits until they end, as a first try does; account e-mails never wait', async () => {
      const clock = new ManualClock(new Date('2026-06-10T21:59:00Z'))
      const t = await startApp(engine, {}, { clock, deliveryTickMs: 0 })
      try {
        const quiet = await t.register()
        const anytime = await t.register()
        const saved = await t.request('PUT', '/users/me/notification-settings', { body: { quiet_hours: { start: '22:00', end: '07:00' }, time_zone: 'Europe/Lisbon' }, token: quiet.token })
        assert.equal(saved.status, 200, saved.text)
        await changesOn(t.db, clock).run(null, async (_tx, change) => {
          for (const person of [quiet, anytime]) change.notify({ userId: person.id, type: 'request_approved', requestId: null, data: {} })
        })
        await accountMessage(t, clock, quiet.id, 'password_changed')
        // 21:59 UTC is 22:59 in Lisbon (summer time): inside the window already, so the first try waits too.
        const first = await deliveriesOf(t, quiet.id)
        assert.equal(first.find((row) => row.notification_id !== null)?.due_at.toISOString(), '2026-06-11T06:00:00.000Z')
        // Back to a time outside the window for the retry test: 20:59 UTC is 21:59 in Lisbon.
        clock.set(new Date('2026-06-10T20:59:00Z'))
        await t.db.query('UPDATE deliveries SET due_at = $1', [clock.now()])
        const refusing = { send: async () => ({ outcome: 'retry' as const, reason: 'the mail server is busy' }), close: async () => {} }
        await new OutboxSender(t.db, { email: refusing }, sealerFor(TEST_SECRET), { maxAttempts: 6, timeZone: 'UTC' }, clock, { warn () {} }).sendDue()
        // The retry is due a minute later, 22:00 in Lisbon: the start of the quiet hours, so 07:00 Lisbon (06:00 UTC).
        const retried = await deliveriesOf(t, quiet.id)
        assert.deepEqual(retried.map((row) => [row.notification_id === null ? 'account' : 'notification', row.attempts, row.due_at.toISOString()]),
          [['notification', 1, '2026-06-11T06:00:00.000Z'], ['account', 1, '2026-06-10T21:00:00.000Z']])
        assert.deepEqual((await deliveriesOf(t, anytime.id)).map((row) => [row.attempts, row.due_at.toISOString()]), [[1, '2026-06-10T21:00:00.000Z']])
      } finally {
        await t.close()
      }
    })

    it('without SMTP_URL an e-mail is an .eml file in MAIL_DIR; no code, token, password or address in any log line', async () => {
      const mailDir = await mkdtemp(join(tmpdir(), 'vcs-mail-'))
      const lines: string[] = []
      const clock = new ManualClock()
      const t = await startApp(engine, { mailDir, logLevel: 'debug' }, { clock, deliveryTickMs: 20, logStream: { write: (line) => { lines.push(line) } } })
      try {
        const person = await t.register()
        await accountMessage(t, clock, person.id, 'sign_in_code', '918273')
        const requester = await t.register()
        const moderator = await t.registerWithRole('moderator')
        const created = await t.post('/requests', REQUEST_INPUT, requester.token)
        await t.post(`/moderation/requests/${created.body.id}/approve`, {}, moderator.token)
        const files = await until(async () => {
          // A message is written to a hidden temporary file and renamed into place: only the .eml files are whole.
          const names = (await readdir(mailDir)).filter((name) => name.endsWith('.eml') && !name.startsWith('.'))
          return names.length >= 2 ? names : undefined
        })
        const contents = await Promise.all(files.map((name) => readFile(join(mailDir, name), 'utf8')))
        assert.ok(contents.some((text) => text.includes('918273')), 'the code is in its message')
        const tokenMatch = contents.join('\n').match(/unsubscribe\?token=([^>\s]+)/)
        assert.ok(tokenMatch !== null)
        const rows = await deliveriesOf(t, person.id)
        assert.equal(rows[0]?.status, 'sent')
        // The one-click address itself: its token must not reach the request's log line either.
        const clicked = await t.request('POST', `/unsubscribe?token=${tokenMatch[1]!}`, { payload: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
        assert.equal(clicked.status, 200, clicked.text)
        const log = lines.join('')
        assert.match(log, /"url":"\/api\/v1\/unsubscribe\?token=\[redacted\]"/)
        assert.match(log, /e-mail written to MAIL_DIR/)
        assert.match(log, /"subject":"Your sign-in code"/)
        for (const secret of ['918273', tokenMatch[1]!, person.email, requester.email, person.password, REQUEST_INPUT.address]) {
          assert.ok(!log.includes(secret), `the log holds ${secret}`)
        }
      } finally {
        await t.close()
        await rm(mailDir, { recursive: true, force: true })
      }
    })

    if (engine !== 'postgres') return

    it('two instances on one PostgreSQL send each delivery once', async () => {
      const t = await startApp(engine, { smtpUrl: smtp.url, publicUrl: PUBLIC_URL }, { deliveryTickMs: 5 })
      const second = await startSecondInstance(t, { smtpUrl: smtp.url, publicUrl: PUBLIC_URL }, { deliveryTickMs: 5 })
      try {
        const people: Account[] = []
        for (let i = 0; i < 8; i++) people.push(await t.register())
        const PER_PERSON = 15
        await Promise.all(people.map(async (person) => {
          for (let i = 0; i < PER_PERSON; i++) await accountMessage(i % 2 === 0 ? t : second, undefined, person.id, 'email_verified')
        }))
        await until(async () => people.every((person) => smtp.countTo(person.email) >= PER_PERSON) ? true : undefined, 30_000)
        await until(async () => {
          const rows = (await Promise.all(people.map((person) => deliveriesOf(t, person.id)))).flat()
          return rows.every((row) => row.status === 'sent') ? true : undefined
        })
        // A moment for any second send to arrive.
        await new Promise((resolve) => setTimeout(resolve, 300))
        for (const person of people) assert.equal(smtp.countTo(person.email), PER_PERSON)
        const rows = (await Promise.all(people.map((person) => deliveriesOf(t, person.id)))).flat()
        assert.ok(rows.every((row) => row.attempts === 1))
      } finally {
        await second.close()
        await t.close()
      }
    })

    it('kill -9 in the middle of a batch loses nothing: another instance sends it once the lease ends', async () => {
      const scratch = await scratchDatabase('postgres')
      const dataDir = await mkdtemp(join(tmpdir(), 'vcs-deliveries-'))
      const env = { DATA_DIR: dataDir, DATABASE_URL: scratch.url!, JWT_SECRET: TEST_SECRET, SMTP_URL: smtp.url, PUBLIC_URL, LOG_LEVEL: 'silent' }
      const first = await startService(env)
      const db = await scratch.open()
      const recipients: string[] = []
      try {
        const clock = new ManualClock()
        const app = await buildApp({ config: testConfig(), db, jwtSecret: TEST_SECRET, deliveryTickMs: 0 })
        const t = { db } as TestApp
        smtp.hold()
        for (let i = 0; i < 6; i++) {
          const email = uniqueEmail('killed')
          recipients.push(email)
          const [user] = await db.query<{ id: number }>('INSERT INTO users (email, password_hash, first_name, last_name) VALUES ($1, \'x\', \'K\', \'L\') RETURNING id', [email])
          await accountMessage(t, clock, user!.id, 'email_verified')
        }
        await app.close()
        // The first instance has claimed the batch and is waiting on the mail server: kill it there.
        await until(async () => smtp.heldCount > 0 ? true : undefined, 20_000)
        first.child.kill('SIGKILL')
        assert.equal(await first.exited, 'SIGKILL')
        smtp.release(true)
        const leased = await db.query<{ attempts: number, status: string }>('SELECT attempts, status FROM deliveries')
        assert.ok(leased.some((row) => row.attempts === 1 && row.status === 'pending'), 'claimed rows stay pending under their lease')
        // Another instance, its clock past the lease (10 minutes), sends every one of them.
        clock.advance(11 * 60_000)
        const heir = await buildApp({ config: testConfig({ smtpUrl: smtp.url, publicUrl: PUBLIC_URL }), db, jwtSecret: TEST_SECRET, deliveryTickMs: 10, clock })
        await heir.ready()
        try {
          for (const email of recipients) await smtp.nextTo(email, 20_000)
          await until(async () => (await db.query<{ status: string }>('SELECT status FROM deliveries')).every((row) => row.status === 'sent') ? true : undefined)
          await new Promise((resolve) => setTimeout(resolve, 200))
          for (const email of recipients) assert.equal(smtp.countTo(email), 1)
        } finally {
          await heir.close()
        }
      } finally {
        smtp.release(true)
        first.child.kill('SIGKILL')
        await db.close()
        await scratch.drop()
        await rm(dataDir, { recursive: true, force: true })
      }
    })
  })
}
