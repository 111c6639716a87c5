import type { Database } from '../../db/database.js'
import type { Changes } from '../../events/dispatcher.js'
import type { Calendar } from '../../lib/checks.js'
import type { AccessField, NewAccessRecord } from '../access/access.repo.js'
import type { AccessRecorder } from '../access/access.recorder.js'
import { badRequest, notFound, USER_NOT_FOUND } from '../../lib/errors.js'
import { parseCapabilities, parseLanguages } from '../../lib/matching-values.js'
import { initialOf } from '../../lib/names.js'
import { isModerator, type Principal } from '../../lib/principal.js'
import { deleteCode } from '../auth/auth.repo.js'
import * as users from './users.repo.js'
import type { HomeLocation, LocationInput, UpdateProfileInput, UserProfile } from './users.schemas.js'

/** A volunteer may speak more languages than a request lists (at most 5). */
const MAX_PROFILE_LANGUAGES = 10
const badRequestThrown = (text: string): never => { throw badRequest(text) }

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
    is_verified: row.checks.includes('identity'),
    is_blocked: row.is_blocked,
    email_verified: row.email_verified,
    checks: row.checks,
    locale: row.locale,
    capabilities: row.capabilities,
    languages: row.languages,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

/** What showing this profile to `viewer` reveals: its phone and address when not empty, under the role that allowed it. */
function profileReveal (viewer: Principal, row: users.ProfileRow & users.SharedRequest): NewAccessRecord[] {
  const fields: AccessField[] = [...(row.phone !== null ? ['phone' as const] : []), ...(row.address !== null ? ['address' as const] : [])]
  if (fields.length === 0) return []
  // The shared request names the view when there is one; a moderator's or admin's own role otherwise (docs/privacy.md › Access records).
  const side = row.shared_request_id !== null ? row.viewer_side : null
  const role = side ?? (viewer.roles.includes('admin') ? 'admin' : 'moderator')
  return [{ kind: 'profile', viewerId: viewer.id, ownerId: row.id, requestId: side !== null ? row.shared_request_id : null, viewerRole: role, fields }]
}

/**
 * Under ADDRESS_PRIVACY=parties a profile's last name and e-mail are kept from those who may not see its
 * contact details, as a request's requester is (docs/privacy.md › `ADDRESS_PRIVACY=parties`): otherwise "Erna S." on a request would be
 * undone by reading `GET /users/{requester_id}`.
 */
function withNameFor (profile: UserProfile, shown: boolean, addressPrivacy: 'full' | 'parties'): UserProfile {
  return shown || addressPrivacy === 'full' ? profile : { ...profile, last_name: initialOf(profile.last_name), email: null }
}

export class UsersService {
  /** `calendar`: today in TIME_ZONE, which decides which checks are valid. */
  constructor (private readonly db: Database, private readonly changes: Changes, private readonly calendar: Calendar,
    private readonly access: AccessRecorder, private readonly addressPrivacy: 'full' | 'parties' = 'full') {}

  async me (user: Principal): Promise<UserProfile> {
    const row = await users.findProfile(this.db, user.id, this.calendar.today())
    if (row === undefined) throw notFound(USER_NOT_FOUND)
    // docs/privacy.md › Needs and gender: the person's own profile is the one answer besides the export that holds their gender.
    return { ...toProfile(row, true), gender: row.gender }
  }

  /**
   * Phone and address only for the user, moderators/admins, and the other side of a shared in_progress
   * request; shown to anyone but the user, they are recorded before the answer leaves (docs/privacy.md › Access records). Under
   * ADDRESS_PRIVACY=parties the others get the last name's initial and no e-mail (withNameFor).
   */
  async profile (viewer: Principal, id: number): Promise<UserProfile> {
    const row = await users.findProfileFor(this.db, id, viewer.id, this.calendar.today())
    if (row === undefined) throw notFound(USER_NOT_FOUND)
    const shown = viewer.id === id || isModerator(viewer) || row.shared_request_id !== null
    if (shown && viewer.id !== id) await this.access.record(profileReveal(viewer, row), this.calendar.now())
    return withNameFor(toProfile(row, shown), shown, this.addressPrivacy)
  }

  async update (user: Principal, input: UpdateProfileInput): Promise<void> {
    const changes: users.ProfileChanges = {}
    for (const field of users.EDITABLE_PROFILE_FIELDS) {
      if (input[field] !== undefined) changes[field] = input[field]
    }
    if (input.capabilities !== undefined) changes.capabilities = parseCapabilities(input.capabilities) ?? badRequestThrown('invalid capabilities')
    if (input.languages !== undefined) changes.languages = parseLanguages(input.languages, MAX_PROFILE_LANGUAGES) ?? badRequestThrown('invalid languages')
    const found = await this.db.transaction(async (tx) => {
      const updated = await users.updateProfile(tx, user.id, changes)
      // A code texted to the old number must not confirm the new one (docs/api/messaging.md › Texts).
      if (updated?.phoneChanged === true) await deleteCode(tx, user.id, 'verify_phone')
      return updated !== undefined
    })
    if (!found) throw notFound(USER_NOT_FOUND)
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
