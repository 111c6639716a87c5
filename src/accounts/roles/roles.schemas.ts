import { Type, type Static } from 'typebox'
import { PaginationQuery } from '../../http/pagination.js'
import { Id, NullableString } from '../../http/schemas.js'

export const Role = Type.Object({ id: Type.Integer(), name: Type.String(), description: NullableString() })
export const Permission = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  resource: Type.String(),
  action: Type.String(),
  description: NullableString(),
})
export const PermissionCheckResult = Type.Object({ has_permission: Type.Boolean(), permission_name: Type.String() })
export const RoleAssignmentResult = Type.Object({ message: Type.String(), user_id: Type.Integer(), role_id: Type.Integer() })
export type RoleAssignmentResult = Static<typeof RoleAssignmentResult>

/** A user as the administration page lists them (beyond 1.0.1): who they are, their flags and role ids. */
export const AdminUser = Type.Object({
  id: Type.Integer(),
  email: Type.String({ format: 'email' }),
  first_name: Type.String(),
  last_name: Type.String(),
  email_verified: Type.Boolean(),
  is_verified: Type.Boolean(),
  is_blocked: Type.Boolean(),
  role_ids: Type.Array(Type.Integer()),
})
export type AdminUser = Static<typeof AdminUser>

export const AdminUserQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 254, description: 'part of the e-mail address or the name, any case; empty or missing lists everyone' })),
  ...PaginationQuery,
})
export type AdminUserQuery = Static<typeof AdminUserQuery>

export const UserRoleParams = Type.Object({ user_id: Id, role_id: Id })
export const PermissionNameParams = Type.Object({ permission_name: Type.String({ minLength: 1, pattern: '\\S' }) })
