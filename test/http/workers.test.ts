import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { after, before, describe, it } from 'node:test'
import { TEST_SECRET, uniqueEmail } from '../helpers/app.js'
import { scratchDatabase, type ScratchDatabase } from '../helpers/databases.js'
import { engines } from '../helpers/engines.js'
import { json, startService, type RunningService } from '../helpers/service.js'

/** The pids of the processes that answered, from the service's request log lines (pino logs each one's pid). */
function answeringPids (log: string): Set<number> {
  const pids = new Set<number>()
  for (const line of log.split('\n')) {
    if (!line.startsWith('{')) continue
    const entry = JSON.parse(line) as { pid?: number, msg?: string }
    if (entry.msg === 'request completed' && entry.pid !== undefined) pids.add(entry.pid)
  }
  return pids
}

/** The worker processes of a cluster primary (tsx's esbuild helper is a child too, so filter by command line). */
async function workersOf (pid: number): Promise<number[]> {
  const children = (await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8')).split(/\s+/).filter(Boolean).map(Number)
  const commands = await Promise.all(children.map((child) => readFile(`/proc/${child}/cmdline`, 'utf8').catch(() => '')))
  return children.filter((_, i) => commands[i]?.includes('src/main.ts'))
}

async function startCluster (env: Record<string, string>): Promise<RunningService & { log(): string }> {
  const service = await startService({ ...env, WORKERS: '2', LOG_LEVEL: 'info' })
  let log = ''
  service.child.stdout?.on('data', (chunk: Buffer) => { log += chunk.toString() })
  return { ...service, log: () => log }
}

for (const engine of engines()) {
  if (engine === 'pglite') {
    describe('WORKERS with the embedded database (pglite)', () => {
      it('is refused at start-up with a clear message', async () => {
        const service = startService({ DATA_DIR: '/nonexistent/never-created', WORKERS: '2' })
        await assert.rejects(service, /configuration error: WORKERS needs DATABASE_URL: the embedded database can be opened by one process only/)
      })
    })
    continue
  }

  describe(`WORKERS=2 (${engine})`, () => {
    let scratch: ScratchDatabase
    let env: Record<string, string>
    before(async () => {
      scratch = await scratchDatabase('postgres')
      env = { DATABASE_URL: scratch.url as string, JWT_SECRET: TEST_SECRET }
    })
    after(() => scratch.drop())

    it('runs two worker processes on one port, both answering; SIGTERM finishes their requests and exits 0', async () => {
      const service = await startCluster(env)
      try {
        assert.equal((await workersOf(service.child.pid as number)).length, 2)
        // Parallel requests open several connections, which the primary hands to the workers in turn.
        const answers = await Promise.all(Array.from({ length: 20 }, () => json(service.base, 'GET', '/request-types')))
        assert.deepEqual(answers.map((res) => res.status), Array(20).fill(200))
        await new Promise((resolve) => setTimeout(resolve, 200))
        assert.equal(answeringPids(service.log()).size, 2, 'both workers answered')

        // Registration hashes with the production scrypt cost, so these are under way when the signal comes.
        const inFlight = Array.from({ length: 6 }, () =>
          json(service.base, 'POST', '/auth/register', { email: uniqueEmail(), password: 'long enough', first_name: 'A', last_name: 'B' }))
        await new Promise((resolve) => setTimeout(resolve, 250))
        service.child.kill('SIGTERM')
        assert.deepEqual((await Promise.all(inFlight)).map((res) => res.status), Array(6).fill(201))
        assert.equal(await service.exited, 0)
        await assert.rejects(fetch(`${service.base}/health`), 'no longer accepts connections')
      } finally {
        service.child.kill('SIGKILL')
      }
    })

    it('replaces a worker that dies, and keeps answering', async () => {
      const service = await startCluster(env)
      try {
        const [victim] = await workersOf(service.child.pid as number)
        process.kill(victim as number, 'SIGKILL')
        let workers: number[] = []
        for (let i = 0; i < 100; i++) {
          workers = await workersOf(service.child.pid as number)
          if (workers.length === 2 && !workers.includes(victim as number)) break
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
        assert.equal(workers.length, 2)
        assert.ok(!workers.includes(victim as number), 'a new worker replaced the dead one')
        assert.match(service.stderr(), /died \(SIGKILL\); starting another/)
        const answers = await Promise.all(Array.from({ length: 10 }, () => json(service.base, 'GET', '/request-types')))
        assert.deepEqual(answers.map((res) => res.status), Array(10).fill(200))
        service.child.kill('SIGTERM')
        assert.equal(await service.exited, 0)
      } finally {
        service.child.kill('SIGKILL')
      }
    })
  })
}
