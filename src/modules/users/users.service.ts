import type { Database } from '../../db/database.js'
import type { Changes } from '../../events/dispatcher.js'
import { notFound, USER_NOT_FOUND } from '../../lib/errors.js'
import { isModerator, type Principal } from '../../lib/principal.js'
import * as users from './users.repo.js'
import type { HomeLocation, LocationInput, UpdateProfileInput, UserProfile } from './users.schemas.js'

function toProfile (row: users.ProfileRow, showContact: boolean): UserProfile {
  return {
    id: row.id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    phone: showContact ? row.phone : null,
    bio: row.bio,
    avatar_url: row.avatar_url,
    address: showContact ? row.address : null,
    city: row.city,
    volunteer_rating: row.volunteer_rating,
    completed_requests_count: row.completed_requests_count,
    is_verified: row.is_verified,
    is_blocked: row.is_blocked,
    email_verified: row.email_verified,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

export class UsersService {
  constructor (private readonly db: Database, private readonly changes: Changes) {}

  async me (user: Principal): Promise<UserProfile> {
    const row = await users.findProfile(this.db, user.id)
    if (row === undefined) throw notFound(USER_NOT_FOUND)
    return toProfile(row, true)
  }

  /** Phone and address only for the user, moderators/admins, and the other side of a shared in_progress request. */
  async profile (viewer: Principal, id: number): Promise<UserProfile> {
    const row = await users.findProfileFor(this.db, id, viewer.id)
    if (row === undefined) throw notFound(USER_NOT_FOUND)
    return toProfile(row, viewer.id === id || isModerator(viewer) || row.shares_active_request)
  }

  async update (user: Principal, input: UpdateProfileInput): Promise<void> {
    const changes: users.ProfileChanges = {}
    for (const field of users.EDITABLE_PROFILE_FIELDS) {
      if (input[field] !== undefined) changes[field] = input[field]
    }
    if (!await users.updateProfile(this.db, user.id, changes)) throw notFound(USER_NOT_FOUND)
  }

  async setLocation (user: Principal, input: LocationInput): Promise<void> {
    // The home location is the alert point of a volunteer without one of their own: the reaction moves it too.
    await this.changes.run(user.id, async (tx, change) => {
      await users.updateLocation(tx, user.id, input.latitude, input.longitude)
      change.record({ type: 'home_location_changed', userId: user.id })
    })
  }

  async location (user: Principal): Promise<HomeLocation> {
    const row = await users.findLocation(this.db, user.id)
    if (row === undefined) throw notFound(USER_NOT_FOUND)
    return { latitude: row.latitude, longitude: row.longitude }
  }

  async verifyEmail (user: Principal): Promise<void> {
    await users.markEmailVerified(this.db, user.id)
  }
}
