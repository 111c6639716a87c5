import assert from 'node:assert/strict'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import webpush from 'web-push'
import { hostAllowed } from '../../src/lib/push-endpoints.js'
import { pushOffReason, resolveVapid, vapidSubject } from '../../src/lib/vapid.js'

/** docs/api/messaging.md › Deliveries and e-mail: the service's Web Push identity, configured or generated on the embedded engine. */
describe('resolveVapid', () => {
  let dir: string
  const base = () => ({ dataDir: dir, mailFrom: 'Neighbourly help <help@example.org>' })
  before(async () => { dir = await mkdtemp(join(tmpdir(), 'vcs-vapid-')) })
  after(() => rm(dir, { recursive: true, force: true }))

  it('uses VAPID_* when set, and writes nothing', async () => {
    const configured = { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@example.org' }
    assert.deepEqual(await resolveVapid({ ...base(), vapid: configured, databaseUrl: 'postgres://x' }), configured)
    await assert.rejects(stat(join(dir, 'vapid.json')), { code: 'ENOENT' })
    assert.equal(pushOffReason({ ...base(), vapid: configured, databaseUrl: 'postgres://x' }), undefined)
  })

  it('with DATABASE_URL and no VAPID_*: push is off, and start-up says why', async () => {
    assert.equal(await resolveVapid({ ...base(), databaseUrl: 'postgres://x' }), undefined)
    assert.match(pushOffReason({ ...base(), databaseUrl: 'postgres://x' }) ?? '', /Web Push is off: set VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT/)
    assert.equal(pushOffReason(base()), undefined)
  })

  it('on the embedded engine: a key pair generated once, owner-only, kept across starts', async () => {
    const first = await resolveVapid(base())
    assert.ok(first !== undefined)
    assert.match(first.publicKey, /^[A-Za-z0-9_-]{87}$/)
    assert.match(first.privateKey, /^[A-Za-z0-9_-]{43}$/)
    assert.equal(first.subject, 'mailto:help@example.org')
    assert.equal((await stat(join(dir, 'vapid.json'))).mode & 0o777, 0o600)
    assert.deepEqual(await resolveVapid(base()), first)
    // Two processes starting at once agree on one pair.
    const [a, b] = await Promise.all([resolveVapid({ ...base(), dataDir: join(dir) }), resolveVapid(base())])
    assert.deepEqual(a, b)
  })

  it('a damaged file, or a pair that does not match, stops start-up', async () => {
    const other = await mkdtemp(join(tmpdir(), 'vcs-vapid-'))
    try {
      const file = join(other, 'vapid.json')
      const one = webpush.generateVAPIDKeys()
      const two = webpush.generateVAPIDKeys()
      for (const text of ['', '{', '{"publicKey": 1}', JSON.stringify({ publicKey: one.publicKey, privateKey: two.privateKey }),
        JSON.stringify({ publicKey: one.publicKey.slice(1), privateKey: one.privateKey })]) {
        await writeFile(file, text)
        await assert.rejects(resolveVapid({ ...base(), dataDir: other }), /does not hold a VAPID key pair; delete it/)
        assert.equal(await readFile(file, 'utf8'), text, 'never overwritten')
      }
      await writeFile(file, JSON.stringify(one))
      assert.equal((await resolveVapid({ ...base(), dataDir: other }))?.publicKey, one.publicKey)
    } finally {
      await rm(other, { recursive: true, force: true })
    }
  })
})

describe('vapidSubject', () => {
  it('MAIL_FROM\'s address; PUBLIC_URL when that address is a localhost one and the app is on https', () => {
    assert.equal(vapidSubject('Neighbourly help <help@example.org>', 'https://help.example.org'), 'mailto:help@example.org')
    assert.equal(vapidSubject('help@example.org', undefined), 'mailto:help@example.org')
    assert.equal(vapidSubject('Neighbourly help <no-reply@localhost>', 'https://help.example.org/app'), 'https://help.example.org')
    assert.equal(vapidSubject('Neighbourly help <no-reply@localhost>', 'http://127.0.0.1:3000'), 'mailto:no-reply@localhost')
  })
})

describe('hostAllowed (PUSH_ENDPOINT_HOSTS)', () => {
  const hosts = ['fcm.googleapis.com', '*.notify.windows.com']
  it('exact names, and `*.` for any subdomain (not the bare name)', () => {
    assert.equal(hostAllowed('fcm.googleapis.com', hosts), true)
    assert.equal(hostAllowed('FCM.googleapis.com', hosts), true)
    assert.equal(hostAllowed('x.fcm.googleapis.com', hosts), false)
    assert.equal(hostAllowed('wns2-db5p.notify.windows.com', hosts), true)
    assert.equal(hostAllowed('notify.windows.com', hosts), false)
    assert.equal(hostAllowed('evilnotify.windows.com', hosts), false)
    assert.equal(hostAllowed('fcm.googleapis.com.evil.org', hosts), false)
  })
})
