import assert from 'node:assert/strict'
import { tmpdir } from 'node:os'
import { after, before, describe, it } from 'node:test'
import { sealerFor } from '../../src/lib/sealing.js'
import { unsubscribeTokens } from '../../src/lib/unsubscribe.js'
import { emailChannel } from '../../src/messaging/deliveries/email-channel.js'
import { OutboxSender } from '../../src/messaging/deliveries/outbox-sender.js'
import { startApp, TEST_SECRET, type TestApp } from '../helpers/app.js'
import { ManualClock } from '../helpers/clock.js'
import { deliveriesOf, peopleAwaitingMail, until } from '../helpers/deliveries.js'
import { engines } from '../helpers/engines.js'
import { startSmtp, type TestSmtp } from '../helpers/smtp.js'

/** The sending loop through a backlog (docs/api/messaging.md › Deliveries and e-mail): claims ahead while sending, and stops claiming on shutdown. */

const PUBLIC_URL = 'https://help.example.org'

for (const engine of engines()) {
  describe(`the sending loop through a backlog (${engine})`, () => {
    let smtp: TestSmtp
    let t: TestApp
    const clock = new ManualClock()
    before(async () => {
      smtp = await startSmtp()
      t = await startApp(engine, { smtpUrl: smtp.url, publicUrl: PUBLIC_URL }, { clock, deliveryTickMs: 0 })
    })
    after(async () => {
      await t.close()
      await smtp.close()
    })

    async function withSender<T> (batchSize: number, use: (sender: OutboxSender) => Promise<T>): Promise<T> {
      const email = emailChannel({ smtpUrl: smtp.url, mailDir: tmpdir(), from: 'x <x@localhost>', links: { publicUrl: PUBLIC_URL, unsubscribe: unsubscribeTokens(TEST_SECRET) }, log: { info () {} } })
      try {
        return await use(new OutboxSender(t.db, { email }, sealerFor(TEST_SECRET), { maxAttempts: 6, timeZone: 'UTC', batchSize }, clock, { warn () {} }))
      } finally {
        await email.close()
      }
    }

    it('one slow message holds up nothing: the next batches are claimed and sent while it waits, each row once', async () => {
      const [slow, ...others] = await peopleAwaitingMail(t, clock, 12)
      smtp.hold(slow!.email)
      const result = await withSender(4, async (sender) => {
        const run = sender.sendDue()
        try {
          // Batches of 4, then 8: the eleven others arrive while the first batch's slow message is still being sent.
          await until(async () => others.every((person) => smtp.countTo(person.email) === 1) ? true : undefined, 20_000, 'every other message')
          assert.equal(smtp.heldCount, 1)
          assert.equal(smtp.countTo(slow!.email), 0)
        } finally {
          smtp.release()
        }
        return await run
      })
      // Resolved once every outcome is recorded: each row sent, on its first try, each message received once.
      // `more`: batches were full, so the job looks again at once for what fell due meanwhile.
      assert.deepEqual(result, { claimed: 12, more: true })
      for (const person of [slow!, ...others]) {
        assert.deepEqual((await deliveriesOf(t, person.id)).map((row) => [row.status, row.attempts]), [['sent', 1]], `person ${person.id}`)
        assert.equal(smtp.countTo(person.email), 1)
      }
    })

    it('on shutdown it claims no more: what it had claimed is sent and recorded, the rest waits unclaimed for the next run', async () => {
      const people = await peopleAwaitingMail(t, clock, 10)
      const result = await withSender(4, (sender) => sender.sendDue(() => true))
      assert.deepEqual(result, { claimed: 4, more: true })
      const rows = (await Promise.all(people.map((person) => deliveriesOf(t, person.id)))).flat()
      assert.deepEqual(rows.map((row) => [row.status, row.attempts]), [...Array(4).fill(['sent', 1]), ...Array(6).fill(['pending', 0])])
      assert.equal((await withSender(4, (sender) => sender.sendDue())).claimed, 6)
      for (const person of people) assert.equal(smtp.countTo(person.email), 1)
    })
  })
}
