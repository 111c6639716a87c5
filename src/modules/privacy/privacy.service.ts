import { randomBytes } from 'node:crypto'
import type { Database, Transaction } from '../../db/database.js'
import { badRequest, notFound, unauthorized, USER_NOT_FOUND } from '../../lib/errors.js'
import { gridPoint } from '../../lib/grid.js'
import { verifyPassword } from '../../lib/passwords.js'
import type { Principal } from '../../lib/principal.js'
import * as auth from '../auth/auth.repo.js'
import * as availability from '../availability/availability.repo.js'
import { toAvailability } from '../availability/availability.service.js'
import { deleteNotificationsOf, insertNotifications, type NewNotification } from '../notifications/notifications.repo.js'
import { toNotification } from '../notifications/notifications.service.js'
import { cancellationNotifications } from '../requests/requests.service.js'
import { closeAlertsOf } from '../alerts/alerts.service.js'
import * as requests from '../requests/requests.repo.js'
import * as responses from '../responses/responses.repo.js'
import * as roles from '../roles/roles.repo.js'
import * as users from '../users/users.repo.js'
import * as privacy from './privacy.repo.js'
import { INVALID_CREDENTIALS, type DataExport } from './privacy.schemas.js'

/** Forgets a user's cached principal on this instance (auth/principals.ts PrincipalCache). */
export interface PrincipalForgetter { forget (userId: number): void }

/** privacy.md §3: a person's own data, exported or erased. */
export class PrivacyService {
  constructor (
    private readonly db: Database,
    private readonly principals: PrincipalForgetter,
    private readonly options: { mapGridMeters: number }
  ) {}

  /** Everything held about the caller, each section one query. */
  async export (user: Principal): Promise<DataExport> {
    const profile = await users.findOwnData(this.db, user.id)
    if (profile === undefined) throw notFound(USER_NOT_FOUND)
    const [ownRoles, ownRequests, ownResponses, given, received, ownAvailability, inbox] = [
      await roles.rolesOfUser(this.db, user.id),
      await privacy.exportRequests(this.db, user.id),
      await privacy.exportResponses(this.db, user.id),
      await privacy.exportRatingsGiven(this.db, user.id),
      await privacy.exportRatingsReceived(this.db, user.id),
      // The owning repo's one query, so the section is exactly what GET /users/me/availability shows.
      await availability.findAvailability(this.db, user.id),
      await privacy.exportNotifications(this.db, user.id),
    ]
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
    } as DataExport
  }

  /**
   * Erases the caller's account in one transaction, or refuses and changes nothing (privacy.md §3).
   * The writes come before the in_progress checks on purpose: each is a conditional update, so an accept
   * racing the erasure either committed first (and the check that follows, a new snapshot, sees it and
   * refuses) or finds the request cancelled and the response withdrawn.
   */
  async erase (user: Principal, password: string | undefined): Promise<void> {
    const stored = await users.findPasswordHash(this.db, user.id)
    // Hashed before the transaction: PGlite has one connection, and a transaction holds it.
    const valid = password !== undefined && password !== '' && stored !== undefined && await verifyPassword(password, stored.password_hash)
    if (!valid) throw unauthorized(INVALID_CREDENTIALS)
    const unusableEmail = `erased-${user.id}-${randomBytes(12).toString('hex')}@erased.invalid`
    await this.db.transaction(async (tx) => {
      const admins = await roles.lockAdmins(tx)
      if (admins.length === 1 && admins[0] === user.id) throw badRequest('the last admin cannot be erased')
      const toNotify = await this.#cancelRequestsOf(tx, user.id)
      const withdrawn = await responses.withdrawPendingResponsesOf(tx, user.id)
      const busy = await requests.findInProgressRoles(tx, user.id)
      if (busy.as_requester) throw badRequest('finish or cancel your open requests first')
      if (busy.as_volunteer) throw badRequest('withdraw from your assigned requests first')
      const finished = await requests.lockFinishedRequestsOf(tx, user.id)
      const grid = this.options.mapGridMeters
      await requests.minimiseRequests(tx, finished.map((row) => ({ id: row.id, ...gridPoint(row.latitude, row.longitude, grid) })), grid)
      await availability.deleteAvailability(tx, user.id)
      await users.eraseUser(tx, user.id, unusableEmail)
      await roles.revokeAllRoles(tx, user.id)
      await auth.revokeRefreshTokens(tx, user.id, 'erased')
      // After the response writes, which wait for any transaction notifying the caller about those rows.
      await deleteNotificationsOf(tx, user.id)
      // Last, and once: insertNotifications takes its recipients' inbox locks in id order (notifications.repo.ts).
      const notices: NewNotification[] = withdrawn.map((response) => ({
        userId: response.requester_id, type: 'response_withdrawn', requestId: response.request_id, data: { response_id: response.id, was_accepted: false },
      }))
      for (const { request_id: id, volunteers } of toNotify) {
        notices.push(...cancellationNotifications({ id, requester_id: user.id }, volunteers, user.id), ...await closeAlertsOf(tx, id, 'cancelled'))
      }
      await insertNotifications(tx, notices)
    })
    // Other instances drop their cached principal within AUTH_CACHE_TTL_MS, as they do for a block.
    this.principals.forget(user.id)
  }

  /**
   * The caller's pending and approved requests → cancelled, with their open responses. Returns each
   * cancelled request with the volunteers whose offer was open, for its `request_cancelled` notifications.
   */
  async #cancelRequestsOf (tx: Transaction, userId: number): Promise<Array<{ request_id: number, volunteers: number[] }>> {
    const cancelled = await requests.cancelActiveRequestsOf(tx, userId)
    const volunteers = new Map<number, number[]>(cancelled.map((id) => [Number(id), []]))
    for (const row of await responses.cancelOpenResponsesOn(tx, cancelled)) volunteers.get(Number(row.request_id))?.push(Number(row.volunteer_id))
    return [...volunteers].map(([id, ids]) => ({ request_id: id, volunteers: ids }))
  }
}
