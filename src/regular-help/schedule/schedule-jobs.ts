import type { Change, Changes } from '../../events/dispatcher.js'
import type { Transaction } from '../../db/database.js'
import { batchJob, runSteps } from '../../jobs/steps.js'
import type { ScheduleSettings } from '../../config.js'
import { systemClock, type Clock } from '../../lib/clock.js'
import * as deadlines from '../../help/requests/deadlines.repo.js'
import { setAssignment } from '../../help/requests/requests.repo.js'
import { cancelAcceptedResponse } from '../../help/responses/responses.repo.js'
import * as schedule from './schedule.repo.js'
import { windowData } from './schedule.service.js'

/** Requests per step and transaction: a full batch means more may be due, and the job runs again at once. */
const BATCH = 100

/**
 * The steps of docs/api/schedule.md › Confirmation, reminders, expiry, in the order each run takes them: ask the assigned volunteer to confirm,
 * withdraw the unconfirmed at the deadline, remind, expire, ask "still needed?", ask to complete. Each
 * step is one transaction on the app's clock that claims its requests (SKIP LOCKED), re-reading their
 * state under the lock, and records its messages in schedule_messages ON CONFLICT DO NOTHING with their
 * notifications: so each is sent once across instances, and none for a request whose state changed.
 */
export class ScheduleJobs {
  constructor (private readonly changes: Changes, private readonly settings: ScheduleSettings, private readonly clock: Clock = systemClock, private readonly batch = BATCH) {}

  /** One run of every step; the most requests one step handled (a full batch: run again at once). */
  async runOnce (): Promise<number> {
    const steps = [this.#confirmNeeded, this.#deadline, this.#reminders, this.#expire, this.#stillNeeded, this.#pleaseComplete]
    return await runSteps(this.changes, steps.map((step) => step.bind(this)))
  }

  /** Sends `messages` as notifications of `type` (the reason's own type). */
  #notify (change: Change, type: schedule.Reason, messages: readonly schedule.Message[]): void {
    change.notify(...messages.map((m) => ({ userId: Number(m.user_id), type, requestId: Number(m.request_id), data: windowData(m.window_start) })))
  }

  async #confirmNeeded (tx: Transaction, change: Change): Promise<number> {
    const { confirmBeforeHours, confirmDeadlineHours } = this.settings
    const sent = await schedule.sendConfirmNeeded(tx, change.at, confirmBeforeHours, confirmDeadlineHours, this.batch)
    this.#notify(change, 'confirm_needed', sent)
    return sent.length
  }

  /**
   * The deadline: the acceptance is withdrawn as the volunteer's withdrawal would (the request row locked
   * first, then its response), rounds start again at the urgent interval (the alerts reaction), and both
   * are told confirmation_missed instead of response_withdrawn.
   */
  async #deadline (tx: Transaction, change: Change): Promise<number> {
    const due = await deadlines.claimUnconfirmed(tx, change.at, this.settings.confirmDeadlineHours, this.batch)
    for (const request of due) {
      const response = await cancelAcceptedResponse(tx, request.id)
      await setAssignment(tx, request.id, null)
      if (response !== undefined) {
        change.record({ type: 'response_withdrawn', requestId: request.id, responseId: response.id, requesterId: request.requester_id, wasAccepted: true, missedConfirmation: true })
      }
    }
    const told = await schedule.recordMessages(tx, 'confirmation_missed', due.flatMap((request) => [
      { requestId: request.id, userId: request.requester_id, windowStart: request.window_start },
      { requestId: request.id, userId: request.volunteer_id, windowStart: request.window_start },
    ]), change.at)
    this.#notify(change, 'confirmation_missed', told)
    return due.length
  }

  async #reminders (tx: Transaction, change: Change): Promise<number> {
    const sent = await schedule.sendReminders(tx, change.at, this.settings.remindBeforeMinutes, this.batch)
    // One history entry per request reminded (docs/api/on-behalf.md › A request's history), saying how many people, not who.
    const people = new Map<number, number>()
    for (const m of sent) people.set(Number(m.request_id), (people.get(Number(m.request_id)) ?? 0) + 1)
    for (const [requestId, count] of people) change.record({ type: 'request_reminded', requestId, people: count })
    this.#notify(change, 'reminder', sent)
    return sent.length
  }

  /** Cancelled as a cancel does (request_cancelled: offers cancelled, alerts closed, volunteers told); the requester gets request_expired. */
  async #expire (tx: Transaction, change: Change): Promise<number> {
    const expired = await deadlines.expireRequests(tx, change.at, this.batch)
    for (const request of expired) {
      // cancelledBy the requester: the reaction then sends them no request_cancelled beside request_expired.
      change.record({ type: 'request_cancelled', requestId: request.id, requesterId: request.requester_id, cancelledBy: request.requester_id })
    }
    const told = await schedule.recordMessages(tx, 'request_expired',
      expired.map((request) => ({ requestId: request.id, userId: request.requester_id, windowStart: request.window_start })), change.at)
    this.#notify(change, 'request_expired', told)
    return expired.length
  }

  async #stillNeeded (tx: Transaction, change: Change): Promise<number> {
    const asked = await deadlines.askStillNeeded(tx, change.at, this.settings.staleAfterDays, this.batch)
    const sent = await schedule.recordMessages(tx, 'still_needed',
      asked.map((request) => ({ requestId: request.id, userId: request.requester_id, windowStart: request.window_start })), change.at)
    this.#notify(change, 'still_needed', sent)
    return asked.length
  }

  async #pleaseComplete (tx: Transaction, change: Change): Promise<number> {
    const sent = await schedule.sendPleaseComplete(tx, change.at, this.batch)
    this.#notify(change, 'please_complete', sent)
    return sent.length
  }
}

/** The schedule job for the runner (src/jobs/): at start-up, then every `intervalMs`. */
export const scheduleJob = (jobs: ScheduleJobs, intervalMs: number) => batchJob('schedule', intervalMs, BATCH, () => jobs.runOnce())
