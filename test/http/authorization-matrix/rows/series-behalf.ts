import assert from 'node:assert/strict'
import type { TestApp } from '../../../helpers/app.js'
import { assertStatus } from '../../../helpers/assert.js'
import { type Expected, type Outcome, type Row, type Scenario, COORDINATOR_REQUIRED, SERIES_INPUT, SERIES_NOT_FOUND, matrixClient, signedIn } from '../rows.js'

/**
 * Series on someone's behalf (docs/api/on-behalf.md › Series for someone): a client's series, which every coordinator
 * (and admin, who coordinates too) acts on; a person's series asked by her carer (`assigned`, granted `create`
 * only). Moderators read and end both, never change them; anyone else finds no series.
 */

const NOT_ALLOWED = [403, 'not allowed for this person'] as const
const ONLY_REQUESTER = [403, 'only the requester can change a series'] as const

/** Each scenario's requester grants its `assigned` `create` once, accepted (by the scenario: ids repeat across engines). */
const granted = new WeakMap<Scenario, Promise<void>>()
function carerGrant (s: Scenario, t: TestApp): Promise<void> {
  let done = granted.get(s)
  if (done === undefined) {
    done = (async () => {
      const invited = await t.post('/users/me/trusted-people', { email: s.assigned.email, can: ['create'] }, s.requester.token)
      assertStatus(invited, 201)
      assertStatus(await t.post(`/users/me/acting-for/${invited.body.id as number}/accept`, undefined, s.assigned.token), 200)
    })()
    granted.set(s, done)
  }
  return done
}

const forClient = () => ({ ...SERIES_INPUT, template: { ...SERIES_INPUT.template, on_behalf_of: { client_id: matrixClient } } })
const forRequester = (s: Scenario) => ({ ...SERIES_INPUT, template: { ...SERIES_INPUT.template, on_behalf_of: { user_id: s.requester.id } } })

/** The series the last prepare made: each cell gets its own. */
let made = 0
/** A client's series, made by the bootstrapped admin as a coordinator. */
async function clientSeries (_s: Scenario, t: TestApp): Promise<void> {
  const res = await t.post('/request-series', forClient(), t.admin.token)
  assertStatus(res, 201)
  made = res.body.id
}
/** The requester's series, made by her carer. */
async function carerSeries (s: Scenario, t: TestApp): Promise<void> {
  await carerGrant(s, t)
  const res = await t.post('/request-series', forRequester(s), s.assigned.token)
  assertStatus(res, 201)
  made = res.body.id
}

/** A client's series: coordinators and admins as its requester, moderators as moderators. */
const clientParties = (outcome: Outcome, forModerators: Outcome = outcome): Expected =>
  signedIn(SERIES_NOT_FOUND, { coordinator: outcome, admin: outcome, moderator: forModerators })
/** A person's series asked by her carer: she and the carer as its requester, moderators and admins as moderators. */
const personParties = (outcome: Outcome, forCarer: Outcome, forModerators: Outcome = outcome): Expected =>
  signedIn(SERIES_NOT_FOUND, { requester: outcome, assigned: forCarer, moderator: forModerators, admin: forModerators })

export const SERIES_BEHALF_ROWS: readonly Row[] = [
  {
    op: 'POST /request-series',
    state: 'open',
    title: 'for a client',
    path: () => '/request-series',
    body: forClient,
    expect: signedIn(COORDINATOR_REQUIRED, { coordinator: 201, admin: 201 }),
    see: (res, { account }) => assert.deepEqual([res.body.requester_id, res.body.client_id], [account?.id, matrixClient]),
  },
  {
    op: 'POST /request-series',
    state: 'open',
    title: 'for the requester',
    path: () => '/request-series',
    prepare: carerGrant,
    body: forRequester,
    expect: signedIn(NOT_ALLOWED, { requester: 201, assigned: 201 }),
    see: (res, { s }) => assert.deepEqual([res.body.requester_id, res.body.client_id], [s.requester.id, null]),
  },
  { op: 'GET /request-series/{id}', state: 'open', title: 'a client\'s', path: () => `/request-series/${made}`, prepare: clientSeries, expect: clientParties(200) },
  {
    op: 'PATCH /request-series/{id}',
    state: 'open',
    title: 'a client\'s',
    path: () => `/request-series/${made}`,
    prepare: clientSeries,
    body: () => ({ start_time: '08:00' }),
    expect: clientParties(200, ONLY_REQUESTER),
  },
  { op: 'POST /request-series/{id}/end', state: 'open', title: 'a client\'s', path: () => `/request-series/${made}/end`, prepare: clientSeries, expect: clientParties(200) },
  { op: 'GET /request-series/{id}', state: 'open', title: 'by a carer', path: () => `/request-series/${made}`, prepare: carerSeries, expect: personParties(200, 200) },
  {
    op: 'PATCH /request-series/{id}',
    state: 'open',
    title: 'by a carer',
    path: () => `/request-series/${made}`,
    prepare: carerSeries,
    body: () => ({ start_time: '08:00' }),
    expect: personParties(200, 200, ONLY_REQUESTER),
  },
  // The carer was granted `create` only: ending the series cancels its requests, which needs `cancel`.
  { op: 'POST /request-series/{id}/end', state: 'open', title: 'by a carer', path: () => `/request-series/${made}/end`, prepare: carerSeries, expect: personParties(200, NOT_ALLOWED) },
  // The lists of someone's series: a client's for every coordinator, a person's for her carers (any accepted grant).
  {
    op: 'GET /request-series/mine',
    state: 'open',
    title: 'client_id',
    path: () => `/request-series/mine?client_id=${matrixClient}`,
    prepare: clientSeries,
    expect: signedIn(COORDINATOR_REQUIRED, { coordinator: 200, admin: 200 }),
    see: (res) => assert.ok(res.body.some((series: { id: number }) => series.id === made), 'made by another coordinator'),
  },
  {
    op: 'GET /request-series/mine',
    state: 'open',
    title: 'for_user_id',
    path: (s) => `/request-series/mine?for_user_id=${s.requester.id}`,
    prepare: carerSeries,
    expect: signedIn(NOT_ALLOWED, { requester: 200, assigned: 200 }),
    see: (res) => assert.ok(res.body.some((series: { id: number }) => series.id === made), 'made by her carer'),
  },
]
