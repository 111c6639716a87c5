import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { isDeepStrictEqual } from 'node:util'
import webpush from 'web-push'
import { startApp, TEST_SECRET, uniqueEmail, type Account, type Response, type TestApp } from '../helpers/app.js'
import { assertError, assertStatus } from '../helpers/assert.js'
import { engines } from '../helpers/engines.js'
import { REQUEST_INPUT, respond } from '../helpers/lifecycle.js'

/*
 * Every operation of the API × every kind of caller, with the status (and error text) each gets, so
 * that no endpoint can quietly leak or allow what it should not (docs/api/accounts.md › Tokens,
 * docs/api/accounts.md › Roles and permissions, Privacy, Request lifecycle). A test below fails when the OpenAPI
 * document has an operation without a row here.
 */

/**
 * Who calls. The parties of the scenario's request: `requester` (created it), `assigned` (responded;
 * accepted once the request is in progress) and `other` (responded too, not chosen). With no relation
 * to it: `volunteer`, `coordinator` (docs/api/on-behalf.md › Coordinators and clients; the scenario's request is no client's, so to it she is a volunteer),
 * `moderator`, `admin`; and `anonymous`, without a token.
 */
type Actor = 'anonymous' | 'volunteer' | 'coordinator' | 'requester' | 'other' | 'assigned' | 'moderator' | 'admin'
const ACTORS: readonly Actor[] = ['anonymous', 'volunteer', 'coordinator', 'requester', 'other', 'assigned', 'moderator', 'admin']

/** A status, or a status with its exact error text. */
type Outcome = number | readonly [number, string]
type Expected = Record<Actor, Outcome>

/**
 * The state of the scenario's request, reached through the API: `pending` (awaits moderation, no
 * responses), `open` (approved; `assigned` and `other` each have a pending response), `assigned`
 * (in_progress: `assigned` accepted, `other` rejected by the accept), `rejected` (by a moderator),
 * `cancelled` (by the requester while in progress).
 */
type State = 'pending' | 'open' | 'assigned' | 'rejected' | 'cancelled'

interface Scenario {
  requestId: number
  requester: Account
  assigned: Account
  other: Account
  /** The response ids of `assigned` and `other`, from `open` on. */
  responseOf: Partial<Record<'assigned' | 'other', number>>
  /** Where the request is: a spot of its own, so searches around it find only it. */
  point: { lat: number, lon: number }
}

interface Cell { actor: Actor, account: Account | undefined, s: Scenario, sent: unknown }

interface Row {
  /** `METHOD /path` exactly as in the OpenAPI document, without /api/v1. */
  op: string
  state: State
  /** Tells apart rows of one operation in one state. */
  title?: string
  path: (s: Scenario) => string
  body?: (s: Scenario, t: TestApp) => unknown
  /** Request headers beyond the token (the web app's session routes need their CSRF header and cookie). */
  headers?: (s: Scenario, t: TestApp) => Promise<Record<string, string>> | Record<string, string>
  expect: Expected
  /**
   * What the operation changes. Each cell of such a row gets a fresh scenario, and must change it
   * exactly when it succeeds: a refusal changes nothing, a success something.
   */
  mutates?: 'request' | 'user'
  prepare?: (s: Scenario, t: TestApp) => Promise<void>
  /** An endless response (the event stream): only its status is read, then it is let go. */
  stream?: true
  /** What a 2xx may show this caller: where a status alone would hide a leak. */
  see?: (res: Response, cell: Cell) => void
}

const UNAUTHORIZED = [401, 'unauthorized'] as const
const MODERATOR_REQUIRED = [403, 'moderator role required'] as const
const ADMIN_REQUIRED = [403, 'admin role required'] as const
const REQUEST_NOT_FOUND = [404, 'request not found'] as const
const VIEW_REPORTS_REQUIRED = [403, 'view_reports permission required'] as const

/** docs/api/accounts.md › Tokens, 2 (and GET /ready, an extension): no token needed. */
const PUBLIC = ['GET /', 'GET /health', 'GET /ready', 'POST /auth/register', 'POST /auth/login', 'POST /auth/refresh', 'GET /request-types', 'GET /map-settings', 'GET /account-settings', 'POST /session', 'POST /session/register', 'POST /session/refresh',
  'POST /auth/password-reset', 'POST /auth/password-reset/confirm', 'POST /auth/code', 'POST /auth/code/confirm', 'POST /session/password-reset/confirm', 'POST /session/code/confirm', 'GET /push/public-key', 'POST /unsubscribe', 'GET /calendar/{token}.ics']

const SESSION_CSRF = { 'x-vcs-csrf': '1' }

/** The service's Web Push identity here, so its push routes answer as with push on. */
const PUSH_IDENTITY = { ...webpush.generateVAPIDKeys(), subject: 'mailto:operator@example.org' }

/** A fresh web app session's refresh cookie, as a browser would send it back. */
async function sessionCookie (t: TestApp): Promise<string> {
  const account = await t.register()
  const res = await t.request('POST', '/session', { body: { email: account.email, password: account.password }, headers: SESSION_CSRF })
  return String(res.headers['set-cookie']).split(';')[0]!
}

/** The path of the feed each scenario's feed row reads, by the scenario's request. */
const feedOf = new Map<number, string>()

/** docs/api/on-behalf.md › Carers: the invitation each scenario's carers rows use, by the scenario's request. */
const invitationOf = new Map<number, number>()
const INVITATION_NOT_FOUND = [404, 'invitation not found'] as const

/** An invitation of `owner` to `email`; kept as the scenario's. */
async function inviteFor (s: Scenario, t: TestApp, owner: Account, email: string): Promise<void> {
  const res = await t.post('/users/me/trusted-people', { email, can: ['create'] }, owner.token)
  assertStatus(res, 201)
  invitationOf.set(s.requestId, res.body.id)
}
/** A person with no part in the scenario invites its `assigned`: accepting makes him her carer, which no other row sees. */
const inviteAssigned = async (s: Scenario, t: TestApp): Promise<void> => await inviteFor(s, t, await t.register(), s.assigned.email)

/** The check each scenario's revoke row revokes, by the user it is about. */
const checkOf = new Map<number, number>()

/** A check of `userId` recorded by the admin; its id. */
async function recordCheck (t: TestApp, userId: number): Promise<number> {
  const res = await t.post(`/admin/users/${userId}/checks`, { kind: 'identity', note: 'matrix check' }, t.admin.token)
  assertStatus(res, 201)
  return res.body.id
}

const SIGNED_IN = ACTORS.filter((actor) => actor !== 'anonymous')
const all = (outcome: Outcome) => Object.fromEntries(ACTORS.map((actor) => [actor, outcome])) as Expected
/** No token needed: everyone, anonymous included. */
const everyone = (outcome: Outcome): Expected => all(outcome)
/** A token needed: anonymous gets 401, every signed-in caller `outcome` unless `except` says otherwise. */
const signedIn = (outcome: Outcome, except: Partial<Expected> = {}): Expected => ({ ...all(outcome), anonymous: UNAUTHORIZED, ...except })
const COORDINATOR_REQUIRED = [403, 'coordinator role required'] as const
/** docs/api/on-behalf.md › Coordinators and clients: holders of coordinate_requests (coordinators and admins) only; `readers` also lets moderators read. */
const coordinatorsOnly = (outcome: Outcome, readers = false): Expected =>
  signedIn(COORDINATOR_REQUIRED, { coordinator: outcome, admin: outcome, ...(readers ? { moderator: outcome } : {}) })
const moderatorsOnly = (outcome: Outcome): Expected => signedIn(MODERATOR_REQUIRED, { moderator: outcome, admin: outcome })
const adminOnly = (outcome: Outcome, except: Partial<Expected> = {}): Expected => signedIn(ADMIN_REQUIRED, { admin: outcome, ...except })

/** Every scenario user's home phone and address, and every scenario request's contact details. */
const HOME = { phone: '+4915112345678', address: 'Hidden Lane 5' }
const CONTACT = { contact_phone: '+4930999888', contact_notes: 'Key under the mat' }
/** A window (docs/api/schedule.md › A time window on a request) two days on, so its assigned volunteer may confirm (› Confirmation, reminders, expiry). */
const WINDOW_START = Date.now() + 2 * 86_400_000
const WINDOW = { window_start: new Date(WINDOW_START).toISOString(), window_end: new Date(WINDOW_START + 3_600_000).toISOString() }
const ONLY_ASSIGNED_CONFIRMS = [400, 'only the assigned volunteer can confirm'] as const
const ONLY_REQUESTER_STILL_NEEDED = [400, 'only the requester can say a request is still needed'] as const
const NOT_APPROVED = [400, 'request is not approved'] as const

/** docs/api/help.md › Reading one request: a request's contact details for `seeing`, null for everyone else. */
const contactShownTo = (...seeing: Actor[]) => (res: Response, { actor }: Cell) => {
  const shown = seeing.includes(actor)
  assert.equal(res.body.contact_phone, shown ? CONTACT.contact_phone : null, 'contact_phone')
  assert.equal(res.body.contact_notes, shown ? CONTACT.contact_notes : null, 'contact_notes')
}

/** docs/api/help.md › Reading one request: a profile's phone and address for `seeing`, null for everyone else. */
const homeShownTo = (...seeing: Actor[]) => (res: Response, { actor }: Cell) => {
  const shown = seeing.includes(actor)
  assert.equal(res.body.phone, shown ? HOME.phone : null, 'phone')
  assert.equal(res.body.address, shown ? HOME.address : null, 'address')
}

/** A list holds the scenario's request for `seeing` only, and never a contact detail. */
const listedFor = (...seeing: Actor[]) => (res: Response, { actor, s }: Cell) => {
  const items = res.body as Array<Record<string, unknown>>
  assert.equal(items.some((item) => item.id === s.requestId), seeing.includes(actor), 'the request listed')
  assert.ok(items.every((item) => !('contact_phone' in item) && !('contact_notes' in item)), 'no contact details in a list')
}

/**
 * docs/privacy.md › The grid: the map marks the scenario's request for `seeing`, at its exact point for `exactFor` and at its
 * grid cell for the others, and a marker holds nothing a list item would not (no contact, no address).
 */
const markedFor = (seeing: readonly Actor[], exactFor: readonly Actor[] = []) => (res: Response, { actor, s }: Cell) => {
  const markers = (res.body as { markers: Array<Record<string, unknown> & { id: number, location: { precision_meters: number } }> }).markers
  const marker = markers.find((item) => item.id === s.requestId)
  assert.equal(marker !== undefined, seeing.includes(actor), 'the request marked')
  if (marker !== undefined) assert.equal(marker.location.precision_meters === 0, exactFor.includes(actor), 'exact point')
  assert.ok(markers.every((item) => Object.keys(item).sort().join() === 'id,location,request_type_id,status,title,urgency'), 'only what a marker needs')
}

/** docs/api/help.md › Reading one request: the requester and moderators see every response; anyone else only their own. */
const responsesSeen = (counts: Partial<Record<Actor, number>>) => (res: Response, { actor, account }: Cell) => {
  const items = res.body as Array<{ volunteer_id: number }>
  assert.equal(items.length, counts[actor], 'number of responses seen')
  if (!['requester', 'moderator', 'admin'].includes(actor)) assert.ok(items.every((item) => item.volunteer_id === account?.id), 'only their own')
}

const rolesOf = (actor: Actor) => actor === 'moderator' ? ['moderator', 'volunteer'] : actor === 'admin' ? ['admin', 'volunteer'] : actor === 'coordinator' ? ['coordinator', 'volunteer'] : ['volunteer']
/** docs/api/accounts.md › Roles and permissions: the mapping of roles to permissions. */
const permissionsOf = (actor: Actor) => [
  'create_request', 'respond_request',
  ...(actor === 'moderator' || actor === 'admin' ? ['moderate_request'] : []),
  ...(actor === 'admin' ? ['manage_users', 'coordinate_requests', 'view_reports'] : []),
  ...(actor === 'coordinator' ? ['coordinate_requests'] : []),
].sort()
const names = (res: Response) => (res.body as Array<{ name: string }>).map((item) => item.name).sort()

const CONCERN_TEXT = 'Worried about how this request is going.'
/** The concern raiseConcern made last: each cell of a row that resolves one gets its own. */
let raisedConcern = 0
/** A new concern about the scenario's request, by a new account (so nobody's daily limit is reached). */
async function raiseConcern (s: Scenario, t: TestApp): Promise<void> {
  const res = await t.post('/concerns', { request_id: s.requestId, text: CONCERN_TEXT }, (await t.register()).token)
  assertStatus(res, 201)
  raisedConcern = res.body.id
}

/** docs/api/schedule.md › Series: a series of the scenario's requester, its first day past the horizon (no occurrences). */
const SERIES_START = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10)
const SERIES_INPUT = { template: { ...REQUEST_INPUT, ...CONTACT }, days: ['tue'], start_time: '07:30', duration_minutes: 60, time_zone: 'UTC', starts_on: SERIES_START }
/** The series newSeries made last: each cell of a row that needs one gets its own. */
let madeSeries = 0
async function newSeries (s: Scenario, t: TestApp): Promise<void> {
  const res = await t.post('/request-series', SERIES_INPUT, s.requester.token)
  assertStatus(res, 201)
  madeSeries = res.body.id
}
const SERIES_NOT_FOUND = [404, 'series not found'] as const
/** The requester, moderators and admins see a series; to others it does not exist. */
const seriesParties = (outcome: Outcome, forModerators: Outcome = outcome): Expected =>
  signedIn(SERIES_NOT_FOUND, { requester: outcome, moderator: forModerators, admin: forModerators })

const req = (s: Scenario) => `/requests/${s.requestId}`
/** The client every client row reads and changes, made by the bootstrapped admin (no actor); `erasable`, one per erasing cell. */
const CLIENT = { first_name: 'Matrix', last_name: 'Client', phone: '+4917011122233', consent: { how: 'in_person' } }
let matrixClient = 0
let erasableClient = 0
async function newClient (t: TestApp): Promise<number> {
  const res = await t.post('/clients', CLIENT, t.admin.token)
  assertStatus(res, 201)
  return res.body.id
}
const nearby = (s: Scenario) => `/requests/nearby?lat=${s.point.lat}&lon=${s.point.lon}&radius=100`
const rectangle = (s: Scenario) => `min_lon=${s.point.lon - 0.001}&min_lat=${s.point.lat - 0.001}&max_lon=${s.point.lon + 0.001}&max_lat=${s.point.lat + 0.001}`
const bounds = (s: Scenario) => `/requests/bounds?${rectangle(s)}`
const map = (s: Scenario) => `/requests/map?${rectangle(s)}`

const ROWS: readonly Row[] = [
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
  { op: 'GET /request-types', state: 'open', path: () => '/request-types', expect: everyone(200) },
  { op: 'GET /map-settings', state: 'open', path: () => '/map-settings', expect: everyone(200) },
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
  // docs/api/messaging.md › Deliveries and e-mail preferences and deliveries: each caller's own; one-click unsubscribe needs no sign-in, only its
  // signed token (the journeys: test/http/deliveries-*.test.ts).
  { op: 'GET /users/me/notification-settings', state: 'assigned', path: () => '/users/me/notification-settings', expect: signedIn(200), see: (res) => assert.deepEqual(Object.keys(res.body).sort(), ['email', 'push', 'quiet_hours', 'time_zone']) },
  { op: 'PUT /users/me/notification-settings', state: 'assigned', path: () => '/users/me/notification-settings', body: () => ({ quiet_hours: null }), expect: signedIn(200) },
  { op: 'GET /users/me/deliveries', state: 'assigned', path: () => '/users/me/deliveries', expect: signedIn(200) },
  { op: 'POST /unsubscribe', state: 'open', path: () => '/unsubscribe?token=1.request_approved.forged', expect: everyone([400, 'invalid token']) },
  // docs/api/messaging.md › Web Push (push on: the matrix's app has a VAPID identity); the rest: test/http/push.test.ts.
  { op: 'GET /push/public-key', state: 'open', path: () => '/push/public-key', expect: everyone(200), see: (res) => assert.deepEqual(res.body, { public_key: PUSH_IDENTITY.publicKey }) },
  { op: 'POST /users/me/push-subscriptions', state: 'assigned', path: () => '/users/me/push-subscriptions', body: () => ({ endpoint: 'https://fcm.googleapis.com/fcm/send/matrix', keys: { p256dh: 'x', auth: 'y' } }), expect: signedIn([400, 'invalid push keys']) },
  { op: 'GET /users/me/push-subscriptions', state: 'assigned', path: () => '/users/me/push-subscriptions', expect: signedIn(200), see: (res) => assert.deepEqual(res.body, []) },
  { op: 'DELETE /users/me/push-subscriptions/{id}', state: 'assigned', path: () => '/users/me/push-subscriptions/1', expect: signedIn([404, 'subscription not found']) },
  { op: 'POST /users/me/verify-email/resend', state: 'assigned', path: () => '/users/me/verify-email/resend', expect: signedIn([404, 'email verification by code is off']) },

  // The caller's own account: every signed-in caller, acting on themselves only.
  { op: 'GET /auth/me', state: 'assigned', path: () => '/auth/me', expect: signedIn(200), see: (res, { account }) => assert.deepEqual(res.body, { id: account?.id, email: account?.email }) },
  { op: 'POST /auth/logout', state: 'assigned', path: () => '/auth/logout', expect: signedIn(200) },
  { op: 'GET /users/me', state: 'assigned', path: () => '/users/me', expect: signedIn(200), see: (res, { account }) => assert.equal(res.body.id, account?.id) },
  { op: 'PATCH /users/me', state: 'assigned', path: () => '/users/me', body: () => ({ bio: 'Changed by the matrix' }), expect: signedIn(200) },
  { op: 'POST /users/me/location', state: 'assigned', path: () => '/users/me/location', body: () => ({ latitude: 1.5, longitude: 2.5 }), expect: signedIn(200) },
  { op: 'GET /users/me/location', state: 'assigned', path: () => '/users/me/location', expect: signedIn(200), see: (res) => assert.deepEqual(Object.keys(res.body).sort(), ['latitude', 'longitude']) },
  { op: 'POST /users/me/verify-email', state: 'assigned', path: () => '/users/me/verify-email', expect: signedIn(200) },
  { op: 'GET /users/me/access-log', state: 'assigned', path: () => '/users/me/access-log', expect: signedIn(200) },
  { op: 'GET /users/me/export', state: 'assigned', path: () => '/users/me/export', expect: signedIn(200), see: (res, { account }) => assert.equal(res.body.profile.id, account?.id) },
  // docs/privacy.md › Erasure. With a wrong password, so the shared accounts survive; erasure itself: test/http/privacy.test.ts.
  { op: 'DELETE /users/me', state: 'assigned', path: () => '/users/me', body: () => ({ password: 'not the password' }), expect: signedIn([401, 'invalid credentials']) },
  { op: 'GET /users/me/availability', state: 'assigned', path: () => '/users/me/availability', expect: signedIn(200) },
  { op: 'PUT /users/me/availability', state: 'assigned', path: () => '/users/me/availability', body: () => ({ radius_meters: 3000 }), expect: signedIn(200) },
  // docs/api/schedule.md › Calendar feed: each caller's own feed; the feed itself needs no sign-in, only its token (made in prepare, as the assigned volunteer).
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
  {
    op: 'GET /notifications',
    state: 'assigned',
    path: () => '/notifications',
    expect: signedIn(200),
    // Each sees only their own: the requester was told of the approval and of the responses, nobody else of those.
    see: (res, { actor }) => assert.equal(res.body.some((n: { type: string }) => n.type === 'request_approved' || n.type === 'response_received'), actor === 'requester'),
  },
  { op: 'GET /notifications/unread-count', state: 'assigned', path: () => '/notifications/unread-count', expect: signedIn(200) },
  { op: 'POST /notifications/read', state: 'assigned', path: () => '/notifications/read', body: () => ({ up_to_id: 0 }), expect: signedIn(200) },
  { op: 'GET /events', state: 'assigned', path: () => '/events', expect: signedIn(200), stream: true },
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
  { op: 'GET /users/me/roles', state: 'assigned', path: () => '/users/me/roles', expect: signedIn(200), see: (res, { actor }) => assert.deepEqual(names(res), rolesOf(actor)) },
  { op: 'GET /users/me/permissions', state: 'assigned', path: () => '/users/me/permissions', expect: signedIn(200), see: (res, { actor }) => assert.deepEqual(names(res), permissionsOf(actor)) },
  {
    op: 'GET /users/me/permissions/{permission_name}/check',
    state: 'assigned',
    path: () => '/users/me/permissions/manage_users/check',
    expect: signedIn(200),
    see: (res, { actor }) => assert.deepEqual(res.body, { has_permission: actor === 'admin', permission_name: 'manage_users' }),
  },

  // Profiles: anyone signed in reads one; phone and address only for docs/api/help.md › Reading one request's few.
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

  // Requests.
  {
    op: 'POST /requests',
    state: 'open',
    path: () => '/requests',
    // docs/api/conventions.md: the requester is always the caller, whatever the body says.
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
    // The assigned volunteer withdraws their response instead (docs/api/help.md › Cancel).
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

  // docs/api/schedule.md › Confirmation, reminders, expiry: the assigned volunteer confirms; the requester says an approved request is still needed.
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

  // Moderation: role moderator or admin.
  { op: 'GET /moderation/requests/pending', state: 'pending', path: () => '/moderation/requests/pending?limit=100', expect: moderatorsOnly(200), see: listedFor('moderator', 'admin') },
  { op: 'GET /moderation/requests/my', state: 'pending', path: () => '/moderation/requests/my', expect: moderatorsOnly(200) },
  { op: 'POST /moderation/requests/{id}/approve', state: 'pending', path: (s) => `/moderation${req(s)}/approve`, body: () => ({}), expect: moderatorsOnly(200), mutates: 'request' },
  { op: 'POST /moderation/requests/{id}/reject', state: 'pending', path: (s) => `/moderation${req(s)}/reject`, body: () => ({ comment: 'Not a request for help' }), expect: moderatorsOnly(200), mutates: 'request' },
  { op: 'POST /moderation/requests/{id}/moderate', state: 'pending', path: (s) => `/moderation${req(s)}/moderate`, body: () => ({ action: 'approve' }), expect: moderatorsOnly(200), mutates: 'request' },

  // Concerns (docs/api/help.md › Concerns): anyone signed in raises one about a request they may see; moderators and admins look at them.
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

  // Series (docs/api/schedule.md › Series): the requester's own; moderators decide, read and end, but never change one.
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
    // docs/api/accounts.md › Tokens, 9: only the creator, moderators and admins included.
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
  {
    op: 'POST /requests/{id}/decline',
    state: 'open',
    path: (s) => `${req(s)}/decline`,
    // docs/api/schedule.md › Series: only the preferred volunteer of an occurrence's series declines (200 in
    // series-preferred.test.ts); this request belongs to no series, so nobody was invited.
    expect: signedIn([400, 'only the invited volunteer can decline']),
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

/** `METHOD /path` of every operation in the OpenAPI document, and whether it asks for a token. */
function documentedOperations (t: TestApp): Map<string, boolean> {
  const doc = t.app.swagger() as { paths: Record<string, Record<string, { security?: unknown[] }>> }
  const found = new Map<string, boolean>()
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      found.set(`${method.toUpperCase()} ${path.replace(/^\/api\/v1/, '')}`, (operation.security ?? []).length > 0)
    }
  }
  return found
}

const describeOutcome = (outcome: Outcome) => typeof outcome === 'number' ? String(outcome) : `${outcome[0]} ${outcome[1]}`

for (const engine of engines()) {
  describe(`authorization matrix: every operation × every kind of caller (${engine})`, () => {
    let t: TestApp
    /** Approves and rejects the scenarios' requests; none of the actors. */
    let setup: Account
    let volunteer: Account
    let coordinator: Account
    let moderator: Account
    let admin: Account
    const shared = new Map<State, Promise<Scenario>>()
    let spots = 0

    before(async () => {
      t = await startApp(engine, {}, { push: PUSH_IDENTITY })
      setup = await t.registerWithRole(2)
      moderator = await t.registerWithRole(2)
      admin = await t.registerWithRole(3)
      volunteer = await t.register()
      coordinator = await t.register()
      assertStatus(await t.post(`/admin/users/${coordinator.id}/roles/4`, undefined, t.admin.token), 200)
      matrixClient = await newClient(t)
    })
    after(() => t.close())

    /**
     * A new request in `state`, with a new requester and two new responders. Shared scenarios are
     * urgent, fresh ones low: the moderation queue (most urgent first) then shows the shared pending one first.
     */
    async function scenario (state: State, urgency = 'low'): Promise<Scenario> {
      spots += 1
      const point = { lat: Number((-40 + spots * 0.01).toFixed(2)), lon: Number((20 + spots * 0.01).toFixed(2)) }
      const [requester, assigned, other] = await Promise.all([t.register(HOME), t.register(HOME), t.register(HOME)])
      const created = await t.post('/requests', { ...REQUEST_INPUT, ...CONTACT, ...WINDOW, latitude: point.lat, longitude: point.lon, urgency }, requester.token)
      assertStatus(created, 201)
      const s: Scenario = { requestId: created.body.id, requester, assigned, other, responseOf: {}, point }
      if (state === 'pending') return s
      if (state === 'rejected') {
        assertStatus(await t.post(`/moderation${req(s)}/reject`, { comment: 'Outside what volunteers may do' }, setup.token), 200)
        return s
      }
      assertStatus(await t.post(`/moderation${req(s)}/approve`, {}, setup.token), 200)
      s.responseOf = { assigned: await respond(t, s.requestId, assigned), other: await respond(t, s.requestId, other) }
      if (state === 'open') return s
      assertStatus(await t.post(`${req(s)}/responses/${s.responseOf.assigned}/accept`, undefined, requester.token), 200)
      if (state === 'cancelled') assertStatus(await t.post(`${req(s)}/cancel`, undefined, requester.token), 200)
      return s
    }

    function sharedScenario (state: State): Promise<Scenario> {
      let found = shared.get(state)
      if (found === undefined) {
        found = scenario(state, 'urgent')
        shared.set(state, found)
      }
      return found
    }

    function accountOf (actor: Actor, s: Scenario): Account | undefined {
      switch (actor) {
        case 'anonymous': return undefined
        case 'volunteer': return volunteer
        case 'coordinator': return coordinator
        case 'requester': return s.requester
        case 'other': return s.other
        case 'assigned': return s.assigned
        case 'moderator': return moderator
        case 'admin': return admin
      }
    }

    /** What a mutating row may change, read as the bootstrapped admin (no actor) or straight from the database. */
    async function snapshot (kind: 'request' | 'user', s: Scenario): Promise<string> {
      if (kind === 'request') {
        const request = await t.get(req(s), t.admin.token)
        const responses = await t.get(`${req(s)}/responses`, t.admin.token)
        return JSON.stringify([request.body.status, request.body.assigned_volunteer_id, responses.body.map((r: { id: number, status: string }) => [r.id, r.status])])
      }
      const rows = await t.db.query(/* sql */ `
        SELECT is_blocked, ARRAY(SELECT role_id FROM user_roles WHERE user_id = $1 ORDER BY role_id) AS roles,
          ARRAY(SELECT id || ':' || (revoked_at IS NULL) FROM user_checks WHERE user_id = $1 ORDER BY id) AS checks
        FROM users WHERE id = $1`, [s.requester.id])
      return JSON.stringify(rows)
    }

    /** The status (and an error's body) of an endless GET, whose stream is then let go; app.close() ends it. */
    async function streamStatus (path: string, account: Account | undefined): Promise<Response> {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1${path}`, headers: account !== undefined ? { authorization: `Bearer ${account.token}` } : {}, payloadAsStream: true })
      const stream = res.stream()
      if (res.statusCode < 300) {
        stream.destroy()
        return { status: res.statusCode, body: undefined, headers: res.headers, text: '' }
      }
      let text = ''
      for await (const chunk of stream) text += String(chunk)
      return { status: res.statusCode, body: JSON.parse(text), headers: res.headers, text }
    }

    /** One cell of the matrix; what went wrong, if anything. */
    async function cell (row: Row, actor: Actor): Promise<string | undefined> {
      const s = row.mutates !== undefined ? await scenario(row.state) : await sharedScenario(row.state)
      await row.prepare?.(s, t)
      const before = row.mutates !== undefined ? await snapshot(row.mutates, s) : undefined
      const [method, template] = row.op.split(' ') as [string, string]
      const path = row.path(s)
      assert.match(path.split('?')[0]!, new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`), `the row's path fits ${row.op}`)
      const account = accountOf(actor, s)
      const sent = await row.body?.(s, t)
      const headers = await row.headers?.(s, t)
      const res = row.stream === true
        ? await streamStatus(path, account)
        : await t.request(method as 'GET', path, { token: account?.token, body: sent, ...(headers !== undefined ? { headers } : {}) })
      const want = row.expect[actor]
      const [status, error] = typeof want === 'number' ? [want] : want
      if (res.status !== status || (error !== undefined && !isDeepStrictEqual(res.body, { error }))) {
        return `${actor}: expected ${describeOutcome(want)}, got ${res.status} ${res.text.slice(0, 200)}`
      }
      if (res.status < 300 && row.see !== undefined) {
        try {
          row.see(res, { actor, account, s, sent })
        } catch (err) {
          return `${actor}: ${(err as Error).message}`
        }
      }
      if (before !== undefined && row.mutates !== undefined) {
        const changed = await snapshot(row.mutates, s) !== before
        if (changed !== (res.status < 300)) return `${actor}: ${changed ? 'was refused but changed the state' : 'succeeded but changed nothing'}`
      }
      return undefined
    }

    it('has a row for every operation of the OpenAPI document, and asks for a token exactly where the document does', () => {
      const documented = documentedOperations(t)
      const covered = new Set(ROWS.map((row) => row.op))
      assert.deepEqual([...documented.keys()].filter((op) => !covered.has(op)), [], 'operations without a row in the matrix')
      assert.deepEqual([...covered].filter((op) => !documented.has(op)), [], 'rows for operations the document does not have')
      assert.deepEqual([...documented].filter(([, secured]) => !secured).map(([op]) => op).sort(), [...PUBLIC].sort())
      for (const row of ROWS) {
        if (documented.get(row.op) === true) assert.deepEqual(row.expect.anonymous, UNAUTHORIZED, row.op)
        // An open operation serves the anonymous caller: a success, or (the code confirmations of docs/api/accounts.md › Getting back in,
        // whose codes only e-mail can give) the same 400 as every other caller, never a refusal of who they are.
        else assert.ok(typeof row.expect.anonymous === 'number' ? row.expect.anonymous < 300 : row.expect.anonymous[0] === 400, row.op)
      }
    })

    for (const row of ROWS) {
      it(`${row.op} [${row.state}]${row.title !== undefined ? ` ${row.title}` : ''}`, async () => {
        const problems: string[] = []
        for (const actor of ACTORS) {
          const problem = await cell(row, actor)
          if (problem !== undefined) problems.push(problem)
        }
        assert.deepEqual(problems, [])
      })
    }
  })

  describe(`authorization matrix: what counts as a signed-in caller (${engine})`, () => {
    const ISSUER = 'volunteer-coordination-service'
    const HS256 = { alg: 'HS256', typ: 'JWT' }
    const base64url = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url')
    const now = () => Math.floor(Date.now() / 1000)
    const claims = (userId: number, extra: object = {}) => ({ sub: String(userId), iss: ISSUER, iat: now(), exp: now() + 600, ...extra })
    /** A JWT made by hand: HMAC-SHA256 with `secret`, or no signature at all. */
    const jwt = (header: object, payload: object, secret: string | undefined = TEST_SECRET): string => {
      const signed = `${base64url(header)}.${base64url(payload)}`
      return `${signed}.${secret === undefined ? '' : createHmac('sha256', secret).update(signed).digest('base64url')}`
    }

    let t: TestApp
    let user: Account
    /** A user's own profile, and an admin-only list: a forged token must open neither. */
    let targets: Array<{ path: string, userId: number }>
    // authCacheTtlMs 0: a block or a role taken away applies to the very next request.
    before(async () => {
      t = await startApp(engine, { authCacheTtlMs: 0 })
      user = await t.register()
      targets = [{ path: '/users/me', userId: user.id }, { path: '/roles', userId: t.admin.id }]
    })
    after(() => t.close())

    it('accepts a token made here as the service makes its own, so each refusal below is about its one flaw', async () => {
      for (const { path, userId } of targets) assertStatus(await t.get(path, jwt(HS256, claims(userId))), 200)
    })

    it('refuses forged, expired and malformed tokens: 401 unauthorized', async () => {
      const forgeries: Record<string, (userId: number) => string> = {
        'alg none': (userId) => jwt({ alg: 'none', typ: 'JWT' }, claims(userId), undefined),
        'another secret': (userId) => jwt(HS256, claims(userId), 'another-secret-that-is-long-enough-0123456789'),
        expired: (userId) => jwt(HS256, claims(userId, { iat: now() - 1000, exp: now() - 60 })),
        'another issuer': (userId) => jwt(HS256, claims(userId, { iss: 'someone-else' })),
        'no expiry': (userId) => jwt(HS256, { sub: String(userId), iss: ISSUER, iat: now() }),
        // The signature of the user's own token over a payload that names someone else.
        'payload swapped': (userId) => {
          const [header, , signature] = jwt(HS256, claims(user.id)).split('.')
          return `${header}.${base64url(claims(userId, { admin: true }))}.${signature}`
        },
        'unknown user': () => jwt(HS256, claims(2 ** 40)),
        malformed: () => 'not-a-jwt',
        'three parts of nothing': () => 'a.b.c',
      }
      for (const [name, forge] of Object.entries(forgeries)) {
        for (const { path, userId } of targets) {
          const res = await t.get(path, forge(userId))
          assert.deepEqual([res.status, res.body], [401, { error: 'unauthorized' }], `${name} on ${path}`)
        }
      }
    })

    it('refuses an Authorization header that is not "Bearer <token>": 401 unauthorized', async () => {
      const headers = [
        'Bearer',
        'Bearer ',
        `Basic ${Buffer.from(`${user.email}:${user.password}`).toString('base64')}`,
        user.token,
        `Token ${user.token}`,
        `Bearer ${user.token} ${user.token}`,
      ]
      for (const authorization of headers) {
        const res = await t.request('GET', '/users/me', { headers: { authorization } })
        assert.deepEqual([res.status, res.body], [401, { error: 'unauthorized' }], authorization)
      }
      assertStatus(await t.request('GET', '/users/me', { headers: { authorization: `Bearer ${user.token}` } }), 200)
    })

    it('refuses the valid token of a user an admin has blocked, from the next request on', async () => {
      const blocked = await t.registerWithRole(2)
      assertStatus(await t.get('/moderation/requests/pending', blocked.token), 200)
      assertStatus(await t.post(`/admin/users/${blocked.id}/block`, undefined, t.admin.token), 200)
      for (const path of ['/users/me', '/auth/me', '/requests/my', '/moderation/requests/pending']) {
        assertError(await t.get(path, blocked.token), 401, 'unauthorized')
      }
    })

    it('takes a moderator\'s powers away with the role, from the next request on', async () => {
      const demoted = await t.registerWithRole(2)
      assertStatus(await t.get('/moderation/requests/pending', demoted.token), 200)
      assertStatus(await t.delete(`/admin/users/${demoted.id}/roles/2`, t.admin.token), 200)
      assertError(await t.get('/moderation/requests/pending', demoted.token), 403, 'moderator role required')
      assertStatus(await t.get('/users/me', demoted.token), 200)
    })
  })
}
