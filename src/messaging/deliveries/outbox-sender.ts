import type { Database } from '../../db/database.js'
import { ACCOUNT_MESSAGES } from '../../events/notifications.js'
import type { Job } from '../../jobs/job.js'
import type { Clock } from '../../lib/clock.js'
import { GroupWriter } from '../../lib/group-writer.js'
import type { Sealer } from '../../lib/sealing.js'
import type { Channel, OutgoingDelivery, SendOutcome } from './channel.js'
import { claimDueDeliveries, recordDeliveries, type ClaimedRow, type Recorded } from './deliveries.repo.js'
import { HeldLeases } from './leases.js'

/** The ways out: e-mail always, push when it is configured (`push/push-channel.ts`), texts when the app has them (`sms/sms-channel.ts`). */
export interface Channels { email: Channel, push?: Channel | undefined, sms?: Channel | undefined }

export interface SenderSettings {
  /** DELIVERY_MAX_ATTEMPTS. */
  maxAttempts: number
  /** TIME_ZONE: the zone of quiet hours for those who chose none (a retry waits past them too). */
  timeZone: string
  /** Rows claimed per run (default 50). */
  batchSize?: number
  /**
   * How long a claim holds a row unrenewed before another instance may send it again (default 15 s). The
   * sender renews it every third of that while it holds the row, so only a dead sender's rows are taken over.
   */
  leaseMs?: number
}

export interface SenderLog {
  warn (fields: Record<string, unknown>, message: string): void
}

const MINUTE = 60_000
/** A dead process's claims are sent by another instance, or by itself restarted, at most this long after its last renewal. */
const LEASE_MS = 15_000
/** The SMTP pool's connections (email-channel.ts); each send then has a connection of its own. */
const SENDS_AT_ONCE = 10
/** While a backlog lasts, a claim takes up to this many batches (batchSize each). */
const BACKLOG_BATCHES = 4
/** Waits after the 1st, 2nd, … failed try: six tries span about an hour (65 min); later tries wait an hour each. */
const RETRY_WAITS_MS = [1, 4, 10, 20, 30].map((minutes) => minutes * MINUTE)
const LONGEST_WAIT_MS = 60 * MINUTE

export function retryWaitMs (attempt: number): number {
  return RETRY_WAITS_MS[attempt - 1] ?? LONGEST_WAIT_MS
}

/** Account messages that carry a code, which the row holds sealed until it is sent. */
const WITH_CODE = new Set<string>(ACCOUNT_MESSAGES.filter((message) => message.endsWith('_code')))

/**
 * The sending loop of docs/api/messaging.md › Deliveries and e-mail: claims due deliveries in a short transaction (deliveries.repo.ts
 * claimDueDeliveries), sends them outside any transaction, then records each outcome. Any number of
 * instances run it side by side; SKIP LOCKED and the lease, renewed while a row is held, keep each row with
 * one of them at a time, and hand a dead instance's rows to the others when the lease ends.
 */
export class OutboxSender {
  readonly #batchSize: number
  readonly #leaseMs: number
  /**
   * Records each outcome as soon as it is known, but the outcomes that finish while a write is under way go
   * together in the next one: one statement instead of one per row. On the embedded engine, where every
   * statement queues behind the API's transactions, 50 single writes per batch held the loop to about one
   * batch a second (docs/performance.md, Deliveries).
   */
  readonly #recorder: GroupWriter<Recorded>

  constructor (
    private readonly db: Database,
    private readonly channels: Channels,
    private readonly sealer: Sealer,
    private readonly settings: SenderSettings,
    private readonly clock: Clock,
    private readonly log: SenderLog
  ) {
    this.#batchSize = settings.batchSize ?? 50
    this.#leaseMs = settings.leaseMs ?? LEASE_MS
    this.#recorder = new GroupWriter((records) => recordDeliveries(db, records, settings.timeZone))
  }

  /**
   * Sends what is due. While claims come back full (a backlog), the next claim is made while the last sends
   * are under way, each up to twice the last (at most BACKLOG_BATCHES batches). Each of the SENDS_AT_ONCE
   * workers writes an outcome before its next send, the outcomes that finish together in one statement: on
   * the embedded engine each statement queues behind the API's transactions, and a claim, then a write per
   * outcome, one after the other, held the loop below the approvals (docs/performance.md › Deliveries). One
   * slow send no longer holds up the rest either. The
   * run's rows stay leased to it (HeldLeases renews them) until their outcomes are written.
   * Resolves once every claimed row's outcome is recorded; `more`: a claim was full, so run again at once.
   */
  async sendDue (stopping: () => boolean = () => false): Promise<{ claimed: number, more: boolean }> {
    const leases = new HeldLeases(this.db, this.clock, this.#leaseMs, this.log)
    try {
      return await this.#run(leases, stopping)
    } finally {
      await leases.stop()
    }
  }

  async #run (leases: HeldLeases, stopping: () => boolean): Promise<{ claimed: number, more: boolean }> {
    const queue: ClaimedRow[] = []
    let claimed = 0
    let limit = this.#batchSize
    let more = false
    let failure: { error: unknown } | undefined
    const claim = async (): Promise<void> => {
      const now = this.clock.now()
      const leaseUntil = new Date(now.getTime() + this.#leaseMs)
      const rows = await this.db.transaction((tx) => claimDueDeliveries(tx, now, leaseUntil, limit))
      leases.hold(rows, leaseUntil)
      queue.push(...rows)
      claimed += rows.length
      more = rows.length >= limit
      if (more) limit = Math.min(limit * 2, this.#batchSize * BACKLOG_BATCHES)
    }
    let claiming: Promise<void> | undefined
    const claimAhead = () => {
      if (claiming !== undefined || !more || failure !== undefined || stopping() || queue.length >= SENDS_AT_ONCE) return
      claiming = claim().catch((error: unknown) => { failure ??= { error } }).finally(() => { claiming = undefined })
    }
    // At most SENDS_AT_ONCE sends under way (as many as the SMTP pool's connections), so none waits in a channel's queue.
    const worker = async () => {
      for (;;) {
        claimAhead()
        const row = queue.shift()
        if (row === undefined) {
          if (claiming === undefined) return
          await claiming
          continue
        }
        // A row another instance has taken over is left to it; one whose lease ran short (renewals failing) goes
        // back unsent, since a send begun now could outlast the lease and the row be sent a second time.
        const lease = leases.state(row.id)
        if (lease === 'lost') continue
        const record = lease === 'short'
          ? { id: row.id, attempt: row.attempts, status: 'retry' as const, reason: 'not sent in time; tried again', dueAt: this.clock.now() }
          : await this.#sendOne(row)
        if (record.status !== 'sent') this.log.warn({ deliveryId: row.id, channel: row.channel, attempt: row.attempts, outcome: record.status, reason: record.reason }, 'delivery not sent')
        // Written before this worker sends another, so a crash sends again at most the messages under way
        // (docs/api.md); held (and renewed) until then, so a slow write leaves no gap for another instance.
        await this.#recorder.add(record).catch((error: unknown) => { failure ??= { error } }).finally(() => { leases.release(row.id) })
      }
    }
    await claim()
    await Promise.all(Array.from({ length: more ? SENDS_AT_ONCE : Math.min(SENDS_AT_ONCE, queue.length) }, worker))
    if (failure !== undefined) throw failure.error
    // After a full batch the job runs again at once, for what fell due while this run was sending.
    return { claimed, more: more || claimed >= this.#batchSize }
  }

  async #sendOne (row: ClaimedRow): Promise<Recorded> {
    const base = { id: row.id, attempt: row.attempts }
    const channel = row.channel === 'email' ? this.channels.email : row.channel === 'push' ? this.channels.push : this.channels.sms
    if (channel === undefined) return { ...base, status: 'dropped', reason: `${row.channel} is not configured` }
    if (row.channel === 'push' && row.endpoint === null) return { ...base, status: 'dropped', reason: 'the device was removed' }
    let code: string | null = null
    if (row.account_message !== null && WITH_CODE.has(row.account_message)) {
      code = row.secret === null ? null : this.sealer.open(row.secret) ?? null
      if (code === null) return { ...base, status: 'failed', reason: 'the code could not be read (was JWT_SECRET changed?)' }
    }
    let outcome: SendOutcome
    try {
      outcome = await channel.send(outgoing(row, code, this.settings.timeZone))
    } catch {
      outcome = { outcome: 'retry', reason: `the ${row.channel} channel failed` }
    }
    switch (outcome.outcome) {
      case 'sent': return { ...base, status: 'sent', at: this.clock.now() }
      case 'gone': return { ...base, status: 'dropped', reason: outcome.reason }
      case 'retry':
        return row.attempts >= this.settings.maxAttempts
          ? { ...base, status: 'failed', reason: outcome.reason }
          : { ...base, status: 'retry', reason: outcome.reason, dueAt: new Date(this.clock.now().getTime() + retryWaitMs(row.attempts)) }
    }
  }
}

function outgoing (row: ClaimedRow, code: string | null, deploymentZone: string): OutgoingDelivery {
  return {
    id: row.id,
    userId: row.user_id,
    locale: row.locale,
    timeZone: row.time_zone ?? deploymentZone,
    notification: row.notification_id !== null && row.type !== null
      ? {
          id: row.notification_id,
          type: row.type,
          requestId: row.request_id,
          requestTitle: row.request_title,
          requestWindowStart: row.request_window_start === null ? null : new Date(row.request_window_start).toISOString(),
          data: row.data ?? {},
        }
      : null,
    account: row.account_message !== null ? { message: row.account_message, code } : null,
    reply: row.reply_outcome !== null ? { outcome: row.reply_outcome, title: row.reply_title } : null,
    invitation: row.invitation_id !== null ? { inviterName: row.inviter_name ?? '', can: row.invitation_can ?? [] } : null,
    email: row.email,
    phone: row.phone === null ? null : { number: row.phone, confirmed: row.phone_confirmed },
    client: row.client_id === null ? null : { id: Number(row.client_id), helperName: row.helper_name },
    subscription: row.subscription_id !== null && row.endpoint !== null && row.p256dh !== null && row.auth !== null
      ? { id: row.subscription_id, endpoint: row.endpoint, p256dh: row.p256dh, auth: row.auth }
      : null,
    attempt: row.attempts,
  }
}

/** The job that runs the sender on every instance, at once again while full batches keep coming. */
export function deliveriesJob (sender: OutboxSender, intervalMs: number): Job {
  return {
    name: 'deliveries',
    intervalMs,
    async run (stopping) {
      return (await sender.sendDue(stopping)).more ? 'more' : undefined
    },
  }
}
