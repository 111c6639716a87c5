import type { Transaction } from '../db/database.js'
import type { Change, Changes } from '../events/dispatcher.js'
import type { Job } from './job.js'

/**
 * One step of a job that works through due rows in batches (the schedule's reminders, the visit checks, checks
 * expiring): in one change on the app's clock, it claims up to a batch of due rows (SKIP LOCKED) and stamps them
 * with their notifications, so each row is handled once across instances; it resolves with how many it handled.
 */
export type BatchStep = (tx: Transaction, change: Change) => Promise<number>

/** Runs the steps in order, each in a change of its own by the service (actor null); the most rows one step handled. */
export async function runSteps (changes: Changes, steps: readonly BatchStep[]): Promise<number> {
  let most = 0
  for (const step of steps) most = Math.max(most, await changes.run(null, step))
  return most
}

/**
 * The runner's job (src/jobs/runner.ts) of a batched run: again at once when a step filled its batch, else after
 * `intervalMs`. `runOnce` gets the runner's `stopping`, for a run that can end early on shutdown.
 */
export function batchJob (name: string, intervalMs: number, batch: number, runOnce: (stopping: () => boolean) => Promise<number>): Job {
  return {
    name,
    intervalMs,
    async run (stopping) {
      return await runOnce(stopping) >= batch ? 'more' : undefined
    },
  }
}
