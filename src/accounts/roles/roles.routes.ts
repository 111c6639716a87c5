import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { parsePage } from '../../http/pagination.js'
import { errors, idParams, Message } from '../../http/schemas.js'
import type { Principal } from '../../lib/principal.js'
import type { RolesService } from './roles.service.js'
import { AdminUser, AdminUserQuery, Permission, PermissionCheckResult, PermissionNameParams, Role, RoleAssignmentResult, UserRoleParams } from './roles.schemas.js'

const userRoleMessages = { user_id: 'invalid user_id', role_id: 'invalid role_id' }

export const rolesRoutes: FastifyPluginAsyncTypebox<{ roles: RolesService }> = async (app, { roles }) => {
  app.get('/users/me/roles', {
    schema: { tags: ['users'], summary: 'Own roles', response: { 200: Type.Array(Role), ...errors(401, 500) } },
    config: { auth: 'user', failure: 'failed to get roles' },
  }, (request) => roles.rolesOf(request.user))

  app.get('/users/me/permissions', {
    schema: { tags: ['users'], summary: 'Own permissions (the union over own roles)', response: { 200: Type.Array(Permission), ...errors(401, 500) } },
    config: { auth: 'user', failure: 'failed to get permissions' },
  }, (request) => roles.permissionsOf(request.user))

  app.get('/users/me/permissions/:permission_name/check', {
    schema: {
      tags: ['users'],
      summary: 'Whether the caller holds one permission',
      params: PermissionNameParams,
      response: { 200: PermissionCheckResult, ...errors(400, 401, 500) },
    },
    config: { auth: 'user', failure: 'failed to check permission', messages: { 'permission_name:minLength': 'permission_name is required', 'permission_name:pattern': 'permission_name is required' } },
  }, (request) => roles.checkPermission(request.user, request.params.permission_name))

  app.post('/admin/users/:user_id/roles/:role_id', {
    schema: { tags: ['admin'], summary: 'Give a user a role', params: UserRoleParams, response: { 200: RoleAssignmentResult, ...errors(400, 401, 403, 404) } },
    config: { auth: 'admin', messages: userRoleMessages },
  }, (request) => roles.assignRole(request.user, request.params.user_id, request.params.role_id))

  // Extensions beyond interface 1.0.1 (docs/api/accounts.md › Roles and permissions).
  app.get('/roles', {
    schema: { tags: ['admin'], summary: 'All roles', response: { 200: Type.Array(Role), ...errors(401, 403, 500) } },
    config: { auth: 'admin', extension: true, failure: 'failed to get roles' },
  }, () => roles.listRoles())

  app.get('/admin/users', {
    schema: {
      tags: ['admin'],
      summary: 'Find users by part of their e-mail address or name',
      description: 'Any case; oldest account first; each with its flags and the ids of its roles.',
      querystring: AdminUserQuery,
      response: { 200: Type.Array(AdminUser), ...errors(400, 401, 403, 500) },
    },
    config: { auth: 'admin', extension: true, failure: 'failed to find users', messages: { q: 'q must be at most 254 characters long' } },
  }, (request) => roles.findUsers(request.query.q ?? '', parsePage(request.query)))

  app.delete('/admin/users/:user_id/roles/:role_id', {
    schema: {
      tags: ['admin'],
      summary: 'Take a role from a user',
      description: 'Succeeds when the user does not hold the role. The last admin cannot lose the admin role.',
      params: UserRoleParams,
      response: { 200: RoleAssignmentResult, ...errors(400, 401, 403, 404) },
    },
    config: { auth: 'admin', extension: true, messages: userRoleMessages },
  }, (request) => roles.removeRole(request.params.user_id, request.params.role_id))

  const userFlag = (path: string, summary: string, message: string, run: (admin: Principal, id: number) => Promise<void>) =>
    app.post(path, {
      schema: { tags: ['admin'], summary, params: idParams('id'), response: { 200: Message, ...errors(400, 401, 403, 404) } },
      config: { auth: 'admin', extension: true, messages: { id: 'invalid user id' } },
    }, async (request) => {
      await run(request.user, request.params.id)
      return { message }
    })

  userFlag('/admin/users/:id/block', 'Block a user: login, refresh and access tokens stop working', 'user blocked',
    (admin, id) => roles.setBlocked(admin, id, true))
  userFlag('/admin/users/:id/unblock', 'Unblock a user', 'user unblocked', (admin, id) => roles.setBlocked(admin, id, false))
  userFlag('/admin/users/:id/verify', 'Mark a user identity-verified: records an identity check without expiry (docs/api/accounts.md › Checks that vet volunteers)', 'user verified',
    (admin, id) => roles.verifyIdentity(admin, id))
  userFlag('/admin/users/:id/unverify', 'Remove identity verification: revokes every valid identity check (docs/api/accounts.md › Checks that vet volunteers)', 'user unverified',
    (_admin, id) => roles.unverifyIdentity(id))
}
