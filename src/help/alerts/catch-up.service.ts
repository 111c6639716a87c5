import type { AlertSettings } from '../../config.js'
import type { Job } from '../../jobs/job.js'
import { batchJob } from '../../jobs/steps.js'
import { dateIn, type CheckKind } from '../../lib/checks.js'
import { systemClock, type Clock } from '../../lib/clock.js'
import { chordToMeters, earthPoint } from '../../lib/geo.js'
import type { GridPoint } from '../../lib/grid.js'
import type { Changes } from '../../events/dispatcher.js'
import { requestAlert } from './alerts.reactions.js'
import * as alerts from './alerts.repo.js'
import * as catchUps from './catch-up.repo.js'
import { FailedClaims } from './failed-claims.js'

/** Most urgent first (docs/api/help.md › Catch-up alerts). */
const URGENCY_RANK: Record<alerts.Urgency, number> = { urgent: 0, high: 1, medium: 2, low: 3 }

/** How long a volunteer whose catch-up failed is passed over, so one failing catch-up cannot hold up the rest. */
const FAILED_CATCH_UP_BACKOFF_MS = 60_000

/**
 * How far, at most, a request's place for alerting lies from its exact point: half the diagonal of the
 * largest MAP_GRID_METERS cell (5000 m) under LOCATION_PRIVACY=grid. Candidates are read this much beyond
 * the radius and then measured exactly from their place.
 */
const PLACE_SLACK_M = 3600

export interface CatchUpOutcome {
  volunteerId: number
  /** Requests the volunteer was alerted to, in the order of choice. */
  alerted: Array<{ requestId: number, round: number, meters: number }>
  /** Another instance was catching the volunteer up at the same moment: nothing done here. */
  busy: boolean
}

/**
 * Runs the catch-ups of docs/api/help.md › Catch-up alerts: a volunteer who went on duty, moved, widened their radius or changed
 * their kinds while on duty is alerted to at most ALERT_CATCH_UP approved requests whose rounds are under
 * way and for which they are eligible (most urgent, then nearest, then oldest), each catch-up in one
 * transaction with its claim. The triggers are written by the alerts reactions (alerts.reactions.ts).
 */
export class CatchUpService {
  private readonly failed = new FailedClaims(FAILED_CATCH_UP_BACKOFF_MS)

  constructor (
    private readonly changes: Changes,
    private readonly settings: AlertSettings,
    private readonly clock: Clock = systemClock,
    /** Where a request stands for alerting, as rounds see it (alerts.service.ts). */
    private readonly placeOf: (latitude: number, longitude: number) => GridPoint = (latitude, longitude) => ({ latitude, longitude }),
    /** VOLUNTEER_CHECKS and TIME_ZONE, as rounds take them. */
    private readonly checks: { required: readonly CheckKind[], timeZone: string } = { required: [], timeZone: 'UTC' }
  ) {}

  /** Runs due catch-ups until none is left or `limit` have run; how many ran (busy ones are passed over in this run). */
  async runDue (limit = 100, stopped: () => boolean = () => false): Promise<number> {
    const busy: number[] = []
    let ran = 0
    while (ran < limit && !stopped()) {
      const outcome = await this.runOne(busy)
      if (outcome === undefined) break
      if (outcome.busy) busy.push(outcome.volunteerId)
      else ran++
    }
    return ran
  }

  /** Claims and runs the catch-up due first; undefined when none is due. */
  async runOne (skip: readonly number[] = []): Promise<CatchUpOutcome | undefined> {
    const at = this.clock.now()
    return await this.failed.run(at.getTime(), async (failing, claimed) => await this.changes.run(null, async (tx, change) => {
      const claim = await catchUps.claimCatchUp(tx, at, [...skip, ...failing()])
      if (claim === undefined) return undefined
      claimed(claim.volunteer_id)
      const outcome: CatchUpOutcome = { volunteerId: claim.volunteer_id, alerted: [], busy: claim.busy }
      if (claim.busy) return outcome
      await catchUps.deleteCatchUps(tx, claim.ids)
      const today = dateIn(at, this.checks.timeZone)
      const catcher = await catchUps.findCatcher(tx, claim.volunteer_id, at, { required: this.checks.required, today })
      const limit = Math.min(this.settings.catchUp, catcher?.room ?? 0)
      if (catcher === undefined || limit <= 0) return outcome
      const chosen = this.choose(catcher, await catchUps.findOpenRequests(tx, {
        volunteerId: claim.volunteer_id, catcher, cutoff: claim.cutoff, slackMeters: PLACE_SLACK_M, stopAfterOffers: this.settings.stopAfterOffers, today,
      })).slice(0, limit)
      const written = new Map((await alerts.insertCatchUpAlerts(tx, claim.volunteer_id, chosen.map((c) => c.request.id), at))
        .map((row) => [Number(row.request_id), row.round]))
      for (const { request, meters } of chosen) {
        const round = written.get(Number(request.id))
        if (round === undefined) continue
        outcome.alerted.push({ requestId: Number(request.id), round, meters })
        // Counted toward the volunteer's daily cap like a round's alert (availability.reactions.ts).
        change.record({ type: 'alert_round_ran', requestId: Number(request.id), round, alertedIds: [claim.volunteer_id], at })
        change.notify(requestAlert(claim.volunteer_id, Number(request.id), request, meters, round))
      }
      return outcome
    }))
  }

  /** The requests within the radius, measured from where each stands for alerting: most urgent, nearest, oldest first. */
  private choose (catcher: catchUps.Catcher, requests: readonly catchUps.OpenRequest[]): Array<{ request: catchUps.OpenRequest, meters: number }> {
    const [x, y, z] = earthPoint(catcher.latitude, catcher.longitude)
    return requests
      .map((request) => {
        const place = this.placeOf(request.latitude, request.longitude)
        const [qx, qy, qz] = earthPoint(place.latitude, place.longitude)
        return { request, meters: chordToMeters(Math.hypot(x - qx, y - qy, z - qz)) }
      })
      .filter(({ meters }) => meters <= catcher.radius_meters)
      .sort((a, b) => URGENCY_RANK[a.request.urgency] - URGENCY_RANK[b.request.urgency] ||
        a.meters - b.meters ||
        a.request.created_at.getTime() - b.request.created_at.getTime() ||
        Number(a.request.id) - Number(b.request.id))
  }
}

/** Most catch-ups per run of the job: a full run means more may be due, and the next run starts at once. */
const CATCH_UPS_PER_RUN = 100

/**
 * The catch-up job for the runner (src/jobs/), every `intervalMs` on every instance, as the rounds job:
 * the claim (SKIP LOCKED, catch-up.repo.ts claimCatchUp) decides which instance runs a catch-up.
 */
export function catchUpJob (service: CatchUpService, intervalMs: number): Job {
  return batchJob('alert catch-ups', intervalMs, CATCH_UPS_PER_RUN, async (stopping) => await service.runDue(CATCH_UPS_PER_RUN, stopping))
}
