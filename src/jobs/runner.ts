import type { Job, JobErrorLog } from './job.js'

/**
 * The one place that starts and stops the background jobs: each job runs when started, then again
 * `intervalMs` after each run ends (so a run is never doubled), and stop() waits for the runs under way,
 * so the database can be closed after it. A failed run is logged, and the job runs again at its interval.
 */
export class JobRunner {
  readonly #timers = new Map<string, NodeJS.Timeout>()
  readonly #running = new Set<Promise<void>>()
  #started = false
  #stopped = false

  constructor (private readonly jobs: readonly Job[], private readonly log: JobErrorLog) {}

  /** Starts a first run of every job now (a stop() right after waits for them). */
  start (): void {
    if (this.#started) return
    this.#started = true
    for (const job of this.jobs) this.#runNow(job)
  }

  /** Stops every job and waits for the runs under way. */
  async stop (): Promise<void> {
    this.#stopped = true
    for (const timer of this.#timers.values()) clearTimeout(timer)
    this.#timers.clear()
    await Promise.all(this.#running)
  }

  #schedule (job: Job, ms: number): void {
    if (this.#stopped) return
    // unref: a pending run never keeps the process alive.
    this.#timers.set(job.name, setTimeout(() => {
      this.#timers.delete(job.name)
      this.#runNow(job)
    }, ms).unref())
  }

  #runNow (job: Job): void {
    const run = this.#run(job).finally(() => this.#running.delete(run))
    this.#running.add(run)
  }

  async #run (job: Job): Promise<void> {
    let next = job.intervalMs
    try {
      if (await job.run(() => this.#stopped) === 'more') next = 0
    } catch (error) {
      this.log.error({ err: error, job: job.name }, `${job.name}: run failed; the next run continues where it stopped`)
    }
    this.#schedule(job, next)
  }
}
