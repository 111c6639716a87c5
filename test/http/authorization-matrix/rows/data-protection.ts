import assert from 'node:assert/strict'
import { type Row, signedIn } from '../rows.js'

/** Data protection: the caller's access log, export and erasure. */
export const ROWS: readonly Row[] = [
  { op: 'GET /users/me/access-log', state: 'assigned', path: () => '/users/me/access-log', expect: signedIn(200) },
  { op: 'GET /users/me/export', state: 'assigned', path: () => '/users/me/export', expect: signedIn(200), see: (res, { account }) => assert.equal(res.body.profile.id, account?.id) },
  // docs/privacy.md. With a wrong password, so the shared accounts survive; erasure itself: test/http/privacy.test.ts.
  { op: 'DELETE /users/me', state: 'assigned', path: () => '/users/me', body: () => ({ password: 'not the password' }), expect: signedIn([401, 'invalid credentials']) },
]
