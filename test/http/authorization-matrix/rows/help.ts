import assert from 'node:assert/strict'
import { REQUEST_INPUT } from '../../../helpers/lifecycle.js'
import { type Row, REQUEST_NOT_FOUND, SIGNED_IN, adminOnly, everyone, signedIn, moderatorsOnly, contactShownTo, listedFor, markedFor, responsesSeen, CONCERN_TEXT, raisedConcern, raiseConcern, req, nearby, bounds, map } from '../rows.js'

/** Help: request types, availability, requests, moderation, concerns and responses. */
export const ROWS: readonly Row[] = [
  { op: 'GET /request-types', state: 'open', path: () => '/request-types', expect: everyone(200) },
  // docs/api/visits.md › Needs and matching: admins set a type's default needs.
  { op: 'PATCH /request-types/{id}', state: 'open', path: () => '/request-types/1', body: () => ({ default_needs: [] }), expect: adminOnly(200) },
  { op: 'GET /map-settings', state: 'open', path: () => '/map-settings', expect: everyone(200) },
  { op: 'GET /needs', state: 'open', path: () => '/needs', expect: everyone(200), see: (res) => assert.equal(res.body.length, 6) },
  { op: 'GET /users/me/availability', state: 'assigned', path: () => '/users/me/availability', expect: signedIn(200) },
  { op: 'PUT /users/me/availability', state: 'assigned', path: () => '/users/me/availability', body: () => ({ radius_meters: 3000 }), expect: signedIn(200) },
  // Requests.
  {
    op: 'POST /requests',
    state: 'open',
    path: () => '/requests',
    // docs/api/conventions.md › CreateRequestInput: the requester is always the caller, whatever the body says.
    body: (s) => ({ ...REQUEST_INPUT, requester_id: s.requester.id }),
    expect: signedIn(201),
    see: (res, { account }) => assert.equal(res.body.requester_id, account?.id),
  },
  { op: 'GET /requests/my', state: 'open', path: () => '/requests/my?limit=100', expect: signedIn(200), see: listedFor('requester') },
  { op: 'GET /requests/nearby', state: 'open', path: nearby, expect: signedIn(200), see: listedFor(...SIGNED_IN) },
  { op: 'GET /requests/nearby', state: 'rejected', path: nearby, expect: signedIn(200), see: listedFor() },
  { op: 'GET /requests/nearby', state: 'cancelled', path: nearby, expect: signedIn(200), see: listedFor() },
  { op: 'GET /requests/bounds', state: 'open', path: bounds, expect: signedIn(200), see: listedFor(...SIGNED_IN) },
  { op: 'GET /requests/bounds', state: 'rejected', path: bounds, expect: signedIn(200), see: listedFor() },
  { op: 'GET /requests/bounds', state: 'cancelled', path: bounds, expect: signedIn(200), see: listedFor() },
  { op: 'GET /requests/map', state: 'open', path: map, expect: signedIn(200), see: markedFor(SIGNED_IN, ['requester', 'moderator', 'admin']) },
  { op: 'GET /requests/map', state: 'assigned', path: map, expect: signedIn(200), see: markedFor(SIGNED_IN, ['requester', 'assigned', 'moderator', 'admin']) },
  { op: 'GET /requests/map', state: 'rejected', path: map, expect: signedIn(200), see: markedFor([]) },
  { op: 'GET /requests/map', state: 'cancelled', path: map, expect: signedIn(200), see: markedFor([]) },
  { op: 'GET /requests/{id}', state: 'pending', path: req, expect: signedIn(200), see: contactShownTo('requester', 'moderator', 'admin') },
  // An offer is not an assignment: responders see no contact details yet.
  { op: 'GET /requests/{id}', state: 'open', path: req, expect: signedIn(200), see: contactShownTo('requester', 'moderator', 'admin') },
  { op: 'GET /requests/{id}', state: 'assigned', path: req, expect: signedIn(200), see: contactShownTo('requester', 'assigned', 'moderator', 'admin') },
  {
    op: 'GET /requests/{id}',
    state: 'rejected',
    path: req,
    expect: signedIn(REQUEST_NOT_FOUND, { requester: 200, moderator: 200, admin: 200 }),
    see: contactShownTo('requester', 'moderator', 'admin'),
  },
  {
    op: 'GET /requests/{id}',
    state: 'cancelled',
    path: req,
    expect: signedIn(REQUEST_NOT_FOUND, { requester: 200, assigned: 200, moderator: 200, admin: 200 }),
    see: contactShownTo('requester', 'assigned', 'moderator', 'admin'),
  },
  // docs/privacy.md › Access records: the log of who saw the request's contact details; not even the assigned volunteer reads it.
  { op: 'GET /requests/{id}/access-log', state: 'assigned', path: (s) => `${req(s)}/access-log`, expect: signedIn(REQUEST_NOT_FOUND, { requester: 200, moderator: 200, admin: 200 }) },
  {
    op: 'POST /requests/{id}/cancel',
    state: 'assigned',
    path: (s) => `${req(s)}/cancel`,
    // The assigned volunteer withdraws their response instead (docs/api.md › Cancel).
    expect: signedIn([400, 'only the requester can cancel a request'], { requester: 200, moderator: 200, admin: 200 }),
    mutates: 'request',
  },
  {
    op: 'POST /requests/{id}/cancel',
    state: 'rejected',
    path: (s) => `${req(s)}/cancel`,
    // A stranger learns nothing of a rejected request, not even that it exists.
    expect: signedIn(REQUEST_NOT_FOUND, Object.fromEntries((['requester', 'moderator', 'admin'] as const).map((actor) => [actor, [400, 'request cannot be cancelled in its current status']]))),
    mutates: 'request',
  },

  // Moderation: role moderator or admin.
  { op: 'GET /moderation/requests/pending', state: 'pending', path: () => '/moderation/requests/pending?limit=100', expect: moderatorsOnly(200), see: listedFor('moderator', 'admin') },
  { op: 'GET /moderation/requests/my', state: 'pending', path: () => '/moderation/requests/my', expect: moderatorsOnly(200) },
  { op: 'POST /moderation/requests/{id}/approve', state: 'pending', path: (s) => `/moderation${req(s)}/approve`, body: () => ({}), expect: moderatorsOnly(200), mutates: 'request' },
  { op: 'POST /moderation/requests/{id}/reject', state: 'pending', path: (s) => `/moderation${req(s)}/reject`, body: () => ({ comment: 'Not a request for help' }), expect: moderatorsOnly(200), mutates: 'request' },
  { op: 'POST /moderation/requests/{id}/moderate', state: 'pending', path: (s) => `/moderation${req(s)}/moderate`, body: () => ({ action: 'approve' }), expect: moderatorsOnly(200), mutates: 'request' },

  // Concerns (docs/api/help.md): anyone signed in raises one about a request they may see; moderators and admins look at them.
  { op: 'POST /concerns', state: 'assigned', path: () => '/concerns', body: (s) => ({ request_id: s.requestId, text: CONCERN_TEXT }), expect: signedIn(201) },
  {
    op: 'POST /concerns',
    state: 'rejected',
    title: 'about a request only its parties may see',
    path: () => '/concerns',
    body: (s) => ({ request_id: s.requestId, text: CONCERN_TEXT }),
    expect: signedIn(REQUEST_NOT_FOUND, { requester: 201, moderator: 201, admin: 201 }),
  },
  {
    op: 'GET /concerns/mine',
    state: 'assigned',
    path: () => '/concerns/mine',
    expect: signedIn(200),
    see: (res, { account }) => assert.ok(res.body.every((c: { reporter_id: number }) => c.reporter_id === account?.id), 'own concerns only'),
  },
  {
    op: 'GET /moderation/concerns',
    state: 'assigned',
    path: () => '/moderation/concerns?limit=100',
    prepare: raiseConcern,
    expect: moderatorsOnly(200),
    see: (res, { s }) => assert.ok(res.body.some((c: { request_id: number }) => c.request_id === s.requestId), 'the concern about the request listed'),
  },
  {
    op: 'POST /moderation/concerns/{id}/resolve',
    state: 'assigned',
    path: () => `/moderation/concerns/${raisedConcern}/resolve`,
    prepare: raiseConcern,
    body: () => ({ outcome: 'no_action', note: 'Looked into it' }),
    expect: moderatorsOnly(200),
  },
  // Volunteer responses.
  // Own responses only: each caller sees exactly the responses they gave on the scenario's request.
  {
    op: 'GET /responses/my',
    state: 'open',
    path: () => '/responses/my?limit=100',
    expect: signedIn(200),
    see: (res, { actor, account, s }) => {
      const mine = (res.body as Array<{ request_id: number, volunteer_id: number }>).filter((item) => item.request_id === s.requestId)
      assert.equal(mine.length, actor === 'assigned' || actor === 'other' ? 1 : 0, 'own responses on the request')
      assert.ok((res.body as Array<{ volunteer_id: number }>).every((item) => item.volunteer_id === account?.id), 'only their own')
    },
  },
  { op: 'GET /requests/{id}/responses', state: 'open', path: (s) => `${req(s)}/responses`, expect: signedIn(200), see: responsesSeen({ requester: 2, moderator: 2, admin: 2, assigned: 1, other: 1, volunteer: 0, coordinator: 0 }) },
  { op: 'GET /requests/{id}/responses', state: 'assigned', path: (s) => `${req(s)}/responses`, expect: signedIn(200), see: responsesSeen({ requester: 2, moderator: 2, admin: 2, assigned: 1, other: 1, volunteer: 0, coordinator: 0 }) },
  {
    op: 'GET /requests/{id}/responses',
    state: 'rejected',
    path: (s) => `${req(s)}/responses`,
    expect: signedIn(REQUEST_NOT_FOUND, { requester: 200, moderator: 200, admin: 200 }),
    see: responsesSeen({ requester: 0, moderator: 0, admin: 0 }),
  },
  {
    op: 'GET /requests/{id}/responses',
    state: 'cancelled',
    path: (s) => `${req(s)}/responses`,
    expect: signedIn(REQUEST_NOT_FOUND, { requester: 200, assigned: 200, moderator: 200, admin: 200 }),
    see: responsesSeen({ requester: 2, moderator: 2, admin: 2, assigned: 1 }),
  },
  {
    op: 'POST /requests/{id}/responses',
    state: 'open',
    path: (s) => `${req(s)}/responses`,
    body: () => ({ message: 'I can help too' }),
    expect: signedIn(201, {
      requester: [400, 'cannot respond to own request'],
      assigned: [400, 'already responded to this request'],
      other: [400, 'already responded to this request'],
    }),
    see: (res, { account, s }) => assert.deepEqual([res.body.request_id, res.body.volunteer_id, res.body.status], [s.requestId, account?.id, 'pending']),
    mutates: 'request',
  },
  {
    op: 'POST /requests/{id}/responses',
    state: 'rejected',
    path: (s) => `${req(s)}/responses`,
    body: () => ({ message: 'I can help too' }),
    expect: signedIn(REQUEST_NOT_FOUND, {
      requester: [400, 'cannot respond to own request'],
      moderator: [400, 'request is not open for responses'],
      admin: [400, 'request is not open for responses'],
    }),
    mutates: 'request',
  },
  {
    op: 'POST /requests/{id}/responses/{response_id}/accept',
    state: 'open',
    path: (s) => `${req(s)}/responses/${s.responseOf.assigned}/accept`,
    // docs/api/conventions.md › Authentication, 9: only the creator, moderators and admins included.
    expect: signedIn([400, 'only the requester can accept a response'], { requester: 200 }),
    see: (res, { s }) => assert.deepEqual(res.body, { success: true, message: 'response accepted', request_id: s.requestId, volunteer_id: s.assigned.id }),
    mutates: 'request',
  },
  {
    op: 'POST /requests/{id}/complete',
    state: 'assigned',
    path: (s) => `${req(s)}/complete`,
    body: () => ({ rating: 5 }),
    expect: signedIn([400, 'only the requester can complete a request'], { requester: 200 }),
    mutates: 'request',
  },
  {
    op: 'POST /requests/{id}/responses/{response_id}/cancel',
    state: 'assigned',
    path: (s) => `${req(s)}/responses/${s.responseOf.assigned}/cancel`,
    // Withdrawing is the volunteer's own act: not the requester's, nor a moderator's.
    expect: signedIn([400, 'only the volunteer who responded can withdraw a response'], { assigned: 200 }),
    mutates: 'request',
  },
  {
    op: 'POST /requests/{id}/responses/{response_id}/reject',
    state: 'open',
    path: (s) => `${req(s)}/responses/${s.responseOf.assigned}/reject`,
    expect: signedIn([400, 'only the requester can reject a response'], { requester: 200 }),
    mutates: 'request',
  },
]
