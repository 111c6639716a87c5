import type { ScryptParams } from '../../lib/passwords.js'
import type { Database, Queryable } from '../../db/database.js'
import type { Changes } from '../../events/dispatcher.js'
import type { Calendar } from '../../lib/checks.js'
import { normaliseEmail } from '../../lib/email.js'
import { badRequest, notFound, USER_NOT_FOUND } from '../../lib/errors.js'
import { hashPassword } from '../../lib/passwords.js'
import type { Page } from '../../lib/page.js'
import type { Principal, PrincipalForgetter } from '../../lib/principal.js'
import * as checks from '../checks/checks.repo.js'
import { ensureUser, isActiveUser, searchUsers, setFlag, userExists } from '../users/users.repo.js'
import * as roles from './roles.repo.js'
import type { AdminUser, RoleAssignmentResult } from './roles.schemas.js'

export class RolesService {
  constructor (
    private readonly db: Database,
    private readonly changes: Changes,
    private readonly principals: PrincipalForgetter,
    /** Today in TIME_ZONE, which decides whose identity check is valid (is_verified). */
    private readonly calendar: Calendar
  ) {}

  listRoles (): Promise<roles.RoleRow[]> {
    return roles.listRoles(this.db)
  }

  rolesOf (user: Principal): Promise<roles.RoleRow[]> {
    return roles.rolesOfUser(this.db, user.id)
  }

  permissionsOf (user: Principal): Promise<roles.PermissionRow[]> {
    return roles.permissionsOfUser(this.db, user.id)
  }

  /** Read from the database rather than the cached principal, so the answer is never stale. */
  async checkPermission (user: Principal, name: string): Promise<{ has_permission: boolean, permission_name: string }> {
    const held = await roles.permissionsOfUser(this.db, user.id)
    return { has_permission: held.some((permission) => permission.name === name), permission_name: name }
  }

  async assignRole (admin: Principal, userId: number, roleId: number): Promise<RoleAssignmentResult> {
    await this.db.transaction(async (tx) => {
      await this.#mustExist(tx, userId, roleId)
      await roles.grantRole(tx, userId, roleId, admin.id)
    })
    this.principals.forget(userId)
    return { message: 'role assigned', user_id: userId, role_id: roleId }
  }

  /** Removing a role the user does not hold succeeds; removing the last admin's admin role does not. */
  async removeRole (userId: number, roleId: number): Promise<RoleAssignmentResult> {
    await this.db.transaction(async (tx) => {
      await this.#mustExist(tx, userId, roleId)
      if (roleId === roles.ADMIN_ROLE_ID) {
        const admins = await roles.lockAdmins(tx)
        if (admins.length === 1 && admins[0] === userId) throw badRequest('cannot remove the last admin')
      }
      await roles.revokeRole(tx, userId, roleId)
    })
    this.principals.forget(userId)
    return { message: 'role removed', user_id: userId, role_id: roleId }
  }

  /** Blocking also ends every session: the reaction revokes refresh tokens, access tokens fail within the cache TTL. */
  async setBlocked (admin: Principal, userId: number, blocked: boolean): Promise<void> {
    if (blocked && admin.id === userId) throw badRequest('cannot block yourself')
    await this.changes.run(admin.id, async (tx, change) => {
      if (!await setFlag(tx, userId, 'is_blocked', blocked)) throw notFound(USER_NOT_FOUND)
      if (blocked) change.record({ type: 'user_blocked', userId })
    })
    this.principals.forget(userId)
  }

  /** Users whose e-mail or name contains `text`, for the administration page. */
  async findUsers (text: string, page: Page): Promise<AdminUser[]> {
    const rows = await searchUsers(this.db, text.trim(), page, this.calendar.today())
    return rows.map(({ checks: kinds, ...row }) => ({ ...row, is_verified: kinds.includes('identity') }))
  }

  /**
   * is_verified is derived from checks (docs/api/accounts.md › Checks that vet volunteers): verifying records an identity check without expiry,
   * unless the user holds one already (so verifying twice records one).
   */
  async verifyIdentity (admin: Principal, userId: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (!await isActiveUser(tx, userId)) throw notFound(USER_NOT_FOUND)
      if (await checks.holdsLastingIdentityCheck(tx, userId)) return
      await checks.insertCheck(tx, { userId, kind: 'identity', note: null, validUntil: null, verifiedBy: admin.id, at: this.calendar.now() })
    })
  }

  /** Every valid identity check of the user is revoked, so is_verified turns false. */
  async unverifyIdentity (userId: number): Promise<void> {
    if (!await userExists(this.db, userId)) throw notFound(USER_NOT_FOUND)
    await checks.revokeValidIdentityChecks(this.db, userId, this.calendar.today(), this.calendar.now())
  }

  async #mustExist (db: Queryable, userId: number, roleId: number): Promise<void> {
    if (!await userExists(db, userId)) throw notFound(USER_NOT_FOUND)
    if (!await roles.roleExists(db, roleId)) throw notFound('role not found')
  }
}

/**
 * Makes sure the account exists and holds the admin role (docs/api/accounts.md › Roles and permissions).
 * Idempotent and safe when several instances run it at once: every write is an upsert.
 * An existing account keeps its password, names and blocked flag; it gains roles volunteer and admin.
 */
export async function ensureAdmin (db: Database, email: string, password: string, scrypt: ScryptParams): Promise<{ id: number, created: boolean }> {
  const stored = normaliseEmail(email)
  const passwordHash = await hashPassword(password, scrypt)
  return await db.transaction(async (tx) => {
    const { id, created } = await ensureUser(tx, { email: stored, password_hash: passwordHash, first_name: 'Service', last_name: 'Administrator', email_verified: true })
    await roles.grantRole(tx, id, roles.VOLUNTEER_ROLE_ID, null)
    await roles.grantRole(tx, id, roles.ADMIN_ROLE_ID, null)
    return { id, created }
  })
}
