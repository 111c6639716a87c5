import assert from 'node:assert/strict'
import webpush from 'web-push'
import type { Account, Response, TestApp } from '../../helpers/app.js'
import { assertStatus } from '../../helpers/assert.js'
import { REQUEST_INPUT } from '../../helpers/lifecycle.js'

// The vocabulary of the matrix's rows: who calls, in which state of a request, what each may get and see.

/**
 * Who calls. The parties of the scenario's request: `requester` (created it), `assigned` (responded;
 * accepted once the request is in progress) and `other` (responded too, not chosen). With no relation
 * to it: `volunteer`, `coordinator` (docs/api/on-behalf.md › Coordinators and clients; the scenario's request is no client's, so to it she is a volunteer),
 * `moderator`, `admin`; and `anonymous`, without a token.
 */
export type Actor = 'anonymous' | 'volunteer' | 'coordinator' | 'requester' | 'other' | 'assigned' | 'moderator' | 'admin'
export const ACTORS: readonly Actor[] = ['anonymous', 'volunteer', 'coordinator', 'requester', 'other', 'assigned', 'moderator', 'admin']

/** A status, or a status with its exact error text. */
export type Outcome = number | readonly [number, string]
export type Expected = Record<Actor, Outcome>

/**
 * The state of the scenario's request, reached through the API: `pending` (awaits moderation, no
 * responses), `open` (approved; `assigned` and `other` each have a pending response), `assigned`
 * (in_progress: `assigned` accepted, `other` rejected by the accept), `rejected` (by a moderator),
 * `cancelled` (by the requester while in progress).
 */
export type State = 'pending' | 'open' | 'assigned' | 'rejected' | 'cancelled'

export interface Scenario {
  requestId: number
  requester: Account
  assigned: Account
  other: Account
  /** The response ids of `assigned` and `other`, from `open` on. */
  responseOf: Partial<Record<'assigned' | 'other', number>>
  /** Where the request is: a spot of its own, so searches around it find only it. */
  point: { lat: number, lon: number }
}

export interface Cell { actor: Actor, account: Account | undefined, s: Scenario, sent: unknown }

export interface Row {
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

export const UNAUTHORIZED = [401, 'unauthorized'] as const
export const MODERATOR_REQUIRED = [403, 'moderator role required'] as const
export const ADMIN_REQUIRED = [403, 'admin role required'] as const
export const REQUEST_NOT_FOUND = [404, 'request not found'] as const
export const VIEW_REPORTS_REQUIRED = [403, 'view_reports permission required'] as const

/** docs/api/conventions.md › Authentication, 2 (and GET /ready, an extension): no token needed. */
export const PUBLIC = ['GET /', 'GET /health', 'GET /ready', 'POST /auth/register', 'POST /auth/login', 'POST /auth/refresh', 'GET /request-types', 'GET /map-settings', 'GET /needs', 'GET /account-settings', 'POST /session', 'POST /session/register', 'POST /session/refresh',
  'POST /auth/password-reset', 'POST /auth/password-reset/confirm', 'POST /auth/code', 'POST /auth/code/confirm', 'POST /session/password-reset/confirm', 'POST /session/code/confirm', 'GET /push/public-key', 'POST /unsubscribe', 'GET /calendar/{token}.ics']

export const SESSION_CSRF = { 'x-vcs-csrf': '1' }

/** The service's Web Push identity here, so its push routes answer as with push on. */
export const PUSH_IDENTITY = { ...webpush.generateVAPIDKeys(), subject: 'mailto:operator@example.org' }

/** A fresh web app session's refresh cookie, as a browser would send it back. */
export async function sessionCookie (t: TestApp): Promise<string> {
  const account = await t.register()
  const res = await t.request('POST', '/session', { body: { email: account.email, password: account.password }, headers: SESSION_CSRF })
  return String(res.headers['set-cookie']).split(';')[0]!
}

/** The path of the feed each scenario's feed row reads, by the scenario's request. */
export const feedOf = new Map<number, string>()

/** docs/api/on-behalf.md › Carers: the invitation each scenario's carers rows use, by the scenario's request. */
export const invitationOf = new Map<number, number>()
export const INVITATION_NOT_FOUND = [404, 'invitation not found'] as const

/** An invitation of `owner` to `email`; kept as the scenario's. */
export async function inviteFor (s: Scenario, t: TestApp, owner: Account, email: string): Promise<void> {
  const res = await t.post('/users/me/trusted-people', { email, can: ['create'] }, owner.token)
  assertStatus(res, 201)
  invitationOf.set(s.requestId, res.body.id)
}
/** A person with no part in the scenario invites its `assigned`: accepting makes him her carer, which no other row sees. */
export const inviteAssigned = async (s: Scenario, t: TestApp): Promise<void> => await inviteFor(s, t, await t.register(), s.assigned.email)

/** The check each scenario's revoke row revokes, by the user it is about. */
export const checkOf = new Map<number, number>()

/** A check of `userId` recorded by the admin; its id. */
export async function recordCheck (t: TestApp, userId: number): Promise<number> {
  const res = await t.post(`/admin/users/${userId}/checks`, { kind: 'identity', note: 'matrix check' }, t.admin.token)
  assertStatus(res, 201)
  return res.body.id
}

export const SIGNED_IN = ACTORS.filter((actor) => actor !== 'anonymous')
export const all = (outcome: Outcome) => Object.fromEntries(ACTORS.map((actor) => [actor, outcome])) as Expected
/** No token needed: everyone, anonymous included. */
export const everyone = (outcome: Outcome): Expected => all(outcome)
/** A token needed: anonymous gets 401, every signed-in caller `outcome` unless `except` says otherwise. */
export const signedIn = (outcome: Outcome, except: Partial<Expected> = {}): Expected => ({ ...all(outcome), anonymous: UNAUTHORIZED, ...except })
export const COORDINATOR_REQUIRED = [403, 'coordinator role required'] as const
/** docs/api/on-behalf.md › Coordinators and clients: holders of coordinate_requests (coordinators and admins) only; `readers` also lets moderators read. */
export const coordinatorsOnly = (outcome: Outcome, readers = false): Expected =>
  signedIn(COORDINATOR_REQUIRED, { coordinator: outcome, admin: outcome, ...(readers ? { moderator: outcome } : {}) })
export const moderatorsOnly = (outcome: Outcome): Expected => signedIn(MODERATOR_REQUIRED, { moderator: outcome, admin: outcome })
export const adminOnly = (outcome: Outcome, except: Partial<Expected> = {}): Expected => signedIn(ADMIN_REQUIRED, { admin: outcome, ...except })

/** Every scenario user's home phone and address, and every scenario request's contact details. */
export const HOME = { phone: '+4915112345678', address: 'Hidden Lane 5' }
export const CONTACT = { contact_phone: '+4930999888', contact_notes: 'Key under the mat' }
/** A window (docs/api/schedule.md) two days on, so its assigned volunteer may confirm (§ 3). */
export const WINDOW_START = Date.now() + 2 * 86_400_000
export const WINDOW = { window_start: new Date(WINDOW_START).toISOString(), window_end: new Date(WINDOW_START + 3_600_000).toISOString() }
export const ONLY_ASSIGNED_CONFIRMS = [400, 'only the assigned volunteer can confirm'] as const
export const ONLY_REQUESTER_STILL_NEEDED = [400, 'only the requester can say a request is still needed'] as const
export const NOT_APPROVED = [400, 'request is not approved'] as const

/** docs/api/help.md › Privacy: a request's contact details for `seeing`, null for everyone else. */
export const contactShownTo = (...seeing: Actor[]) => (res: Response, { actor }: Cell) => {
  const shown = seeing.includes(actor)
  assert.equal(res.body.contact_phone, shown ? CONTACT.contact_phone : null, 'contact_phone')
  assert.equal(res.body.contact_notes, shown ? CONTACT.contact_notes : null, 'contact_notes')
}

/** docs/api/help.md › Privacy: a profile's phone and address for `seeing`, null for everyone else. */
export const homeShownTo = (...seeing: Actor[]) => (res: Response, { actor }: Cell) => {
  const shown = seeing.includes(actor)
  assert.equal(res.body.phone, shown ? HOME.phone : null, 'phone')
  assert.equal(res.body.address, shown ? HOME.address : null, 'address')
}

/** A list holds the scenario's request for `seeing` only, and never a contact detail. */
export const listedFor = (...seeing: Actor[]) => (res: Response, { actor, s }: Cell) => {
  const items = res.body as Array<Record<string, unknown>>
  assert.equal(items.some((item) => item.id === s.requestId), seeing.includes(actor), 'the request listed')
  assert.ok(items.every((item) => !('contact_phone' in item) && !('contact_notes' in item)), 'no contact details in a list')
}

/**
 * docs/api/help.md › Maps: the map marks the scenario's request for `seeing`, at its exact point for `exactFor` and at its
 * grid cell for the others, and a marker holds nothing a list item would not (no contact, no address).
 */
export const markedFor = (seeing: readonly Actor[], exactFor: readonly Actor[] = []) => (res: Response, { actor, s }: Cell) => {
  const markers = (res.body as { markers: Array<Record<string, unknown> & { id: number, location: { precision_meters: number } }> }).markers
  const marker = markers.find((item) => item.id === s.requestId)
  assert.equal(marker !== undefined, seeing.includes(actor), 'the request marked')
  if (marker !== undefined) assert.equal(marker.location.precision_meters === 0, exactFor.includes(actor), 'exact point')
  assert.ok(markers.every((item) => Object.keys(item).sort().join() === 'id,location,request_type_id,status,title,urgency'), 'only what a marker needs')
}

/** docs/api/help.md › Privacy: the requester and moderators see every response; anyone else only their own. */
export const responsesSeen = (counts: Partial<Record<Actor, number>>) => (res: Response, { actor, account }: Cell) => {
  const items = res.body as Array<{ volunteer_id: number }>
  assert.equal(items.length, counts[actor], 'number of responses seen')
  if (!['requester', 'moderator', 'admin'].includes(actor)) assert.ok(items.every((item) => item.volunteer_id === account?.id), 'only their own')
}

export const rolesOf = (actor: Actor) => actor === 'moderator' ? ['moderator', 'volunteer'] : actor === 'admin' ? ['admin', 'volunteer'] : actor === 'coordinator' ? ['coordinator', 'volunteer'] : ['volunteer']
/** docs/api/help.md › Roles and permissions: the mapping of roles to permissions. */
export const permissionsOf = (actor: Actor) => [
  'create_request', 'respond_request',
  ...(actor === 'moderator' || actor === 'admin' ? ['moderate_request'] : []),
  ...(actor === 'admin' ? ['manage_users', 'coordinate_requests', 'view_reports'] : []),
  ...(actor === 'coordinator' ? ['coordinate_requests'] : []),
].sort()
export const names = (res: Response) => (res.body as Array<{ name: string }>).map((item) => item.name).sort()

export const CONCERN_TEXT = 'Worried about how this request is going.'
/** The concern raiseConcern made last: each cell of a row that resolves one gets its own. */
export let raisedConcern = 0
/** A new concern about the scenario's request, by a new account (so nobody's daily limit is reached). */
export async function raiseConcern (s: Scenario, t: TestApp): Promise<void> {
  const res = await t.post('/concerns', { request_id: s.requestId, text: CONCERN_TEXT }, (await t.register()).token)
  assertStatus(res, 201)
  raisedConcern = res.body.id
}

/** docs/api/schedule.md: a series of the scenario's requester, its first day past the horizon (no occurrences). */
export const SERIES_START = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10)
export const SERIES_INPUT = { template: { ...REQUEST_INPUT, ...CONTACT }, days: ['tue'], start_time: '07:30', duration_minutes: 60, time_zone: 'UTC', starts_on: SERIES_START }
/** The series newSeries made last: each cell of a row that needs one gets its own. */
export let madeSeries = 0
export async function newSeries (s: Scenario, t: TestApp): Promise<void> {
  const res = await t.post('/request-series', SERIES_INPUT, s.requester.token)
  assertStatus(res, 201)
  madeSeries = res.body.id
}
export const SERIES_NOT_FOUND = [404, 'series not found'] as const
/** The requester, moderators and admins see a series; to others it does not exist. */
export const seriesParties = (outcome: Outcome, forModerators: Outcome = outcome): Expected =>
  signedIn(SERIES_NOT_FOUND, { requester: outcome, moderator: forModerators, admin: forModerators })

export const req = (s: Scenario) => `/requests/${s.requestId}`
/** The client every client row reads and changes, made by the bootstrapped admin (no actor); `erasable`, one per erasing cell. */
export const CLIENT = { first_name: 'Matrix', last_name: 'Client', phone: '+4917011122233', consent: { how: 'in_person' } }
export let matrixClient = 0
export async function newClient (t: TestApp): Promise<number> {
  const res = await t.post('/clients', CLIENT, t.admin.token)
  assertStatus(res, 201)
  return res.body.id
}
/** Makes the client every client row reads and changes (once per app). */
export async function makeMatrixClient (t: TestApp): Promise<void> { matrixClient = await newClient(t) }
export const nearby = (s: Scenario) => `/requests/nearby?lat=${s.point.lat}&lon=${s.point.lon}&radius=100`
export const rectangle = (s: Scenario) => `min_lon=${s.point.lon - 0.001}&min_lat=${s.point.lat - 0.001}&max_lon=${s.point.lon + 0.001}&max_lat=${s.point.lat + 0.001}`
export const bounds = (s: Scenario) => `/requests/bounds?${rectangle(s)}`
export const map = (s: Scenario) => `/requests/map?${rectangle(s)}`
