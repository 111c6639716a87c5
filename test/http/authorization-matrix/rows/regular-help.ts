import assert from 'node:assert/strict'
import { assertStatus } from '../../../helpers/assert.js'
import { REQUEST_INPUT } from '../../../helpers/lifecycle.js'
import { type Row, REQUEST_NOT_FOUND, feedOf, everyone, signedIn, moderatorsOnly, ONLY_ASSIGNED_CONFIRMS, ONLY_REQUESTER_STILL_NEEDED, NOT_APPROVED, contactShownTo, SERIES_INPUT, madeSeries, newSeries, seriesParties, req } from '../rows.js'

/** Regular help: calendar feeds, coming help, confirmations, series and declining an invitation. */
export const ROWS: readonly Row[] = [
  // docs/api/schedule.md: each caller's own feed; the feed itself needs no sign-in, only its token (made in prepare, as the assigned volunteer).
  { op: 'POST /users/me/calendar', state: 'assigned', path: () => '/users/me/calendar', expect: signedIn(201), see: (res) => assert.match(res.body.url, /\/api\/v1\/calendar\/[\w-]{43}\.ics$/) },
  { op: 'DELETE /users/me/calendar', state: 'assigned', path: () => '/users/me/calendar', expect: signedIn(204) },
  {
    op: 'GET /calendar/{token}.ics',
    state: 'assigned',
    path: (s) => feedOf.get(s.requestId)!,
    prepare: async (s, t) => {
      const made = await t.post('/users/me/calendar', undefined, s.assigned.token)
      assertStatus(made, 201)
      feedOf.set(s.requestId, made.body.url.slice(made.body.url.indexOf('/calendar/')))
    },
    expect: everyone(200),
    // Whoever calls, the token's owner's feed: here the assigned volunteer's, with the address.
    see: (res, { s }) => assert.ok(res.text.includes(`UID:request-${s.requestId}@`) && res.text.includes(`LOCATION:${REQUEST_INPUT.address}`), res.text),
  },
  {
    op: 'GET /users/me/coming-help',
    state: 'assigned',
    path: () => '/users/me/coming-help?limit=100',
    expect: signedIn(200),
    see: (res, { actor, s }) => {
      const role = actor === 'requester' ? 'requester' : actor === 'assigned' ? 'volunteer' : undefined
      assert.deepEqual(res.body.filter((item: { id: number }) => item.id === s.requestId).map((item: { role: string }) => item.role), role === undefined ? [] : [role])
    },
  },
  // docs/api/schedule.md: the assigned volunteer confirms; the requester says an approved request is still needed.
  { op: 'POST /requests/{id}/confirm', state: 'assigned', path: (s) => `${req(s)}/confirm`, expect: signedIn(ONLY_ASSIGNED_CONFIRMS, { assigned: 200 }), see: contactShownTo('assigned') },
  {
    op: 'POST /requests/{id}/confirm',
    state: 'cancelled',
    path: (s) => `${req(s)}/confirm`,
    expect: signedIn(REQUEST_NOT_FOUND, Object.fromEntries((['requester', 'assigned', 'moderator', 'admin'] as const).map((actor) => [actor, ONLY_ASSIGNED_CONFIRMS]))),
  },
  { op: 'POST /requests/{id}/still-needed', state: 'open', path: (s) => `${req(s)}/still-needed`, expect: signedIn(ONLY_REQUESTER_STILL_NEEDED, { requester: 200 }), see: contactShownTo('requester') },
  { op: 'POST /requests/{id}/still-needed', state: 'assigned', path: (s) => `${req(s)}/still-needed`, expect: signedIn(ONLY_REQUESTER_STILL_NEEDED, { requester: NOT_APPROVED }) },
  {
    op: 'POST /requests/{id}/still-needed',
    state: 'rejected',
    path: (s) => `${req(s)}/still-needed`,
    expect: signedIn(REQUEST_NOT_FOUND, { requester: NOT_APPROVED, moderator: ONLY_REQUESTER_STILL_NEEDED, admin: ONLY_REQUESTER_STILL_NEEDED }),
  },

  // Series (docs/api/schedule.md): the requester's own; moderators decide, read and end, but never change one.
  {
    op: 'POST /request-series',
    state: 'open',
    path: () => '/request-series',
    body: () => SERIES_INPUT,
    expect: signedIn(201),
    see: (res, { account }) => assert.deepEqual([res.body.requester_id, res.body.status], [account?.id, 'pending_moderation']),
  },
  {
    op: 'GET /request-series/mine',
    state: 'open',
    path: () => '/request-series/mine',
    prepare: newSeries,
    expect: signedIn(200),
    see: (res, { actor }) => assert.equal(res.body.some((series: { id: number }) => series.id === madeSeries), actor === 'requester'),
  },
  { op: 'GET /request-series/{id}', state: 'open', path: () => `/request-series/${madeSeries}`, prepare: newSeries, expect: seriesParties(200) },
  {
    op: 'PATCH /request-series/{id}',
    state: 'open',
    path: () => `/request-series/${madeSeries}`,
    prepare: newSeries,
    body: () => ({ start_time: '08:00' }),
    expect: seriesParties(200, [403, 'only the requester can change a series']),
  },
  { op: 'POST /request-series/{id}/end', state: 'open', path: () => `/request-series/${madeSeries}/end`, prepare: newSeries, expect: seriesParties(200) },
  {
    op: 'GET /moderation/series/pending',
    state: 'open',
    path: () => '/moderation/series/pending?limit=100',
    prepare: newSeries,
    expect: moderatorsOnly(200),
    see: (res) => assert.ok(res.body.some((series: { id: number }) => series.id === madeSeries), 'the new series listed'),
  },
  { op: 'POST /moderation/series/{id}/approve', state: 'open', path: () => `/moderation/series/${madeSeries}/approve`, prepare: newSeries, body: () => ({}), expect: moderatorsOnly(200) },
  {
    op: 'POST /moderation/series/{id}/reject',
    state: 'open',
    path: () => `/moderation/series/${madeSeries}/reject`,
    prepare: newSeries,
    body: () => ({ comment: 'Not a request for help' }),
    expect: moderatorsOnly(200),
  },
  {
    op: 'POST /requests/{id}/decline',
    state: 'open',
    path: (s) => `${req(s)}/decline`,
    // docs/api/schedule.md: only the preferred volunteer of an occurrence's series declines (200 in
    // series-preferred.test.ts); this request belongs to no series, so nobody was invited.
    expect: signedIn([400, 'only the invited volunteer can decline']),
  },
]
