import assert from 'node:assert/strict'
import { uniqueEmail } from '../../../helpers/app.js'
import { type Row, REQUEST_NOT_FOUND, VIEW_REPORTS_REQUIRED, invitationOf, INVITATION_NOT_FOUND, inviteFor, inviteAssigned, signedIn, coordinatorsOnly, listedFor, req, CLIENT, matrixClient, newClient } from '../rows.js'

/** The client a DELETE /clients/{id} cell erases: one per cell. */
let erasableClient = 0

/** On behalf: trusted people, acting for someone, clients, history and reports. */
export const ROWS: readonly Row[] = [
  // docs/api/on-behalf.md › Carers: each caller's own invitations; one of the requester's (to an address without an account) is hers
  // alone to revoke; one to `assigned` his alone to see, accept and decline.
  {
    op: 'POST /users/me/trusted-people',
    state: 'open',
    path: () => '/users/me/trusted-people',
    body: () => ({ email: uniqueEmail('trusted'), can: ['create'] }),
    expect: signedIn(201),
    see: (res) => assert.deepEqual([res.body.name, res.body.status, res.body.can], [null, 'invited', ['create', 'follow']]),
  },
  { op: 'GET /users/me/trusted-people', state: 'open', path: () => '/users/me/trusted-people', expect: signedIn(200) },
  {
    op: 'DELETE /users/me/trusted-people/{id}',
    state: 'open',
    path: (s) => `/users/me/trusted-people/${invitationOf.get(s.requestId)!}`,
    prepare: async (s, t) => await inviteFor(s, t, s.requester, uniqueEmail('revoked')),
    expect: signedIn(INVITATION_NOT_FOUND, { requester: 204 }),
  },
  {
    op: 'GET /users/me/acting-for',
    state: 'open',
    path: () => '/users/me/acting-for',
    prepare: inviteAssigned,
    expect: signedIn(200),
    see: (res, { actor, s }) => assert.equal(res.body.some((i: { id: number }) => i.id === invitationOf.get(s.requestId)), actor === 'assigned'),
  },
  {
    op: 'POST /users/me/acting-for/{id}/accept',
    state: 'open',
    path: (s) => `/users/me/acting-for/${invitationOf.get(s.requestId)!}/accept`,
    prepare: inviteAssigned,
    expect: signedIn(INVITATION_NOT_FOUND, { assigned: 200 }),
  },
  {
    op: 'POST /users/me/acting-for/{id}/decline',
    state: 'open',
    path: (s) => `/users/me/acting-for/${invitationOf.get(s.requestId)!}/decline`,
    prepare: inviteAssigned,
    expect: signedIn(INVITATION_NOT_FOUND, { assigned: 200 }),
  },
  // Another person's requests: only for her carers (test/http/carers.test.ts), refused to everyone else.
  {
    op: 'GET /requests/my',
    title: 'for_user_id',
    state: 'open',
    path: (s) => `/requests/my?for_user_id=${s.requester.id}`,
    expect: signedIn([403, 'not allowed for this person'], { requester: 200 }),
  },
  // docs/api/on-behalf.md › Coordinators and clients: clients and the coordinators' list.
  { op: 'POST /clients', state: 'open', path: () => '/clients', body: () => CLIENT, expect: coordinatorsOnly(201) },
  { op: 'GET /clients', state: 'open', path: () => '/clients?q=Matrix', expect: coordinatorsOnly(200, true) },
  { op: 'GET /clients/{id}', state: 'open', path: () => `/clients/${matrixClient}`, expect: coordinatorsOnly(200, true), see: (res) => assert.equal(res.body.phone, CLIENT.phone) },
  { op: 'PATCH /clients/{id}', state: 'open', path: () => `/clients/${matrixClient}`, body: () => ({ needs: 'help on stairs' }), expect: coordinatorsOnly(200) },
  {
    op: 'DELETE /clients/{id}',
    state: 'open',
    path: () => `/clients/${erasableClient}`,
    prepare: async (_s, t) => { erasableClient = await newClient(t) },
    expect: coordinatorsOnly(200),
  },
  { op: 'GET /requests/coordinated', state: 'open', path: () => '/requests/coordinated', expect: coordinatorsOnly(200), see: listedFor() },
  // docs/api/on-behalf.md › A request's history: its parties only (carers are in test/http/history.test.ts); `assigned` sees its own offer's entries only.
  {
    op: 'GET /requests/{id}/history',
    state: 'open',
    path: (s) => `${req(s)}/history`,
    expect: signedIn(REQUEST_NOT_FOUND, { requester: 200, moderator: 200, admin: 200 }),
  },
  {
    op: 'GET /requests/{id}/history',
    state: 'assigned',
    path: (s) => `${req(s)}/history`,
    expect: signedIn(REQUEST_NOT_FOUND, { requester: 200, assigned: 200, moderator: 200, admin: 200 }),
    see: (res, { actor, s }) => {
      const offers = new Set((res.body as Array<{ details: { response_id?: number } }>).map((e) => e.details.response_id).filter((id) => id !== undefined))
      assert.equal(offers.has(s.responseOf.other ?? 0), actor !== 'assigned', `${actor} sees the other offer's entries`)
    },
  },
  {
    op: 'GET /requests/{id}/history',
    state: 'rejected',
    path: (s) => `${req(s)}/history`,
    expect: signedIn(REQUEST_NOT_FOUND, { requester: 200, moderator: 200, admin: 200 }),
  },
  // docs/api/on-behalf.md › Reports for funders: permission view_reports (admins; managers, whom reports.test.ts tests; not moderators).
  { op: 'GET /reports/summary', state: 'assigned', path: () => '/reports/summary', expect: signedIn(VIEW_REPORTS_REQUIRED, { admin: 200 }) },
  {
    op: 'GET /reports/requests.csv',
    state: 'assigned',
    path: () => '/reports/requests.csv',
    expect: signedIn(VIEW_REPORTS_REQUIRED, { admin: 200 }),
    see: (res) => assert.match(res.text, /^id,created_at,/),
  },
]
