import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Job } from '../../src/jobs/job.js'
import { JobRunner } from '../../src/jobs/runner.js'
import { sleep } from '../helpers/assert.js'

const quietLog = { error: () => {} }

describe('JobRunner', () => {
  it('runs each job at start, again after its interval, and at once while it reports more', async () => {
    const runs: string[] = []
    let more = 2
    const jobs: Job[] = [
      { name: 'slow', intervalMs: 60_000, async run () { runs.push('slow'); return undefined } },
      { name: 'busy', intervalMs: 60_000, async run () { runs.push('busy'); return more-- > 0 ? 'more' : undefined } },
    ]
    const runner = new JobRunner(jobs, quietLog)
    runner.start()
    // Until the busy job has run its three times (however slow the machine), then a little longer for a fourth that must not come.
    while (runs.filter((name) => name === 'busy').length < 3) await sleep(5)
    await sleep(20)
    await runner.stop()
    assert.deepEqual(runs.filter((name) => name === 'slow'), ['slow'], 'once: the next run is a minute away')
    assert.equal(runs.filter((name) => name === 'busy').length, 3, 'twice more at once after reporting more')
  })

  it('stop() waits for the run under way and starts no other; a run sees stopping() turn true', async () => {
    let finished = false
    let sawStopping = false
    const runner = new JobRunner([{
      name: 'long',
      intervalMs: 1,
      async run (stopping) {
        await sleep(50)
        sawStopping = stopping()
        finished = true
        return 'more'
      },
    }], quietLog)
    runner.start()
    await runner.stop()
    assert.equal(finished, true)
    assert.equal(sawStopping, true)
  })

  it('logs a failed run with the job\'s name and runs the job again at its interval', async () => {
    const lines: string[] = []
    let runs = 0
    const runner = new JobRunner([{
      name: 'flaky',
      intervalMs: 10,
      async run () {
        runs += 1
        if (runs === 1) throw new Error('database away')
        return undefined
      },
    }], { error: (_fields, message) => lines.push(message) })
    runner.start()
    await sleep(100)
    await runner.stop()
    assert.deepEqual(lines, ['flaky: run failed; the next run continues where it stopped'])
    assert.ok(runs >= 2)
  })
})
