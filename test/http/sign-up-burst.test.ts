import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, uniqueEmail, type TestApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'

// A burst of sign-ups (docs/api/accounts.md › A burst of sign-ups): registrations that would wait longer
// than PASSWORD_QUEUE_SECONDS for a hashing thread are refused at once with 429 and Retry-After, and nothing
// of them is stored. The hash is dear enough (N=2^15) that a queue builds on a quiet machine as on a busy one.
const BURST = 200
const PASSWORD = 'correct horse battery staple'

for (const engine of engines()) {
  describe(`a burst of sign-ups (${engine})`, () => {
    let t: TestApp
    before(async () => { t = await startApp(engine, { scrypt: { N: 2 ** 15, r: 8, p: 1 }, passwordQueueSeconds: 1 }) })
    after(() => t.close())

    it('refuses what would wait too long with 429 and Retry-After, keeps what it took, and stays answering', async () => {
      const emails = Array.from({ length: BURST }, (_, i) => uniqueEmail(`burst${i}`))
      const body = (email: string) => ({ email, password: PASSWORD, first_name: 'Burst', last_name: 'Person' })
      const [answers, health] = await Promise.all([
        Promise.all(emails.map((email) => t.post('/auth/register', body(email)))),
        t.get('/health'),
      ])
      assert.equal(health.status, 200)
      const statuses = answers.map((res) => res.status)
      assert.deepEqual([...new Set(statuses)].sort(), [201, 429], `statuses: ${statuses.join(' ')}`)
      for (const res of answers.filter((answer) => answer.status === 429)) {
        assert.deepEqual(res.body, { error: 'too many requests, try again later' })
        assert.match(String(res.headers['retry-after']), /^[1-9]\d*$/)
      }

      // Accounts made can sign in; refused addresses were left untouched and can register now (ten of each).
      const taken = emails.filter((_, i) => answers[i]!.status === 201).slice(0, 10)
      const refused = emails.filter((_, i) => answers[i]!.status === 429).slice(0, 10)
      for (const email of [...taken, ...refused]) {
        if (taken.includes(email)) {
          assert.equal((await t.post('/auth/login', { email, password: PASSWORD })).status, 200, email)
        } else {
          assert.equal((await t.post('/auth/login', { email, password: PASSWORD })).status, 401, email)
          assert.equal((await t.post('/auth/register', body(email))).status, 201, email)
        }
      }
    })
  })
}
