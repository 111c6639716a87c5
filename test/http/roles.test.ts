import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startApp, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'

const ROLES = [
  { id: 1, name: 'volunteer', description: 'Asks for help and offers help' },
  { id: 2, name: 'moderator', description: 'Reviews requests before they are shown to volunteers' },
  { id: 3, name: 'admin', description: 'Manages users and roles' },
  // docs/api/on-behalf.md › Coordinators and clients, › Reports for funders.
  { id: 4, name: 'coordinator', description: 'Asks for help for people without an account (clients) and acts on their requests' },
  { id: 5, name: 'manager', description: 'Reads the reports' },
]

const PERMISSIONS = [
  { id: 1, name: 'create_request', resource: 'requests', action: 'create', description: 'Create help requests' },
  { id: 2, name: 'respond_request', resource: 'responses', action: 'create', description: 'Offer help on requests' },
  { id: 3, name: 'moderate_request', resource: 'requests', action: 'moderate', description: 'Approve or reject requests' },
  { id: 4, name: 'manage_users', resource: 'users', action: 'manage', description: 'Assign roles, block and verify users' },
  { id: 5, name: 'coordinate_requests', resource: 'requests', action: 'coordinate', description: 'Ask for help for clients and act on their requests' },
  { id: 6, name: 'view_reports', resource: 'reports', action: 'view', description: 'Read the summary and download the requests CSV' },
]

for (const engine of engines()) {
  describe(`roles and permissions of the caller (${engine})`, () => {
    let t: TestApp
    before(async () => { t = await startApp(engine) })
    after(() => t.close())

    it('a volunteer holds role volunteer with create_request and respond_request', async () => {
      const account = await t.register()
      const roles = await t.get('/users/me/roles', account.token)
      assertStatus(roles, 200)
      assert.deepEqual(roles.body, [ROLES[0]])
      const permissions = await t.get('/users/me/permissions', account.token)
      assertStatus(permissions, 200)
      assert.deepEqual(permissions.body, PERMISSIONS.slice(0, 2))
    })

    it('a moderator adds moderate_request; an admin holds all six (the union over roles); a coordinator and a manager theirs', async () => {
      const moderator = await t.registerWithRole('moderator')
      assert.deepEqual((await t.get('/users/me/roles', moderator.token)).body, ROLES.slice(0, 2))
      assert.deepEqual((await t.get('/users/me/permissions', moderator.token)).body, PERMISSIONS.slice(0, 3))
      const admin = await t.registerWithRole('admin')
      assert.deepEqual((await t.get('/users/me/roles', admin.token)).body, [ROLES[0], ROLES[2]])
      assert.deepEqual((await t.get('/users/me/permissions', admin.token)).body, PERMISSIONS)
      // docs/api/on-behalf.md: a coordinator also creates requests; a manager only reads reports (beside the volunteer role every account holds).
      const coordinator = await t.registerWithRole('coordinator')
      assert.deepEqual((await t.get('/users/me/permissions', coordinator.token)).body, [...PERMISSIONS.slice(0, 2), PERMISSIONS[4]])
      const manager = await t.registerWithRole('manager')
      assert.deepEqual((await t.get('/users/me/permissions', manager.token)).body, [...PERMISSIONS.slice(0, 2), PERMISSIONS[5]])
    })

    it('permission check answers has_permission and echoes the name', async () => {
      const account = await t.register()
      const cases: Array<[string, boolean]> = [
        ['create_request', true], ['respond_request', true], ['moderate_request', false], ['manage_users', false],
        ['no_such_permission', false], ['Create_Request', false], ['x'.repeat(150), false],
      ]
      for (const [name, held] of cases) {
        const res = await t.get(`/users/me/permissions/${name}/check`, account.token)
        assertStatus(res, 200)
        assert.deepEqual(res.body, { has_permission: held, permission_name: name })
      }
      const admin = await t.get('/users/me/permissions/manage_users/check', t.admin.token)
      assert.deepEqual(admin.body, { has_permission: true, permission_name: 'manage_users' })
      const spaced = await t.get('/users/me/permissions/manage%20users/check', account.token)
      assert.deepEqual(spaced.body, { has_permission: false, permission_name: 'manage users' })
    })

    it('permission check with an empty or blank name is 400 permission_name is required', async () => {
      const account = await t.register()
      assertError(await t.get('/users/me/permissions//check', account.token), 400, 'permission_name is required')
      assertError(await t.get('/users/me/permissions/%20%20/check', account.token), 400, 'permission_name is required')
    })

    it('a role given by an admin counts at once, on the same token', async () => {
      const account = await t.register()
      assertError(await t.get('/roles', account.token), 403, 'admin role required')
      assertStatus(await t.post(`/admin/users/${account.id}/roles/3`, undefined, t.admin.token), 200)
      assert.equal((await t.get('/users/me/permissions/manage_users/check', account.token)).body.has_permission, true)
      assertStatus(await t.get('/roles', account.token), 200)
    })

    it('roles, permissions and check without a token are 401 unauthorized', async () => {
      assertError(await t.get('/users/me/roles'), 401, 'unauthorized')
      assertError(await t.get('/users/me/permissions'), 401, 'unauthorized')
      assertError(await t.get('/users/me/permissions/create_request/check'), 401, 'unauthorized')
    })
  })

  describe(`administration: role assignment and the extensions (${engine})`, () => {
    let t: TestApp
    before(async () => { t = await startApp(engine) })
    after(() => t.close())

    it('POST /admin/users/{user_id}/roles/{role_id} assigns a role and answers a RoleAssignmentResult', async () => {
      const account = await t.register()
      const res = await t.post(`/admin/users/${account.id}/roles/2`, undefined, t.admin.token)
      assertStatus(res, 200)
      assert.deepEqual(res.body, { message: 'role assigned', user_id: account.id, role_id: 2 })
      assert.deepEqual((await t.get('/users/me/roles', account.token)).body.map((role: any) => role.name), ['volunteer', 'moderator'])
      const [row] = await t.db.query('SELECT assigned_by FROM user_roles WHERE user_id = $1 AND role_id = 2', [account.id])
      assert.deepEqual(row, { assigned_by: t.admin.id })
    })

    it('assigning a role the user already holds succeeds and changes nothing', async () => {
      const account = await t.register()
      for (let i = 0; i < 2; i++) {
        const res = await t.post(`/admin/users/${account.id}/roles/1`, undefined, t.admin.token)
        assertStatus(res, 200)
        assert.deepEqual(res.body, { message: 'role assigned', user_id: account.id, role_id: 1 })
      }
      assert.deepEqual((await t.get('/users/me/roles', account.token)).body.map((role: any) => role.name), ['volunteer'])
    })

    it('role assignment needs manage_users: 403 admin role required for volunteers and moderators, 401 without a token', async () => {
      const volunteer = await t.register()
      const moderator = await t.registerWithRole('moderator')
      for (const caller of [volunteer, moderator]) {
        assertError(await t.post(`/admin/users/${volunteer.id}/roles/3`, undefined, caller.token), 403, 'admin role required')
      }
      assertError(await t.post(`/admin/users/${volunteer.id}/roles/3`), 401, 'unauthorized')
      assert.deepEqual((await t.get('/users/me/roles', volunteer.token)).body.map((role: any) => role.name), ['volunteer'])
    })

    it('role assignment: non-numeric ids are 400, unknown user or role 404', async () => {
      const account = await t.register()
      assertError(await t.post('/admin/users/abc/roles/1', undefined, t.admin.token), 400, 'invalid user_id')
      assertError(await t.post('/admin/users/0/roles/1', undefined, t.admin.token), 400, 'invalid user_id')
      assertError(await t.post(`/admin/users/${account.id}/roles/x`, undefined, t.admin.token), 400, 'invalid role_id')
      assertError(await t.post(`/admin/users/${account.id}/roles/1.5`, undefined, t.admin.token), 400, 'invalid role_id')
      assertError(await t.post('/admin/users/987654321/roles/1', undefined, t.admin.token), 404, 'user not found')
      assertError(await t.post(`/admin/users/${account.id}/roles/99`, undefined, t.admin.token), 404, 'role not found')
      assertError(await t.post('/admin/users/987654321/roles/99', undefined, t.admin.token), 404, 'user not found')
    })

    it('GET /roles lists every role, for admins only (extension)', async () => {
      const res = await t.get('/roles', t.admin.token)
      assertStatus(res, 200)
      assert.deepEqual(res.body, ROLES)
      const volunteer = await t.register()
      assertError(await t.get('/roles', volunteer.token), 403, 'admin role required')
      assertError(await t.get('/roles', (await t.registerWithRole('moderator')).token), 403, 'admin role required')
      assertError(await t.get('/roles'), 401, 'unauthorized')
    })

    it('DELETE /admin/users/{user_id}/roles/{role_id} takes a role away; the change counts at once', async () => {
      const account = await t.registerWithRole('admin')
      assertStatus(await t.get('/roles', account.token), 200)
      const res = await t.delete(`/admin/users/${account.id}/roles/3`, t.admin.token)
      assertStatus(res, 200)
      assert.deepEqual(res.body, { message: 'role removed', user_id: account.id, role_id: 3 })
      assert.deepEqual((await t.get('/users/me/roles', account.token)).body.map((role: any) => role.name), ['volunteer'])
      assertError(await t.get('/roles', account.token), 403, 'admin role required')
      // Not held any more: removing it again still succeeds.
      assertStatus(await t.delete(`/admin/users/${account.id}/roles/3`, t.admin.token), 200)
    })

    it('DELETE role: 400 for bad ids, 404 for unknown user or role, 403 and 401 for non-admins', async () => {
      const account = await t.register()
      assertError(await t.delete('/admin/users/abc/roles/1', t.admin.token), 400, 'invalid user_id')
      assertError(await t.delete(`/admin/users/${account.id}/roles/-2`, t.admin.token), 400, 'invalid role_id')
      assertError(await t.delete('/admin/users/987654321/roles/1', t.admin.token), 404, 'user not found')
      assertError(await t.delete(`/admin/users/${account.id}/roles/42`, t.admin.token), 404, 'role not found')
      assertError(await t.delete(`/admin/users/${account.id}/roles/1`, account.token), 403, 'admin role required')
      assertError(await t.delete(`/admin/users/${account.id}/roles/1`), 401, 'unauthorized')
    })

    it('taking the volunteer role takes its permissions', async () => {
      const account = await t.register()
      assertStatus(await t.delete(`/admin/users/${account.id}/roles/1`, t.admin.token), 200)
      assert.deepEqual((await t.get('/users/me/roles', account.token)).body, [])
      assert.deepEqual((await t.get('/users/me/permissions', account.token)).body, [])
    })

    it('POST /admin/users/{id}/block and /unblock (extension)', async () => {
      const account = await t.register()
      const blocked = await t.post(`/admin/users/${account.id}/block`, undefined, t.admin.token)
      assertStatus(blocked, 200)
      assert.deepEqual(blocked.body, { message: 'user blocked' })
      assert.equal((await t.get(`/users/${account.id}`, t.admin.token)).body.is_blocked, true)
      assertError(await t.get('/users/me', account.token), 401, 'unauthorized')
      assertError(await t.post('/auth/login', { email: account.email, password: account.password }), 401, 'account is blocked')
      // Blocking twice is fine.
      assertStatus(await t.post(`/admin/users/${account.id}/block`, undefined, t.admin.token), 200)
      const unblocked = await t.post(`/admin/users/${account.id}/unblock`, undefined, t.admin.token)
      assertStatus(unblocked, 200)
      assert.deepEqual(unblocked.body, { message: 'user unblocked' })
      assert.equal((await t.get(`/users/${account.id}`, t.admin.token)).body.is_blocked, false)
      assertStatus(await t.post('/auth/login', { email: account.email, password: account.password }), 200)
    })

    it('an admin cannot block themselves: 400 cannot block yourself', async () => {
      assertError(await t.post(`/admin/users/${t.admin.id}/block`, undefined, t.admin.token), 400, 'cannot block yourself')
      assertStatus(await t.get('/roles', t.admin.token), 200)
    })

    it('block, unblock and verify: 400 invalid user id, 404 user not found, 403 and 401 for non-admins', async () => {
      const volunteer = await t.register()
      const moderator = await t.registerWithRole('moderator')
      for (const action of ['block', 'unblock', 'verify']) {
        assertError(await t.post(`/admin/users/abc/${action}`, undefined, t.admin.token), 400, 'invalid user id')
        assertError(await t.post(`/admin/users/0/${action}`, undefined, t.admin.token), 400, 'invalid user id')
        assertError(await t.post(`/admin/users/987654321/${action}`, undefined, t.admin.token), 404, 'user not found')
        assertError(await t.post(`/admin/users/${volunteer.id}/${action}`, undefined, volunteer.token), 403, 'admin role required')
        assertError(await t.post(`/admin/users/${volunteer.id}/${action}`, undefined, moderator.token), 403, 'admin role required')
        assertError(await t.post(`/admin/users/${volunteer.id}/${action}`), 401, 'unauthorized')
      }
      assert.equal((await t.get('/users/me', volunteer.token)).body.is_verified, false)
    })

    it('POST /admin/users/{id}/verify marks the user identity-verified (extension)', async () => {
      const account = await t.register()
      const res = await t.post(`/admin/users/${account.id}/verify`, undefined, t.admin.token)
      assertStatus(res, 200)
      assert.deepEqual(res.body, { message: 'user verified' })
      assert.equal((await t.get('/users/me', account.token)).body.is_verified, true)
      assert.equal((await t.get(`/users/${account.id}`, (await t.register()).token)).body.is_verified, true)
      assertStatus(await t.post(`/admin/users/${account.id}/verify`, undefined, t.admin.token), 200)
    })
  })

  describe(`administration: the last admin keeps the admin role (${engine})`, () => {
    let t: TestApp
    before(async () => { t = await startApp(engine) })
    after(() => t.close())

    it('removing the admin role from the only admin is 400 cannot remove the last admin', async () => {
      assertError(await t.delete(`/admin/users/${t.admin.id}/roles/3`, t.admin.token), 400, 'cannot remove the last admin')
      assertStatus(await t.get('/roles', t.admin.token), 200)
    })

    it('two admins taking the role from each other at once: exactly one succeeds, one admin remains', async () => {
      const other = await t.registerWithRole('admin')
      const [first, second] = await Promise.all([
        t.delete(`/admin/users/${other.id}/roles/3`, t.admin.token),
        t.delete(`/admin/users/${t.admin.id}/roles/3`, other.token),
      ])
      const statuses = [first!.status, second!.status]
      assert.equal(statuses.filter((status) => status === 200).length, 1, `got ${first!.text} and ${second!.text}`)
      const loser = first!.status === 200 ? second! : first!
      // The loser was either refused by the guard, or found it was no longer an admin by the time it was checked.
      assert.ok(['cannot remove the last admin', 'admin role required'].includes(loser.body.error), loser.text)
      const admins = await t.db.query('SELECT user_id FROM user_roles WHERE role_id = 3')
      assert.equal(admins.length, 1)
    })
  })
}
