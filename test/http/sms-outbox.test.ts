import assert from 'node:assert/strict'
import { after, before, beforeEach, describe, it } from 'node:test'
import { startApp, startSecondInstance, uniqueEmail, type Account, type TestApp } from '../helpers/app.js'
import { assertStatus } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { deliveriesOf, until } from '../helpers/deliveries.js'
import { engines } from '../helpers/engines.js'
import { approvedRequest } from '../helpers/lifecycle.js'
import { json, serviceEnvironment, startService } from '../helpers/service.js'
import { startSmppServer, type SmppTestServer } from '../helpers/smpp-server.js'
import { confirmPhone, nextTextTo, textsOn, textsTo, uniqueMobile } from '../helpers/texts.js'

/**
 * docs/api/messaging.md › Texts: the sms channel as part of the outbox when things go wrong. A gateway that stalls,
 * refuses binds or vanishes holds no API answer, and its texts go once it is back; two instances bound at once send
 * each text once; a process killed between a submit and its record sends the text at most once more.
 */

for (const engine of engines()) {
  describe(`texts when the gateway or the process fails (${engine})`, () => {
    let t: TestApp
    let smpp: SmppTestServer
    let moderator: Account
    const clock = new ManualClock()

    before(async () => {
      smpp = await startSmppServer()
      t = await startApp(engine, { smsSmppUrl: smpp.url, smsFrom: '+4915199999999' }, { clock, deliveryTickMs: 25 })
      moderator = await t.registerWithRole('moderator')
    })
    after(async () => {
      await t.close()
      await smpp.close()
    })

    /** Each test signs the moderator in anew: the last one moved the clock past her token's 15 minutes. */
    beforeEach(async () => {
      const login = await t.post('/auth/login', { email: moderator.email, password: moderator.password })
      assertStatus(login, 200)
      moderator.token = login.body.access_token
    })

    /** A requester whose confirmed phone gets request_approved by text. */
    async function textedRequester (): Promise<{ account: Account, e164: string }> {
      const account = await t.register()
      const e164 = await confirmPhone(t, smpp, account)
      await textsOn(t, account, ['request_approved'])
      return { account, e164 }
    }

    const smsStatus = async (account: Account) =>
      (await deliveriesOf(t, account.id)).filter((row) => row.channel === 'sms' && row.account_message === null).map((row) => row.status)
    /** The gateway is back: the texts tried meanwhile go at their next try, which comes as the clock moves on past its wait. */
    const sentOnceBack = async (account: Account) => await until(async () => {
      clock.advance(5 * 60_000)
      return (await smsStatus(account)).includes('sent') ? true : undefined
    }, 20_000, 'recorded as sent')

    it('a stalled gateway holds no API answer; its texts go once it answers again', async () => {
      const people = [await textedRequester(), await textedRequester()]
      smpp.delayMs = 60_000
      try {
        // Approvals, and the reads around them, answer while every submit waits on the gateway.
        for (const { account } of people) await approvedRequest(t, account, moderator)
        assertStatus(await t.get('/users/me', people[0]!.account.token), 200)
        await until(async () => smpp.counts.submitSm >= 1 ? true : undefined, 10_000, 'a submit under way')
        assert.deepEqual(people.map(({ e164 }) => textsTo(smpp, e164).length), [1, 1], 'only the phone codes went')
      } finally {
        smpp.delayMs = 0
      }
      for (const { account, e164 } of people) {
        await sentOnceBack(account)
        assert.match((await nextTextTo(smpp, e164, 1)).text, /is published/)
      }
    })

    it('a gateway that vanishes and refuses binds for a while: texts wait, then go, each once', async () => {
      const person = await textedRequester()
      smpp.refuseBinds = true
      smpp.vanish()
      try {
        await until(async () => smpp.binds.some((bind) => !bind.accepted) ? true : undefined, 10_000, 'a refused bind')
        await approvedRequest(t, person.account, moderator)
        assertStatus(await t.get('/users/me', person.account.token), 200)
        await until(async () => (await deliveriesOf(t, person.account.id)).some((row) => row.channel === 'sms' && row.account_message === null && row.attempts > 0) ? true : undefined, 10_000, 'tried')
        assert.equal(textsTo(smpp, person.e164).length, 1, 'only the phone code')
      } finally {
        smpp.refuseBinds = false
      }
      await until(async () => smpp.boundSessions() > 0 ? true : undefined, 20_000, 'bound again')
      await sentOnceBack(person.account)
      assert.match((await nextTextTo(smpp, person.e164, 1)).text, /is published/)
      assert.equal(textsTo(smpp, person.e164).length, 2)
    })

    it('two instances bound at once send each text once', { skip: engine !== 'postgres' && 'two instances need PostgreSQL' }, async () => {
      const second = await startSecondInstance(t, { smsSmppUrl: smpp.url, smsFrom: '+4915199999999' }, { clock, deliveryTickMs: 25 })
      try {
        await second.app.ready()
        await until(async () => smpp.boundSessions() === 2 ? true : undefined, 10_000, 'both instances bound')
        const people = await Promise.all(Array.from({ length: 6 }, async () => await textedRequester()))
        await Promise.all(people.map(async ({ account }) => await approvedRequest(t, account, moderator)))
        for (const { account, e164 } of people) {
          await nextTextTo(smpp, e164, 1)
          await until(async () => (await smsStatus(account)).includes('sent') ? true : undefined, 20_000, 'recorded as sent')
        }
        // Long enough for a second send to have happened, had a row been claimed twice.
        await new Promise((resolve) => setTimeout(resolve, 300))
        assert.deepEqual(people.map(({ e164 }) => textsTo(smpp, e164).length), Array(6).fill(2), 'a code and one text each')
      } finally {
        await second.close()
      }
    })
  })
}

// The embedded engine's process writes off its dead predecessor's leases at start (docs/api/messaging.md › Deliveries and
// e-mail); a server's leases end after 15 s, which deliveries-takeover.test.ts shows with a moved clock.
describe('a process killed between a text\'s submit and its record (pglite)', () => {
  let env: Record<string, string>
  let drop: () => Promise<void>
  let smpp: SmppTestServer
  before(async () => {
    smpp = await startSmppServer()
    ;({ env, drop } = await serviceEnvironment('pglite', 'vcs-sms-kill-', { SMS_SMPP_URL: smpp.url, SMS_FROM: '+4915199999999', LOG_LEVEL: 'warn' }))
  })
  after(async () => {
    await smpp.close()
    await drop()
  })

  it('sends it at most once more after kill -9, with the same code, which still confirms the phone', async () => {
    const first = await startService(env)
    const e164 = uniqueMobile()
    let token: string
    try {
      const registered = await json(first.base, 'POST', '/auth/register', { email: uniqueEmail(), password: 'long enough', first_name: 'A', last_name: 'B' })
      assert.equal(registered.status, 201)
      token = registered.body.access_token as string
      assert.equal((await json(first.base, 'PATCH', '/users/me', { phone: e164 }, token)).status, 200)
      // The gateway has the text and acknowledges it, but the process dies before it can write that down.
      smpp.onSubmit = () => { first.child.kill('SIGKILL') }
      assert.equal((await json(first.base, 'POST', '/users/me/phone/verify', {}, token)).status, 202)
      await first.exited
    } finally {
      smpp.onSubmit = undefined
      first.child.kill('SIGKILL')
      await first.exited
    }
    assert.equal(textsTo(smpp, e164).length, 1)
    const again = await startService(env)
    try {
      const repeat = await nextTextTo(smpp, e164, 1)
      assert.equal(repeat.text, textsTo(smpp, e164)[0]!.text, 'the same text, the same code')
      const code = /\b(\d{6})\b/.exec(repeat.text)![1]
      const confirmed = await json(again.base, 'POST', '/users/me/phone/verify/confirm', { code }, token)
      assert.equal(confirmed.status, 200)
      // Nothing more goes out for it.
      await new Promise((resolve) => setTimeout(resolve, 1500))
      assert.equal(textsTo(smpp, e164).length, 2)
    } finally {
      again.child.kill('SIGTERM')
      await again.exited
    }
  })
})
