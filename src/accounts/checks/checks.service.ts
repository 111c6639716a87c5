import type { Database } from '../../db/database.js'
import { CHECK_KINDS, type Calendar, type CheckKind } from '../../lib/checks.js'
import { isCalendarDate } from '../../lib/values.js'
import { badRequest, notFound, USER_NOT_FOUND } from '../../lib/errors.js'
import type { Principal } from '../../lib/principal.js'
import * as checks from './checks.repo.js'
import type { Check, NewCheckInput } from './checks.schemas.js'

const isKind = (text: string): text is CheckKind => (CHECK_KINDS as readonly string[]).includes(text)

/**
 * Checks that vet volunteers (docs/api/accounts.md › Checks that vet volunteers), recorded and revoked by moderators and admins (the routes
 * require the role). Nothing here decides validity: the repo's SQL does, against `calendar.today()`.
 */
export class ChecksService {
  constructor (private readonly db: Database, private readonly calendar: Calendar) {}

  async record (moderator: Principal, userId: number, input: NewCheckInput): Promise<Check> {
    if (!isKind(input.kind)) throw badRequest('invalid kind')
    const validUntil = input.valid_until ?? null
    // YYYY-MM-DD compares as text; "before today" is today in TIME_ZONE.
    if (validUntil !== null && (!isCalendarDate(validUntil) || validUntil < this.calendar.today())) throw badRequest('invalid valid_until')
    // An erased account is nobody: it cannot be vetted any more.
    if (!await checks.isActiveUser(this.db, userId)) throw notFound(USER_NOT_FOUND)
    return await checks.insertCheck(this.db, {
      userId, kind: input.kind, note: input.note ?? null, validUntil, verifiedBy: moderator.id, at: this.calendar.now(),
    })
  }

  /** Every check, revoked and expired ones too, newest first; an erased account's stay readable (the safeguarding record). */
  async list (userId: number): Promise<Check[]> {
    if (!await checks.userExists(this.db, userId)) throw notFound(USER_NOT_FOUND)
    return await checks.listChecks(this.db, userId)
  }

  /** Idempotent: revoking a revoked check answers it unchanged. */
  async revoke (userId: number, checkId: number): Promise<Check> {
    if (!await checks.userExists(this.db, userId)) throw notFound(USER_NOT_FOUND)
    const check = await checks.revokeCheck(this.db, userId, checkId, this.calendar.now())
    if (check === undefined) throw notFound('check not found')
    return check
  }
}
