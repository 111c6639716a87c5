import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, uniqueEmail, type TestApp } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'

// A burst of sign-ups (docs/api/accounts.md › A burst of sign-ups): registrations that would wait longer
// than PASSWORD_QUEUE_SECONDS for a hashing thread are refused at once with 429 and Retry-After, and nothing
// of them is stored. The hash costs as much as a real one's first pass (N=2^14) so that a queue builds.
const BURST = 80
const PASSWORD = 'correct horse battery staple'

for (const engine of engines()) {
  describe(`a burst of sign-ups (${engine})`, () => {
    let t: TestApp
    before(async () => { t = await startApp(engine, { scrypt: { N: 2 ** 14, r: 8, p: 1 }, passwordQueueSeconds: 1 }) })
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

      // Every account made can sign in; every refused address was left untouched and can register now.
      for (const [i, email] of emails.entries()) {
        if (answers[i]!.status === 201) {
          assert.equal((await t.post('/auth/login', { email, password: PASSWORD })).status, 200, email)
        } else {
          assert.equal((await t.post('/auth/login', { email, password: PASSWORD })).status, 401, email)
          assert.equal((await t.post('/auth/register', body(email))).status, 201, email)
        }
      }
    })
  })
}
