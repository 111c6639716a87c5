import type { Database } from '../../db/database.js'
import type { Changes } from '../../events/dispatcher.js'
import { badRequest, forbidden, notFound, USER_NOT_FOUND } from '../../lib/errors.js'
import { hasPermission, type Principal } from '../../lib/principal.js'
import { lockUser } from '../../accounts/users/users.repo.js'
import * as availability from './availability.repo.js'
import { toAvailability, type Availability, type AvailabilityInput } from './availability.schemas.js'

export const VOLUNTEER_ROLE_REQUIRED = 'volunteer role required'

/** A volunteer's availability for nearby alerts (docs/api/help.md › Availability). */
export class AvailabilityService {
  constructor (
    private readonly db: Database,
    /** The PUT's transaction, with its reactions: a change that may bring requests into reach queues a catch-up (docs/api/help.md › Catch-up alerts). */
    private readonly changes: Changes
  ) {}

  async get (user: Principal): Promise<Availability> {
    if (!hasPermission(user, 'respond_request')) throw forbidden(VOLUNTEER_ROLE_REQUIRED)
    return toAvailability(await this.#find(user.id))
  }

  /** Absent fields keep their values; the alert point is recomputed in the same transaction. */
  async put (user: Principal, input: AvailabilityInput): Promise<Availability> {
    if (!hasPermission(user, 'respond_request')) throw forbidden(VOLUNTEER_ROLE_REQUIRED)
    // Both or neither: a point is set (or cleared, with two nulls) as a whole.
    if ((input.latitude === undefined) !== (input.longitude === undefined) || (input.latitude === null) !== (input.longitude === null)) {
      throw badRequest(input.latitude === undefined || input.latitude === null ? 'invalid latitude' : 'invalid longitude')
    }
    const typeIds = input.request_type_ids === undefined ? undefined : [...new Set(input.request_type_ids)].sort((a, b) => a - b)
    await this.changes.run(user.id, async (tx, change) => {
      if (typeIds !== undefined && typeIds.length > 0 && await availability.countActiveTypes(tx, typeIds) !== typeIds.length) {
        throw badRequest('invalid request type')
      }
      await lockUser(tx, user.id)
      const current = await availability.findAvailability(tx, user.id)
      if (current === undefined) throw notFound(USER_NOT_FOUND)
      const next: availability.AvailabilityValues = {
        on_duty: input.on_duty ?? current.on_duty,
        radius_meters: input.radius_meters ?? current.radius_meters,
        latitude: input.latitude !== undefined ? input.latitude : current.latitude,
        longitude: input.longitude !== undefined ? input.longitude : current.longitude,
        request_type_ids: typeIds ?? current.request_type_ids.map(Number),
        max_alerts_per_day: input.max_alerts_per_day ?? current.max_alerts_per_day,
      }
      if (next.on_duty && next.latitude === null && current.home_latitude === null) {
        throw badRequest('location required to go on duty')
      }
      await availability.saveAvailability(tx, user.id, next)
      if (widens(current, next)) change.record({ type: 'availability_widened', userId: user.id })
    })
    return toAvailability(await this.#find(user.id))
  }

  async #find (userId: number): Promise<availability.AvailabilityRow> {
    const row = await availability.findAvailability(this.db, userId)
    if (row === undefined) throw notFound(USER_NOT_FOUND)
    return row
  }
}

/**
 * Whether the change may bring requests into the volunteer's reach (docs/api/help.md › Catch-up alerts): going on duty, or, on
 * duty, a new alert point, a wider radius or other kinds. A narrower radius, going off duty, or the same
 * values again do not.
 */
function widens (current: availability.AvailabilityRow, next: availability.AvailabilityValues): boolean {
  if (!next.on_duty) return false
  if (!current.on_duty) return true
  const point = (latitude: number | null, longitude: number | null) =>
    latitude === null ? [current.home_latitude, current.home_longitude] : [latitude, longitude]
  const [was, now] = [point(current.latitude, current.longitude), point(next.latitude, next.longitude)]
  const kinds = (ids: readonly (number | string)[]) => ids.map(Number).sort((a, b) => a - b).join(',')
  return was[0] !== now[0] || was[1] !== now[1] || next.radius_meters > current.radius_meters ||
    kinds(current.request_type_ids) !== kinds(next.request_type_ids)
}
