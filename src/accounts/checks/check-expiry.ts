import type { Changes } from '../../events/dispatcher.js'
import { batchJob, runSteps } from '../../jobs/steps.js'
import type { Calendar } from '../../lib/checks.js'
import * as checks from './checks.repo.js'

/** docs/api/accounts.md › Checks that vet volunteers: the user and every admin are told this many days before a check's last day. */
export const EXPIRY_NOTICE_DAYS = 30

/** Checks notified per transaction: a full batch means more may be due, and the job runs again at once. */
const EXPIRY_BATCH = 100

/**
 * Sends `check_expiring` once per check (docs/api/messaging.md › Notifications; `data`: user_id, kind, valid_until; no request),
 * to the check's user and to every admin, when today (in TIME_ZONE) is within EXPIRY_NOTICE_DAYS of its
 * valid_until. Once across instances: each batch claims its checks FOR UPDATE SKIP LOCKED and stamps them
 * notified in the transaction that writes the notifications, so a second instance, or a second run, finds
 * nothing left; a process killed mid-batch rolls it back and the next run sends it.
 */
export class CheckExpiryNotifier {
  constructor (private readonly changes: Changes, private readonly calendar: Calendar, private readonly batch = EXPIRY_BATCH) {}

  /** One batch; how many checks it notified. */
  async runOnce (): Promise<number> {
    const today = this.calendar.today()
    return await runSteps(this.changes, [async (tx, change) => {
      const due = await checks.claimExpiringChecks(tx, today, EXPIRY_NOTICE_DAYS, this.batch)
      if (due.length === 0) return 0
      const admins = await checks.adminIds(tx)
      await checks.markExpiryNotified(tx, due.map((check) => check.id), change.at)
      for (const check of due) {
        const data = { user_id: Number(check.user_id), kind: check.kind, valid_until: check.valid_until }
        const recipients = new Set([Number(check.user_id), ...admins])
        change.notify(...[...recipients].map((userId) => ({ userId, type: 'check_expiring' as const, requestId: null, data })))
      }
      return due.length
    }])
  }
}

/** The expiry notices for the runner (src/jobs/): at start-up, then every `intervalMs`. */
export const checkExpiryJob = (notifier: CheckExpiryNotifier, intervalMs: number) => batchJob('check expiry', intervalMs, EXPIRY_BATCH, () => notifier.runOnce())
