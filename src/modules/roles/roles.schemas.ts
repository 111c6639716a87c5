import { Type, type Static } from 'typebox'
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

export const UserRoleParams = Type.Object({ user_id: Id, role_id: Id })
export const PermissionNameParams = Type.Object({ permission_name: Type.String({ minLength: 1, pattern: '\\S' }) })
