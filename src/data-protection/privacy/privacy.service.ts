import type { Database, Transaction } from '../../db/database.js'
import type { Change, Changes } from '../../events/dispatcher.js'
import type { Calendar } from '../../lib/checks.js'
import { badRequest, notFound, unauthorized, USER_NOT_FOUND } from '../../lib/errors.js'
import { gridPoint } from '../../lib/grid.js'
import { verifyPassword } from '../../lib/passwords.js'
import type { Principal, PrincipalForgetter } from '../../lib/principal.js'
import { exportAccessRecords } from '../../accounts/access/access.repo.js'
import * as availability from '../../help/availability/availability.repo.js'
import { toAvailability } from '../../help/availability/availability.schemas.js'
import { exportActingFor, exportTrusted } from '../../on-behalf/carers/carers.repo.js'
import { listOwn as ownConcerns } from '../../help/concerns/concerns.repo.js'
import { findSettings } from '../../messaging/deliveries/notification-settings.repo.js'
import { toNotification } from '../../messaging/notifications/notifications.schemas.js'
import { listSubscriptions } from '../../messaging/push/push.repo.js'
import { toPushSubscription } from '../../messaging/push/push.schemas.js'
import { findInProgressRoles } from '../../help/requests/requests.reads.js'
import * as requests from '../../help/requests/retention.repo.js'
import * as responses from '../../help/responses/responses.repo.js'
import * as roles from '../../accounts/roles/roles.repo.js'
import * as series from '../../regular-help/series/series.repo.js'
import * as users from '../../accounts/users/users.repo.js'
import * as privacy from './privacy.repo.js'
import { INVALID_CREDENTIALS, type DataExport } from './privacy.schemas.js'

/** docs/privacy.md › Erasure: a person's own data, exported or erased. */
export class PrivacyService {
  constructor (
    private readonly db: Database,
    private readonly changes: Changes,
    private readonly principals: PrincipalForgetter,
    private readonly options: { mapGridMeters: number },
    /** Today in TIME_ZONE: which of the caller's checks are valid (their kinds are in the profile). */
    private readonly calendar: Calendar
  ) {}

  /** Everything held about the caller, each section one query. */
  async export (user: Principal): Promise<DataExport> {
    const own = await users.findOwnData(this.db, user.id, this.calendar.today())
    if (own === undefined) throw notFound(USER_NOT_FOUND)
    const profile = { ...own, is_verified: own.checks.includes('identity') }
    const [ownRoles, ownRequests, ownResponses, given, received, ownAvailability, inbox, raised, accessRecords, devices, choices, sent] = [
      await roles.rolesOfUser(this.db, user.id),
      await privacy.exportRequests(this.db, user.id),
      await privacy.exportResponses(this.db, user.id),
      await privacy.exportRatingsGiven(this.db, user.id),
      await privacy.exportRatingsReceived(this.db, user.id),
      // The owning repo's one query, so the section is exactly what GET /users/me/availability shows.
      await availability.findAvailability(this.db, user.id),
      await privacy.exportNotifications(this.db, user.id),
      // The owning repo's query, so the section is exactly what GET /concerns/mine shows: never concerns about the caller.
      await ownConcerns(this.db, user.id),
      await exportAccessRecords(this.db, user.id),
      // The owning repo's query, so the section is exactly what GET /users/me/push-subscriptions shows.
      await listSubscriptions(this.db, user.id),
      await findSettings(this.db, user.id),
      await privacy.exportDeliveries(this.db, user.id),
    ]
    // The owning repo's query, so the section is exactly what GET /request-series/mine shows.
    const ownSeries: DataExport['series'] = await series.listSeriesOf(this.db, { requesterId: user.id })
    // docs/api/on-behalf.md › Carers: whom the caller trusts, and for whom the caller acts.
    const [trusted, actingFor] = [await exportTrusted(this.db, user.id), await exportActingFor(this.db, user.id)]
    const visits = await privacy.exportVisits(this.db, user.id)
    const texts = await privacy.exportTexts(this.db, user.id)
    return {
      exported_at: new Date(),
      profile,
      roles: ownRoles.map((role) => role.name),
      requests: ownRequests,
      responses: ownResponses,
      ratings_given: given,
      ratings_received: received,
      availability: ownAvailability?.saved === true ? toAvailability(ownAvailability) : null,
      notifications: inbox.map(toNotification),
      series: ownSeries,
      concerns: raised,
      access_records: accessRecords,
      push_subscriptions: devices.map(toPushSubscription),
      notification_settings: choices === undefined
        ? null
        : {
            email: { enabled: choices.email_enabled, types: choices.email_types },
            push: { enabled: choices.push_enabled, types: choices.push_types },
            sms: { enabled: choices.sms_enabled, types: choices.sms_types },
            quiet_hours: choices.quiet_start !== null && choices.quiet_end !== null ? { start: choices.quiet_start, end: choices.quiet_end } : null,
            time_zone: choices.time_zone ?? this.calendar.timeZone,
          },
      deliveries: sent,
      trusted_people: trusted,
      acting_for: actingFor,
      visits,
      texts,
    } as DataExport
  }

  /**
   * Erases the caller's account in one transaction, or refuses and changes nothing (docs/privacy.md › Erasure).
   * Here the caller's requests are cancelled and their pending responses withdrawn; the reactions to
   * those events and to user_erased do the rest (src/areas.ts): the open responses on the
   * requests, alerts, notifications, then the user row, availability, roles, refresh tokens and inbox.
   * The writes come before the in_progress checks on purpose: each is a conditional update, so an accept
   * racing the erasure either committed first (and the check that follows, a new snapshot, sees it and
   * refuses) or finds the request cancelled and the response withdrawn.
   */
  async erase (user: Principal, password: string | undefined): Promise<void> {
    const stored = await users.findPasswordHash(this.db, user.id)
    // Hashed before the transaction: PGlite has one connection, and a transaction holds it.
    const valid = password !== undefined && password !== '' && stored !== undefined && await verifyPassword(password, stored.password_hash)
    if (!valid) throw unauthorized(INVALID_CREDENTIALS)
    await this.changes.run(user.id, async (tx, change) => {
      const admins = await roles.lockAdmins(tx)
      if (admins.length === 1 && admins[0] === user.id) throw badRequest('the last admin cannot be erased')
      await this.#closeOpenBusinessOf(tx, change, user.id)
      const busy = await findInProgressRoles(tx, { requesterId: user.id })
      if (busy.as_requester) throw badRequest('finish or cancel your open requests first')
      if (busy.as_volunteer) throw badRequest('withdraw from your assigned requests first')
      await requests.minimiseFinishedRequestsOf(tx, { requesterId: user.id }, this.options.mapGridMeters)
      change.record({ type: 'user_erased', userId: user.id })
    })
    // Other instances drop their cached principal within AUTH_CACHE_TTL_MS, as they do for a block.
    this.principals.forget(user.id)
  }

  /** The caller's series → ended, their pending and approved requests → cancelled, their own pending responses → withdrawn. */
  async #closeOpenBusinessOf (tx: Transaction, change: Change, userId: number): Promise<void> {
    // First: no occurrence is created after the requests are cancelled (docs/api/schedule.md › Series; series before requests).
    const ended = await series.endSeriesOf(tx, userId, change.at)
    const grid = this.options.mapGridMeters
    await series.minimiseSeries(tx, ended.map((row) => ({ id: row.id, ...gridPoint(row.latitude, row.longitude, grid) })), requests.REMOVED)
    for (const { id } of await requests.cancelActiveRequestsOf(tx, { requesterId: userId })) {
      change.record({ type: 'request_cancelled', requestId: Number(id), requesterId: userId, cancelledBy: userId })
    }
    for (const response of await responses.withdrawPendingResponsesOf(tx, userId)) {
      change.record({ type: 'response_withdrawn', requestId: Number(response.request_id), responseId: Number(response.id), requesterId: Number(response.requester_id), wasAccepted: false })
    }
  }
}
