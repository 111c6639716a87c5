import assert from 'node:assert/strict'
import { uniqueEmail } from '../../../helpers/app.js'
import { assertStatus } from '../../../helpers/assert.js'
import { type Row, UNAUTHORIZED, SESSION_CSRF, sessionCookie, checkOf, recordCheck, everyone, signedIn, moderatorsOnly, adminOnly, homeShownTo, rolesOf, permissionsOf, names } from '../rows.js'

/** Accounts: public sign-in and sessions, the caller's own account, profiles, roles, administration and checks. */
export const ROWS: readonly Row[] = [
  // Public operations: a token, if sent, changes nothing.
  { op: 'GET /', state: 'open', path: () => '/', expect: everyone(200) },
  { op: 'GET /health', state: 'open', path: () => '/health', expect: everyone(200) },
  { op: 'GET /ready', state: 'open', path: () => '/ready', expect: everyone(200) },
  {
    op: 'POST /auth/register',
    state: 'open',
    path: () => '/auth/register',
    body: () => ({ email: uniqueEmail('matrix'), password: 'correct horse battery', first_name: 'New', last_name: 'Account' }),
    expect: everyone(201),
    see: (res, { sent }) => assert.equal(res.body.user.email, (sent as { email: string }).email),
  },
  {
    op: 'POST /auth/login',
    state: 'open',
    path: () => '/auth/login',
    body: async (_s, t) => {
      const account = await t.register()
      return { email: account.email, password: account.password }
    },
    expect: everyone(200),
    see: (res, { sent }) => assert.equal(res.body.user.email, (sent as { email: string }).email),
  },
  { op: 'POST /auth/refresh', state: 'open', path: () => '/auth/refresh', body: async (_s, t) => ({ refresh_token: (await t.register()).refresh }), expect: everyone(200) },
  { op: 'GET /account-settings', state: 'open', path: () => '/account-settings', expect: everyone(200) },
  // The web app's sessions (beyond 1.0.1): open like their /auth twins, each with its CSRF header.
  {
    op: 'POST /session',
    state: 'open',
    path: () => '/session',
    headers: () => SESSION_CSRF,
    body: async (_s, t) => {
      const account = await t.register()
      return { email: account.email, password: account.password }
    },
    expect: everyone(200),
    see: (res, { sent }) => assert.equal(res.body.user.email, (sent as { email: string }).email),
  },
  {
    op: 'POST /session/register',
    state: 'open',
    path: () => '/session/register',
    headers: () => SESSION_CSRF,
    body: () => ({ email: uniqueEmail('matrix'), password: 'correct horse battery', first_name: 'New', last_name: 'Session' }),
    expect: everyone(201),
  },
  { op: 'POST /session/refresh', state: 'open', path: () => '/session/refresh', headers: async (_s, t) => ({ ...SESSION_CSRF, cookie: await sessionCookie(t) }), expect: everyone(200) },
  { op: 'POST /session/logout', state: 'assigned', path: () => '/session/logout', headers: () => SESSION_CSRF, expect: signedIn(200) },
  { op: 'POST /session/logout-everywhere', state: 'assigned', path: () => '/session/logout-everywhere', headers: () => SESSION_CSRF, expect: signedIn(200) },
  // docs/api/accounts.md › Getting back in: asking for a code is open and answers alike for any address; a wrong code is refused alike.
  // The journeys themselves: test/http/recovery*.test.ts.
  { op: 'POST /auth/password-reset', state: 'open', path: () => '/auth/password-reset', body: () => ({ email: uniqueEmail('nobody') }), expect: everyone(202) },
  { op: 'POST /auth/code', state: 'open', path: () => '/auth/code', body: () => ({ email: uniqueEmail('nobody') }), expect: everyone(202) },
  { op: 'POST /auth/password-reset/confirm', state: 'open', path: () => '/auth/password-reset/confirm', body: () => ({ email: uniqueEmail('nobody'), new_password: 'a new password', code: '123456' }), expect: everyone([400, 'invalid or expired code']) },
  { op: 'POST /auth/code/confirm', state: 'open', path: () => '/auth/code/confirm', body: () => ({ email: uniqueEmail('nobody'), code: '123456' }), expect: everyone([400, 'invalid or expired code']) },
  { op: 'POST /session/password-reset/confirm', state: 'open', path: () => '/session/password-reset/confirm', headers: () => SESSION_CSRF, body: () => ({ email: uniqueEmail('nobody'), new_password: 'a new password', code: '123456' }), expect: everyone([400, 'invalid or expired code']) },
  { op: 'POST /session/code/confirm', state: 'open', path: () => '/session/code/confirm', headers: () => SESSION_CSRF, body: () => ({ email: uniqueEmail('nobody'), code: '123456' }), expect: everyone([400, 'invalid or expired code']) },
  // With a wrong current password, so the shared accounts keep theirs.
  { op: 'POST /users/me/password', state: 'assigned', path: () => '/users/me/password', body: () => ({ current_password: 'not the password', new_password: 'a new password' }), expect: signedIn([401, 'invalid credentials']) },
  { op: 'POST /session/password', state: 'assigned', path: () => '/session/password', headers: () => SESSION_CSRF, body: () => ({ current_password: 'not the password', new_password: 'a new password' }), expect: signedIn([401, 'invalid credentials']) },
  // EMAIL_VERIFICATION=self here (the default): there is no code to resend.
  { op: 'POST /users/me/verify-email/resend', state: 'assigned', path: () => '/users/me/verify-email/resend', expect: signedIn([404, 'email verification by code is off']) },

  // The caller's own account: every signed-in caller, acting on themselves only.
  { op: 'GET /auth/me', state: 'assigned', path: () => '/auth/me', expect: signedIn(200), see: (res, { account }) => assert.deepEqual(res.body, { id: account?.id, email: account?.email }) },
  { op: 'POST /auth/logout', state: 'assigned', path: () => '/auth/logout', expect: signedIn(200) },
  { op: 'GET /users/me', state: 'assigned', path: () => '/users/me', expect: signedIn(200), see: (res, { account }) => assert.equal(res.body.id, account?.id) },
  { op: 'PATCH /users/me', state: 'assigned', path: () => '/users/me', body: () => ({ bio: 'Changed by the matrix' }), expect: signedIn(200) },
  { op: 'POST /users/me/location', state: 'assigned', path: () => '/users/me/location', body: () => ({ latitude: 1.5, longitude: 2.5 }), expect: signedIn(200) },
  { op: 'GET /users/me/location', state: 'assigned', path: () => '/users/me/location', expect: signedIn(200), see: (res) => assert.deepEqual(Object.keys(res.body).sort(), ['latitude', 'longitude']) },
  { op: 'POST /users/me/verify-email', state: 'assigned', path: () => '/users/me/verify-email', expect: signedIn(200) },
  // Of the shared accounts the requester, another requester and the assigned volunteer have a mobile phone: a code is texted (to SMS_DIR here).
  { op: 'GET /users/me/phone', state: 'assigned', path: () => '/users/me/phone', expect: signedIn(200), see: (res) => assert.deepEqual(Object.keys(res.body).sort(), ['can_receive_texts', 'phone', 'stopped', 'verified']) },
  { op: 'POST /users/me/phone/verify', state: 'assigned', path: () => '/users/me/phone/verify', expect: signedIn([400, 'no phone number'], { requester: 202, other: 202, assigned: 202 }) },
  { op: 'POST /users/me/phone/verify/confirm', state: 'assigned', path: () => '/users/me/phone/verify/confirm', body: () => ({ code: '123456' }), expect: signedIn([400, 'invalid or expired code']) },
  { op: 'GET /users/me/roles', state: 'assigned', path: () => '/users/me/roles', expect: signedIn(200), see: (res, { actor }) => assert.deepEqual(names(res), rolesOf(actor)) },
  { op: 'GET /users/me/permissions', state: 'assigned', path: () => '/users/me/permissions', expect: signedIn(200), see: (res, { actor }) => assert.deepEqual(names(res), permissionsOf(actor)) },
  {
    op: 'GET /users/me/permissions/{permission_name}/check',
    state: 'assigned',
    path: () => '/users/me/permissions/manage_users/check',
    expect: signedIn(200),
    see: (res, { actor }) => assert.deepEqual(res.body, { has_permission: actor === 'admin', permission_name: 'manage_users' }),
  },

  // Profiles: anyone signed in reads one; phone and address only for docs/api/help.md › Privacy's few.
  { op: 'GET /users/{id}', state: 'open', title: 'of the requester: a pending offer shares nothing yet', path: (s) => `/users/${s.requester.id}`, expect: signedIn(200), see: homeShownTo('requester', 'moderator', 'admin') },
  { op: 'GET /users/{id}', state: 'assigned', title: 'of the requester', path: (s) => `/users/${s.requester.id}`, expect: signedIn(200), see: homeShownTo('requester', 'assigned', 'moderator', 'admin') },
  { op: 'GET /users/{id}', state: 'assigned', title: 'of the assigned volunteer', path: (s) => `/users/${s.assigned.id}`, expect: signedIn(200), see: homeShownTo('assigned', 'requester', 'moderator', 'admin') },
  { op: 'GET /users/{id}', state: 'cancelled', title: 'of the requester: the shared request has ended', path: (s) => `/users/${s.requester.id}`, expect: signedIn(200), see: homeShownTo('requester', 'moderator', 'admin') },

  // Administration: permission manage_users, which moderators lack. The target is the requester,
  // so a requester trying to raise, block or verify themselves is in the matrix too.
  { op: 'GET /roles', state: 'assigned', path: () => '/roles', expect: adminOnly(200) },
  { op: 'POST /admin/users/{user_id}/roles/{role_id}', state: 'pending', path: (s) => `/admin/users/${s.requester.id}/roles/3`, expect: adminOnly(200), mutates: 'user' },
  {
    op: 'GET /admin/users',
    state: 'pending',
    path: (s) => `/admin/users?q=${encodeURIComponent(s.requester.email)}`,
    expect: adminOnly(200),
    see: (res, { s }) => assert.deepEqual(res.body.map((user: { id: number }) => user.id), [s.requester.id]),
  },
  { op: 'DELETE /admin/users/{user_id}/roles/{role_id}', state: 'pending', path: (s) => `/admin/users/${s.requester.id}/roles/1`, expect: adminOnly(200), mutates: 'user' },
  { op: 'POST /admin/users/{id}/block', state: 'pending', path: (s) => `/admin/users/${s.requester.id}/block`, expect: adminOnly(200), mutates: 'user' },
  {
    op: 'POST /admin/users/{id}/unblock',
    state: 'pending',
    path: (s) => `/admin/users/${s.requester.id}/unblock`,
    prepare: async (s, t) => assertStatus(await t.post(`/admin/users/${s.requester.id}/block`, undefined, t.admin.token), 200),
    // The blocked requester's own token no longer counts: they cannot unblock themselves.
    expect: adminOnly(200, { requester: UNAUTHORIZED }),
    mutates: 'user',
  },
  { op: 'POST /admin/users/{id}/verify', state: 'pending', path: (s) => `/admin/users/${s.requester.id}/verify`, expect: adminOnly(200), mutates: 'user' },
  {
    op: 'POST /admin/users/{id}/unverify',
    state: 'pending',
    path: (s) => `/admin/users/${s.requester.id}/unverify`,
    prepare: async (s, t) => assertStatus(await t.post(`/admin/users/${s.requester.id}/verify`, undefined, t.admin.token), 200),
    expect: adminOnly(200),
    mutates: 'user',
  },
  // Checks (docs/api/accounts.md › Checks that vet volunteers): moderators and admins; notes and dates only to them.
  { op: 'POST /admin/users/{id}/checks', state: 'pending', path: (s) => `/admin/users/${s.requester.id}/checks`, body: () => ({ kind: 'training', note: 'course' }), expect: moderatorsOnly(201), mutates: 'user' },
  {
    op: 'GET /admin/users/{id}/checks',
    state: 'assigned',
    path: (s) => `/admin/users/${s.assigned.id}/checks`,
    prepare: async (s, t) => { await recordCheck(t, s.assigned.id) },
    expect: moderatorsOnly(200),
    see: (res) => assert.ok(res.body.length > 0 && res.body.every((check: { note: string }) => check.note === 'matrix check')),
  },
  {
    op: 'POST /admin/users/{id}/checks/{check_id}/revoke',
    state: 'pending',
    path: (s) => `/admin/users/${s.requester.id}/checks/${checkOf.get(s.requester.id) ?? 0}/revoke`,
    prepare: async (s, t) => { checkOf.set(s.requester.id, await recordCheck(t, s.requester.id)) },
    expect: moderatorsOnly(200),
    mutates: 'user',
  },
]
