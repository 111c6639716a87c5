import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { uniqueEmail } from '../helpers/app.js'
import { engines } from '../helpers/engines.js'
import { json, machineTimeoutMs, serviceEnvironment, startService } from '../helpers/service.js'

const newRequest = (title: string) => ({
  request_type_id: 1,
  title,
  description: 'Written while the process may be killed',
  latitude: 52.52,
  longitude: 13.405,
  address: 'Alexanderplatz 1',
  urgency: 'medium',
})

/** The service's own count of requests under way, this /metrics call included. */
async function requestsInFlight (base: string): Promise<number> {
  const text = await (await fetch(base.replace(/\/api\/v1$/, '/metrics'))).text()
  return Number(/^http_requests_in_flight (\d+)$/m.exec(text)?.[1] ?? 0)
}

for (const engine of engines()) {
  describe(`the service process (${engine})`, () => {
    let env: Record<string, string>
    let drop: () => Promise<void>
    before(async () => { ({ env, drop } = await serviceEnvironment(engine, 'vcs-process-')) })
    after(() => drop())

    async function register (base: string): Promise<string> {
      const res = await json(base, 'POST', '/auth/register', { email: uniqueEmail(), password: 'long enough', first_name: 'A', last_name: 'B' })
      assert.equal(res.status, 201)
      return res.body.access_token as string
    }

    it('on SIGTERM finishes the requests under way, then exits 0', async () => {
      const service = await startService(env)
      // Registration hashes with the production scrypt cost, so these are still running when the signal comes.
      const registrations = Array.from({ length: 12 }, () =>
        json(service.base, 'POST', '/auth/register', { email: uniqueEmail(), password: 'long enough', first_name: 'A', last_name: 'B' }))
      try {
        // The signal must find all twelve under way (received, not yet answered), however busy the machine.
        while (await requestsInFlight(service.base) < 12 + 1) await new Promise((resolve) => setTimeout(resolve, 20))
        service.child.kill('SIGTERM')
        const results = await Promise.all(registrations)
        assert.deepEqual(results.map((res) => res.status), Array(12).fill(201))
        assert.equal(await service.exited, 0)
        await assert.rejects(fetch(`${service.base}/health`), 'no longer accepts connections')
      } finally {
        // The next test opens the same data folder, which only one process may hold.
        service.child.kill('SIGKILL')
        await service.exited
      }
    })

    it('after kill -9 under concurrent writes, every acknowledged write is there', async () => {
      const first = await startService(env)
      const token = await register(first.base)
      const acknowledged = new Map<number, string>()
      const load = { running: true }
      const writer = async (worker: number) => {
        for (let i = 0; load.running; i++) {
          const title = `write ${worker}-${i}`
          try {
            const res = await json(first.base, 'POST', '/requests', newRequest(title), token)
            if (res.status === 201) acknowledged.set(res.body.id as number, title)
          } catch {
            return // the connection died with the process
          }
        }
      }
      const writers = Array.from({ length: 8 }, (_, worker) => writer(worker))
      while (acknowledged.size < 40) await new Promise((resolve) => setTimeout(resolve, 20))
      first.child.kill('SIGKILL')
      load.running = false
      await Promise.all(writers)
      assert.equal(await first.exited, 'SIGKILL')

      const second = await startService(env)
      try {
        // The same signing secret and the same data: the old token works, and every 201 is there.
        for (const [id, title] of acknowledged) {
          const res = await json(second.base, 'GET', `/requests/${id}`, undefined, token)
          assert.equal(res.status, 200, `request ${id} acknowledged before the kill is missing`)
          assert.equal(res.body.title, title)
        }
        // The database is usable, not merely readable.
        assert.equal((await json(second.base, 'POST', '/requests', newRequest('after the restart'), token)).status, 201)
      } finally {
        second.child.kill('SIGTERM')
        assert.equal(await second.exited, 0)
      }
    })
  })
}

describe('the README quick start: npm start', { timeout: machineTimeoutMs(180_000) }, () => {
  it('builds, serves /api/v1 on the embedded database in DATA_DIR, and stops with status 0 on SIGTERM', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'vcs-npm-start-'))
    try {
      const service = await startService({ DATA_DIR: dataDir, HOME: process.env.HOME ?? '/tmp' }, ['npm', 'start'])
      const health = await fetch(`${service.base}/health`)
      assert.equal(health.status, 200)
      assert.equal(await health.text(), 'ok')
      service.child.kill('SIGTERM')
      assert.equal(await service.exited, 0)
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})
