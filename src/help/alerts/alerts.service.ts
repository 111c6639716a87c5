import type { AlertSettings } from '../../config.js'
import type { Job } from '../../jobs/job.js'
import { batchJob } from '../../jobs/steps.js'
import { dateIn, type CheckKind } from '../../lib/checks.js'
import { systemClock, type Clock } from '../../lib/clock.js'
import type { GridPoint } from '../../lib/grid.js'
import type { Transaction } from '../../db/database.js'
import type { Change, Changes } from '../../events/dispatcher.js'
import { closeAlertsOf, requestAlert, type CloseReason } from './alerts.reactions.js'
import { FailedClaims } from './failed-claims.js'
import * as alerts from './alerts.repo.js'

/** What a request's status means for the alerts still open when a round finds it no longer approved. */
function reasonFor (status: string): CloseReason {
  if (status === 'in_progress') return 'assigned'
  if (status === 'cancelled') return 'cancelled'
  return 'closed'
}

/** How long a request whose round failed is passed over, so one failing round cannot hold up the rest. */
const FAILED_ROUND_BACKOFF_MS = 60_000

export interface RoundOutcome {
  requestId: number
  round: number
  /** Volunteers alerted, in the order of choice. */
  alerted: alerts.Alerted[]
}

/**
 * Runs alert rounds that are due (docs/alerts.md), each in one transaction with its claim: the
 * round's alerts and notifications, and its next due time or its end, commit together or not at all.
 * `clock` gives the time rounds run at: what is due, the next due times and the daily caps.
 */
export class AlertService {
  private readonly failed = new FailedClaims(FAILED_ROUND_BACKOFF_MS)

  constructor (
    /** The rounds' transactions, with their notifications and reactions (src/events/dispatcher.ts). */
    private readonly changes: Changes,
    private readonly settings: AlertSettings,
    private readonly clock: Clock = systemClock,
    private readonly order: alerts.AlertPolicy = 'fair',
    /** Where a request stands for alerting: its exact point, or its grid point under LOCATION_PRIVACY=grid (docs/privacy.md › `LOCATION_PRIVACY=grid`). */
    private readonly placeOf: (latitude: number, longitude: number) => GridPoint = (latitude, longitude) => ({ latitude, longitude }),
    /** VOLUNTEER_CHECKS and TIME_ZONE (docs/api/accounts.md › Checks that vet volunteers): only volunteers holding these checks, valid on the round's day, are alerted. */
    private readonly checks: { required: readonly CheckKind[], timeZone: string } = { required: [], timeZone: 'UTC' }
  ) {}

  /** Runs due rounds until none is left or `limit` have run; how many ran. */
  async runDue (limit = 100, stopped: () => boolean = () => false): Promise<number> {
    let ran = 0
    while (ran < limit && !stopped()) {
      if (await this.runOne() === undefined) break
      ran++
    }
    return ran
  }

  /** Claims and runs the round due first; undefined when none is due (or every due one is busy). */
  async runOne (): Promise<RoundOutcome | undefined> {
    const at = this.clock.now()
    return await this.failed.run(at.getTime(), async (failing, claimed) => await this.changes.run(null, async (tx, change) => {
      const due = await alerts.claimDueRound(tx, at, failing())
      if (due === undefined) return undefined
      claimed(due.request_id)
      return await this.run(tx, change, due, at)
    }))
  }

  private async run (tx: Transaction, change: Change, due: alerts.DueRound, at: Date): Promise<RoundOutcome> {
    const id = due.request_id
    const outcome: RoundOutcome = { requestId: id, round: due.round, alerted: [] }
    if (due.status !== 'approved') {
      // The changes that leave approved close the alerts themselves; this is a safety net for any that does not.
      await alerts.endRounds(tx, id)
      change.notify(...await closeAlertsOf(tx, id, reasonFor(due.status), at))
      return outcome
    }
    const interval = this.settings.roundSeconds[due.urgent ? 'urgent' : due.urgency]
    // Enough offers: this round waits an interval, uncounted, and runs then if offers were turned down meanwhile.
    if (await alerts.countPendingOffers(tx, id) >= this.settings.stopAfterOffers) {
      await alerts.scheduleRound(tx, id, due.round, interval, at)
      return outcome
    }
    outcome.alerted = await alerts.alertVolunteers(tx, {
      requestId: id,
      round: due.round,
      requesterId: due.requester_id,
      requestTypeId: due.request_type_id,
      ...this.placeOf(due.latitude, due.longitude),
      batch: this.settings.batch,
      ringMeters: this.settings.ringMeters,
      at,
      order: this.order,
      ...(this.checks.required.length > 0 ? { checks: { required: this.checks.required, today: dateIn(at, this.checks.timeZone) } } : {}),
      needs: { needs: due.needs, languages: due.languages, today: dateIn(at, this.checks.timeZone) },
    })
    change.record({ type: 'alert_round_ran', requestId: id, round: due.round, alertedIds: outcome.alerted.map((volunteer) => Number(volunteer.volunteer_id)), at })
    // A round that finds nobody still counts, and the rounds go on (docs/api/help.md › Catch-up alerts): volunteers may come on duty meanwhile.
    if (due.round >= this.settings.maxRounds) await alerts.endRounds(tx, id)
    else await alerts.scheduleRound(tx, id, due.round + 1, interval, at)
    change.notify(...outcome.alerted.map((volunteer) => requestAlert(Number(volunteer.volunteer_id), id, due, volunteer.meters, due.round)))
    return outcome
  }
}

/** Most rounds per run of the job: a full run means more may be due, and the next run starts at once. */
const ROUNDS_PER_RUN = 100

/**
 * The alert rounds job for the runner (src/jobs/): looks for due rounds every `intervalMs`, and at once
 * when started, so rounds that fell due while no process ran are run on start-up. Every instance runs
 * it; the claim (SKIP LOCKED, alerts.repo.ts claimDueRound) decides which runs a round.
 */
export function alertRoundsJob (service: AlertService, intervalMs: number): Job {
  return batchJob('alert rounds', intervalMs, ROUNDS_PER_RUN, async (stopping) => await service.runDue(ROUNDS_PER_RUN, stopping))
}
