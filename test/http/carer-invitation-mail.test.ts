import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, uniqueEmail, type Account, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { ManualClock } from '../helpers/clock.js'
import { until } from '../helpers/deliveries.js'
import { engines } from '../helpers/engines.js'
import { startSmtp, type TestSmtp } from '../helpers/smtp.js'

/**
 * Carers' invitations reach the invited person (docs/api.md › Carers), through a real SMTP server: an address
 * without an account gets an e-mail in the inviter's language naming the inviter and what they allow, with a link
 * to the app's invitation page, and never the inviter's address, phone or e-mail address; an account gets its
 * notification and, by its settings, an e-mail in its own language linking to "People I help"; nobody is
 * written twice for one invitation; a refused invitation writes nothing; the inviter's deliveries do not list it.
 */

const PUBLIC_URL = 'https://help.example.org'
const PHONE = '+4930123456789'
const HOME = 'Lindenstraße 12'

for (const engine of engines()) {
  describe(`carers' invitations by e-mail (${engine})`, () => {
    let t: TestApp
    let smtp: TestSmtp
    const clock = new ManualClock()

    before(async () => {
      smtp = await startSmtp()
      t = await startApp(engine, { smtpUrl: smtp.url, publicUrl: PUBLIC_URL }, { clock, deliveryTickMs: 25 })
    })
    after(async () => {
      await t.close()
      await smtp.close()
    })

    /** Rosa Müller, in `locale`, with a phone and a home address in her profile. */
    async function rosa (locale: 'en' | 'de'): Promise<Account> {
      const owner = await t.register({ first_name: 'Rosa', last_name: 'Müller' })
      assertStatus(await t.patch('/users/me', { locale, phone: PHONE, address: HOME, city: 'Berlin' }, owner.token), 200)
      return owner
    }
    const invite = (owner: Account, email: string, can: string[]) => t.post('/users/me/trusted-people', { email, can }, owner.token)
    const rowsFor = (invitationId: number) => t.db.query<{ status: string }>('SELECT status FROM deliveries WHERE invitation_id = $1', [invitationId])

    for (const [locale, words] of [
      ['de', { subject: 'Rosa Müller bittet Sie um Ihre Hilfe bei den eigenen Anfragen', can: ['• die Anfragen der Person und die Nachrichten dazu sehen', '• für die Person um Hilfe bitten', '• für die Person eine Anfrage absagen'], link: 'Einladung öffnen' }],
      ['en', { subject: 'Rosa Müller asks you to help them with their requests for help', can: ['• see their requests and the messages about them', '• ask for help for them', '• cancel a request for them'], link: 'Open the invitation' }],
    ] as const) {
      it(`an address without an account is e-mailed in the inviter's language (${locale}), once, without her contact data`, async () => {
        const owner = await rosa(locale)
        const address = uniqueEmail('sabine')
        const made = await invite(owner, address, ['create', 'cancel'])
        assertStatus(made, 201)
        const mail = await smtp.nextTo(address)
        assert.equal(mail.subject, words.subject)
        for (const line of words.can) assert.ok(mail.text.includes(line), `"${line}" in the e-mail`)
        assert.ok(mail.text.includes('help.example.org'), 'the service named by its address')
        assert.ok(mail.text.includes(`${words.link}: ${PUBLIC_URL}/invitation\n`), 'the link to the invitation page')
        assert.match(mail.html, new RegExp(`<a href="${PUBLIC_URL}/invitation">${words.link}</a>`))
        assert.equal(mail.header('list-unsubscribe'), undefined, 'no unsubscribe: the address has no account to change')
        for (const secret of [PHONE, HOME, owner.email]) assert.ok(!mail.raw.includes(secret), `no ${secret} in the e-mail`)
        await until(async () => (await rowsFor(made.body.id)).every((row) => row.status === 'sent') || undefined)

        // Invited again (another `can`): the same invitation, nobody written twice; the inviter's list of her own deliveries leaves it out.
        assertStatus(await invite(owner, address, ['create']), 201)
        assert.equal((await rowsFor(made.body.id)).length, 1)
        assert.deepEqual((await t.get('/users/me/deliveries', owner.token)).body, [])
        assert.equal(smtp.countTo(address), 1)

        // Registered with that address, she finds the invitation waiting.
        const sabine = await t.register({ email: address, first_name: 'Sabine', last_name: 'Müller' })
        assert.deepEqual((await t.get('/users/me/acting-for', sabine.token)).body.map((item: { id: number, status: string }) => [item.id, item.status]), [[made.body.id, 'invited']])
      })
    }

    it('an account is notified and e-mailed in its own language with a link to "People I help"; not e-mailed when switched off', async () => {
      const owner = await rosa('en')
      const sabine = await t.register({ first_name: 'Sabine', last_name: 'Kind' })
      assertStatus(await t.patch('/users/me', { locale: 'de' }, sabine.token), 200)
      const made = await invite(owner, sabine.email, [])
      assertStatus(made, 201)
      const mail = await smtp.nextTo(sabine.email)
      assert.equal(mail.subject, 'Rosa Müller bittet Sie um Ihre Hilfe bei den eigenen Anfragen')
      assert.ok(mail.text.includes(`Einladung öffnen: ${PUBLIC_URL}/people-i-help\n`))
      for (const secret of [PHONE, HOME, owner.email]) assert.ok(!mail.raw.includes(secret), `no ${secret} in the e-mail`)
      const notices = (await t.get('/notifications', sabine.token)).body as Array<{ type: string, data: Record<string, unknown> }>
      assert.deepEqual(notices.filter((n) => n.type === 'trust_invitation').map((n) => n.data), [{ invitation_id: made.body.id, from_name: 'Rosa Müller' }])
      assert.equal((await rowsFor(made.body.id)).length, 0, 'an account is told by its notification, not by an invitation e-mail')

      // With invitations taken out of her e-mail types: the notification only.
      const quiet = await t.register()
      const settings = (await t.get('/users/me/notification-settings', quiet.token)).body as { email: { types: string[] } }
      assert.ok(settings.email.types.includes('trust_invitation'), 'on by default')
      assertStatus(await t.request('PUT', '/users/me/notification-settings', { body: { email: { types: settings.email.types.filter((type) => type !== 'trust_invitation') } }, token: quiet.token }), 200)
      assertStatus(await invite(owner, quiet.email, []), 201)
      const rows = await t.db.query<{ channel: string }>(`SELECT d.channel FROM deliveries d JOIN notifications n ON n.id = d.notification_id
        WHERE d.user_id = $1 AND n.type = 'trust_invitation'`, [quiet.id])
      assert.deepEqual(rows, [])
      assert.equal(((await t.get('/notifications', quiet.token)).body as Array<{ type: string }>).filter((n) => n.type === 'trust_invitation').length, 1)
    })

    it('a refused invitation writes no e-mail; a revoked one takes its unsent e-mail with it', async () => {
      const owner = await rosa('en')
      const before = (await t.db.query<{ count: number }>('SELECT count(*)::int AS count FROM deliveries WHERE invitation_id IS NOT NULL'))[0]!.count
      assertError(await invite(owner, owner.email, []), 400, 'cannot invite yourself')
      assertError(await invite(owner, uniqueEmail('x'), ['nope']), 400, 'invalid can')
      const after = (await t.db.query<{ count: number }>('SELECT count(*)::int AS count FROM deliveries WHERE invitation_id IS NOT NULL'))[0]!.count
      assert.equal(after, before)

      // Held at the server: revoked while unsent, the row goes with the invitation, and nothing more is tried.
      const address = uniqueEmail('revoked')
      smtp.refuse(451)
      const made = await invite(owner, address, [])
      await until(async () => (await t.db.query<{ attempts: number }>('SELECT attempts FROM deliveries WHERE invitation_id = $1', [made.body.id]))[0]?.attempts === 1 || undefined)
      assertStatus(await t.delete(`/users/me/trusted-people/${made.body.id}`, owner.token), 204)
      assert.deepEqual(await rowsFor(made.body.id), [])
      smtp.refuse(false)
      assert.equal(smtp.countTo(address), 0)
    })
  })
}
