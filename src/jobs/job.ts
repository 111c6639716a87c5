/**
 * A background job of the service (alert rounds, retention, deliveries, the schedule's
 * reminders). Every instance runs every job; what must happen once across instances is claimed inside
 * `run` (claim.ts: an advisory lock for a whole job, SKIP LOCKED for rows).
 */
export interface Job {
  readonly name: string
  /** Time from the end of one run to the start of the next; the first run starts when the runner does. */
  readonly intervalMs: number
  /**
   * One run. Resolves 'more' when work is left that is due now (a full batch): the next run starts at
   * once instead of after the interval. `stopping()` turns true on shutdown, so a long run can end early.
   */
  run(stopping: () => boolean): Promise<'more' | undefined>
}

export interface JobErrorLog {
  error(fields: Record<string, unknown>, message: string): void
}
