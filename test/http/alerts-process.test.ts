import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { uniqueEmail } from '../helpers/app.js'
import { eventually } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'
import { requestInput } from '../helpers/requests.js'
import { json, serviceEnvironment, startService } from '../helpers/service.js'

const ADMIN = { email: 'alerts.admin@example.org', password: 'admin password 123' }
/** Round 2 of an urgent request comes 4 s after round 1: time enough to kill the process in between. */
const ROUND_SECONDS = 4
/** The service's settings: an admin to sign in as, one volunteer alerted a round, urgent rounds ROUND_SECONDS apart. */
const SETTINGS = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ALERT_BATCH: '1', ALERT_ROUND_SECONDS: `urgent=${ROUND_SECONDS}` }

for (const engine of engines()) {
  describe(`alert rounds across a kill -9 (${engine})`, () => {
    let env: Record<string, string>
    let drop: () => Promise<void>
    before(async () => { ({ env, drop } = await serviceEnvironment(engine, 'vcs-alerts-', SETTINGS)) })
    after(() => drop())

    it('runs a round that fell due while the process was dead once it is back', async () => {
      const first = await startService(env)
      const base = first.base
      const login = await json(base, 'POST', '/auth/login', ADMIN)
      assert.equal(login.status, 200)
      const admin = login.body.access_token as string
      const account = async () => {
        const res = await json(base, 'POST', '/auth/register', { email: uniqueEmail(), password: 'long enough', first_name: 'A', last_name: 'B' })
        assert.equal(res.status, 201)
        return res.body.access_token as string
      }
      const [requester, nearer, farther] = [await account(), await account(), await account()]
      for (const [token, latitude] of [[nearer, 52.521], [farther, 52.522]] as const) {
        const res = await json(base, 'PUT', '/users/me/availability', { on_duty: true, latitude, longitude: 13.405 }, token)
        assert.equal(res.status, 200)
      }
      const created = await json(base, 'POST', '/requests', requestInput({ latitude: 52.52, longitude: 13.405, urgency: 'urgent' }), requester)
      assert.equal(created.status, 201)
      const requestId = created.body.id as number
      assert.equal((await json(base, 'POST', `/moderation/requests/${requestId}/approve`, {}, admin)).status, 200)
      const alertOf = async (serviceBase: string, token: string) => {
        const res = await json(serviceBase, 'GET', '/notifications', undefined, token)
        return (res.body as Array<{ type: string, request_id: number, data: { round: number }, created_at: string }>)
          .find((n) => n.type === 'request_alert' && n.request_id === requestId)
      }
      // Round 1 (batch 1) alerts the nearer volunteer; round 2 is due ROUND_SECONDS later.
      const firstAlert = await eventually(() => alertOf(base, nearer))
      first.child.kill('SIGKILL')
      assert.equal(await first.exited, 'SIGKILL')
      const killedAt = Date.now()
      assert.ok(killedAt < Date.parse(firstAlert.created_at) + ROUND_SECONDS * 1000, 'killed before round 2 was due')
      // Round 2 falls due while no process runs.
      await new Promise((resolve) => setTimeout(resolve, Date.parse(firstAlert.created_at) + ROUND_SECONDS * 1000 + 500 - Date.now()))

      const restartedAt = Date.now()
      const second = await startService(env)
      try {
        const secondAlert = await eventually(() => alertOf(second.base, farther))
        assert.equal(secondAlert.data.round, 2)
        assert.ok(Date.parse(secondAlert.created_at) >= restartedAt - 1000, 'round 2 ran after the restart, not before the kill')
        assert.equal(firstAlert.data.round, 1)
      } finally {
        second.child.kill('SIGTERM')
        assert.equal(await second.exited, 0)
      }
    })
  })
}
