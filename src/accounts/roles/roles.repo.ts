import { maybeOne, type Queryable } from '../../db/database.js'
import { sql } from '../../db/sql.js'

export interface RoleRow { id: number, name: string, description: string | null }
export interface PermissionRow { id: number, name: string, resource: string, action: string, description: string | null }
export interface PrincipalRow { is_blocked: boolean, roles: string[], permissions: string[] }

export const ADMIN_ROLE_ID = 3
export const MODERATOR_ROLE_ID = 2
export const VOLUNTEER_ROLE_ID = 1

export function listRoles (db: Queryable): Promise<RoleRow[]> {
  return db.query<RoleRow>(/* sql */ 'SELECT id, name, description FROM roles ORDER BY id')
}

export function rolesOfUser (db: Queryable, userId: number): Promise<RoleRow[]> {
  return db.query<RoleRow>(sql`
    SELECT r.id, r.name, r.description
    FROM user_roles ur JOIN roles r ON r.id = ur.role_id
    WHERE ur.user_id = ${userId} ORDER BY r.id`)
}

/** A user's permissions: the union over their roles. */
export function permissionsOfUser (db: Queryable, userId: number): Promise<PermissionRow[]> {
  return db.query<PermissionRow>(sql`
    SELECT DISTINCT p.id, p.name, p.resource, p.action, p.description
    FROM user_roles ur JOIN role_permissions rp ON rp.role_id = ur.role_id JOIN permissions p ON p.id = rp.permission_id
    WHERE ur.user_id = ${userId} ORDER BY p.id`)
}

/** Everything authorisation needs about a user, in one round trip; an erased account is nobody (docs/privacy.md › Erasure). */
export function findPrincipal (db: Queryable, userId: number): Promise<PrincipalRow | undefined> {
  return maybeOne<PrincipalRow>(db, sql`
    SELECT u.is_blocked,
      COALESCE(ARRAY(SELECT r.name FROM user_roles ur JOIN roles r ON r.id = ur.role_id
                     WHERE ur.user_id = u.id ORDER BY r.id), '{}') AS roles,
      COALESCE(ARRAY(SELECT DISTINCT p.name FROM user_roles ur
                       JOIN role_permissions rp ON rp.role_id = ur.role_id
                       JOIN permissions p ON p.id = rp.permission_id
                     WHERE ur.user_id = u.id), '{}') AS permissions
    FROM users u WHERE u.id = ${userId} AND u.erased_at IS NULL`)
}

export async function roleExists (db: Queryable, roleId: number): Promise<boolean> {
  return (await maybeOne(db, sql`SELECT 1 FROM roles WHERE id = ${roleId}`)) !== undefined
}

/** Idempotent: holding the role already is not an error (docs/api/accounts.md › Roles and permissions). */
export async function grantRole (db: Queryable, userId: number, roleId: number, assignedBy: number | null): Promise<void> {
  await db.query(sql`
    INSERT INTO user_roles (user_id, role_id, assigned_by) VALUES (${userId}, ${roleId}, ${assignedBy})
    ON CONFLICT (user_id, role_id) DO NOTHING`)
}

/** True when the user held the role. */
export async function revokeRole (db: Queryable, userId: number, roleId: number): Promise<boolean> {
  const rows = await db.query(sql`DELETE FROM user_roles WHERE user_id = ${userId} AND role_id = ${roleId} RETURNING user_id`)
  return rows.length > 0
}

/** Holders of the admin role, locked so that two admins cannot remove each other at the same moment. */
export async function lockAdmins (db: Queryable): Promise<number[]> {
  const rows = await db.query<{ user_id: number }>(
    sql`SELECT user_id FROM user_roles WHERE role_id = ${ADMIN_ROLE_ID} ORDER BY user_id FOR UPDATE`)
  return rows.map((row) => row.user_id)
}

/** Whether anyone holds the admin role (start-up says how to make the first one when nobody does). */
export async function hasAdmin (db: Queryable): Promise<boolean> {
  const rows = await db.query(sql`SELECT 1 FROM user_roles WHERE role_id = ${ADMIN_ROLE_ID} LIMIT 1`)
  return rows.length > 0
}

/** Erasure (docs/privacy.md › Erasure): an erased account holds no role, so it never counts as an admin or moderator. */
export async function revokeAllRoles (db: Queryable, userId: number): Promise<void> {
  await db.query(sql`DELETE FROM user_roles WHERE user_id = ${userId}`)
}
