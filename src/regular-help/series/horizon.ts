import type { Changes } from '../../events/dispatcher.js'
import type { Job, JobErrorLog } from '../../jobs/job.js'
import { createOccurrences, horizonEnd, type OccurrenceSettings } from './occurrences.js'
import * as series from './series.repo.js'

/**
 * docs/api/schedule.md › Series: keeps every active series' occurrences created SERIES_HORIZON_DAYS ahead. Once across
 * instances and restarts: one transaction per series, which claims its row FOR NO KEY UPDATE SKIP LOCKED
 * (another instance takes another series) and stores how far it got (created_until) with the occurrences
 * it created; the unique index requests_one_occurrence makes any rerun create nothing twice. A run killed
 * mid-series rolls that series back, and the next run does it again.
 */
export class HorizonJob {
  constructor (
    private readonly changes: Changes,
    private readonly settings: OccurrenceSettings,
    private readonly log: JobErrorLog
  ) {}

  /** One run: every due series, one transaction each, until none is left or `stopping()`; how many occurrences it created. */
  async runOnce (stopping: () => boolean = () => false): Promise<number> {
    let created = 0
    // A series that failed is left for the next run, so one bad series never holds up the others.
    const failed: number[] = []
    while (!stopping()) {
      let claimed: number | undefined
      try {
        const done = await this.changes.run(null, async (tx, change) => {
          const row = await series.claimDueSeries(tx, horizonEnd(change.at, this.settings.horizonDays), failed)
          claimed = row?.id
          return row === undefined ? undefined : await createOccurrences(tx, change, row, this.settings)
        })
        if (done === undefined) break
        created += done
      } catch (error) {
        // Nothing claimed: the database itself failed, and the runner logs it.
        if (claimed === undefined) throw error
        failed.push(claimed)
        this.log.error({ err: error, series: claimed }, 'series horizon: a series failed; the next run tries it again')
      }
    }
    return created
  }
}

/** The horizon job for the runner (src/jobs/): at start-up, then every `intervalMs`. */
export function horizonJob (job: HorizonJob, intervalMs: number): Job {
  return {
    name: 'series horizon',
    intervalMs,
    async run (stopping) {
      await job.runOnce(stopping)
      return undefined
    },
  }
}
