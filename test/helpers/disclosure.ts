import assert from 'node:assert/strict'
import type { Account, TestApp } from './app.js'
import { SERIES_EXERCISES } from './disclosure-series.js'
import { createRequest, requestInput } from './requests.js'

/** The caller's own number and its confirmation (docs/api/messaging.md › Texts): exercised, but they answer with no request or profile of the scene. */
export const OWN_NUMBER_ONLY: readonly string[] = ['GET /users/me/phone', 'POST /users/me/phone/verify/confirm']

/**
 * The people and requests of the proof of docs/privacy.md › `ADDRESS_PRIVACY=parties` and › Access records: one requester, Erna Schmidt, with a request
 * in_progress (A, in Berlin, with a window, its accepted volunteer), one approved (B, no city, a volunteer's offer
 * pending), one awaiting moderation (C) and one a moderator will cancel (D); a stranger; a moderator.
 */

export type ViewerName = 'stranger' | 'pending volunteer' | 'accepted volunteer' | 'requester' | 'moderator'
export const VIEWERS: readonly ViewerName[] = ['stranger', 'pending volunteer', 'accepted volunteer', 'requester', 'moderator']

export interface Made { id: number, address: string, city: string | null }

export interface Scene {
  viewers: Record<ViewerName, Account>
  requester: Account
  requests: { A: Made, B: Made, C: Made, D: Made }
  /** Who, besides the requester and moderators, is a party of each request (docs/privacy.md: the accepted volunteer of one in_progress). */
  isParty: (viewer: ViewerName, requestId: number) => boolean
}

export const PLACE = { latitude: 52.52, longitude: 13.405 }
export const REQUESTER_PHONE = '+4930111222'
export const REQUESTER_ADDRESS = 'Lindenstraße 12, 10969 Berlin'

/** Sets the scene through the API only. */
export async function setScene (t: TestApp): Promise<Scene> {
  const requester = await t.register({ first_name: 'Erna', last_name: 'Schmidt' })
  assert.equal((await t.patch('/users/me', { phone: REQUESTER_PHONE, address: REQUESTER_ADDRESS }, requester.token)).status, 200)
  const moderator = await t.registerWithRole('moderator')
  const stranger = await t.register()
  const pending = await t.register()
  const accepted = await t.register()
  const make = async (address: string, city: string | undefined, approve: boolean, window: Record<string, string> = {}): Promise<Made> => {
    const created = await createRequest(t, requester.token, { address, city, latitude: PLACE.latitude, longitude: PLACE.longitude, ...window })
    if (approve) assert.equal((await t.post(`/moderation/requests/${created.id as number}/approve`, {}, moderator.token)).status, 200)
    return { id: created.id, address, city: city ?? null }
  }
  // A has a window (docs/api/schedule.md › A time window on a request) two days on, so its volunteer may confirm (› Confirmation, reminders, expiry).
  const start = Date.now() + 2 * 86_400_000
  const A = await make('Lindenstraße 12, 3rd floor left', 'Berlin', true, { window_start: new Date(start).toISOString(), window_end: new Date(start + 3_600_000).toISOString() })
  const B = await make('Gartenweg 3', undefined, true)
  const C = await make('Am Hang 7', 'Berlin', false)
  const D = await make('Seestraße 1', 'Berlin', true)
  const offer = async (id: number, volunteer: Account) => {
    const res = await t.post(`/requests/${id}/responses`, { message: 'I can help' }, volunteer.token)
    assert.equal(res.status, 201, res.text)
    return res.body.id as number
  }
  const acceptedOffer = await offer(A.id, accepted)
  assert.equal((await t.post(`/requests/${A.id}/responses/${acceptedOffer}/accept`, undefined, requester.token)).status, 200)
  await offer(B.id, pending)
  const viewers = { stranger, 'pending volunteer': pending, 'accepted volunteer': accepted, requester, moderator }
  return {
    viewers,
    requester,
    requests: { A, B, C, D },
    isParty: (viewer, requestId) => viewer === 'requester' || viewer === 'moderator' || (viewer === 'accepted volunteer' && requestId === A.id),
  }
}

/** Every property name a JSON Schema can give an answer, at any depth. */
export function propertyNames (schema: unknown, into = new Set<string>()): Set<string> {
  if (schema === null || typeof schema !== 'object') return into
  const node = schema as Record<string, unknown>
  if (node.properties !== undefined) {
    for (const [name, inner] of Object.entries(node.properties as Record<string, unknown>)) {
      into.add(name)
      propertyNames(inner, into)
    }
  }
  for (const key of ['items', 'additionalProperties']) propertyNames(node[key], into)
  for (const key of ['anyOf', 'oneOf', 'allOf']) for (const inner of (node[key] as unknown[] | undefined) ?? []) propertyNames(inner, into)
  return into
}

/** The operations ("GET /requests/{id}") whose 200 or 201 answer may hold any of `fields`, read from the running service's OpenAPI document. */
export async function operationsAnswering (t: TestApp, fields: readonly string[]): Promise<string[]> {
  const doc = (await t.get('/openapi.json')).body as { paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema: unknown }> }> }>> }
  const found: string[] = []
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const answers = ['200', '201'].map((status) => operation.responses?.[status]?.content?.['application/json']?.schema)
      const names = new Set<string>()
      for (const schema of answers) propertyNames(schema, names)
      if (fields.some((field) => names.has(field))) found.push(`${method.toUpperCase()} /${path.replace(/^\/api\/v1\/?/, '')}`)
    }
  }
  return found.sort()
}

export type Seen =
  | { kind: 'request', made: Made, item: any }
  | { kind: 'marker', made: Made, item: any }
  | { kind: 'profile', item: any, contactShown: boolean }
  /** A request series (docs/api/schedule.md › Series): only its requester, moderators and admins are ever shown one. */
  | { kind: 'series', item: any }
  /**
   * docs/api/on-behalf.md › Coordinators and clients: a client's record, or a client's request in the coordinators' list. None of the five viewers
   * holds coordinate_requests, so each is refused a write (checked in the exercise); the moderator reads a record,
   * and at the moderator's turn the admin (a coordinator too) writes one and reads the list: always whole.
   */
  | { kind: 'client', item: any }
export type Exercise = (t: TestApp, scene: Scene, viewer: ViewerName) => Promise<Seen[]>

const near = `lat=${PLACE.latitude}&lon=${PLACE.longitude}&radius=1000&limit=100`
const box = `min_lon=${PLACE.longitude - 0.01}&min_lat=${PLACE.latitude - 0.01}&max_lon=${PLACE.longitude + 0.01}&max_lat=${PLACE.latitude + 0.01}`

export async function ok (t: TestApp, method: 'GET' | 'POST', path: string, token: string, status = 200): Promise<any> {
  const res = await t.request(method, path, { token, ...(method === 'POST' ? { body: {} } : {}) })
  assert.equal(res.status, status, `${method} ${path}: ${res.text}`)
  return res.body
}

/** The scene's requests among list items. */
function ofScene (scene: Scene, items: any[], kind: 'request' | 'marker' = 'request'): Seen[] {
  const made = Object.values(scene.requests)
  return items.flatMap((item) => {
    const found = made.find((m) => m.id === item.id)
    return found === undefined ? [] : [{ kind, made: found, item }]
  })
}

/** Moderators only: everyone else's refusal is checked too. */
const moderatorsOnly = (path: string): Exercise => async (t, scene, viewer) => {
  const token = scene.viewers[viewer].token
  if (viewer !== 'moderator') return (await ok(t, 'GET', path, token, 403), [])
  return ofScene(scene, await ok(t, 'GET', path, token))
}

export const CLIENT_ADDRESS = 'Kiefernweg 4'
/** A client, and a client's request, made and cancelled by the admin (its requester: nothing of it is revealed to anyone else here). */
async function adminsClient (t: TestApp): Promise<{ clientId: number, requestId: number }> {
  const client = await t.post('/clients', { first_name: 'Karl', last_name: 'Klient', phone: '+4930765432', address: CLIENT_ADDRESS, consent: { how: 'phone' } }, t.admin.token)
  assert.equal(client.status, 201, client.text)
  const request = await t.post('/requests', { ...requestInput(), address: CLIENT_ADDRESS, on_behalf_of: { client_id: client.body.id } }, t.admin.token)
  assert.equal(request.status, 201, request.text)
  // Cancelled at once, so that no search or moderation list of another exercise shows it to a viewer.
  assert.equal((await t.post(`/requests/${request.body.id}/cancel`, undefined, t.admin.token)).status, 200)
  return { clientId: client.body.id, requestId: request.body.id }
}

/** docs/api/on-behalf.md › Coordinators and clients: `allowed` of the five viewers is served by `path`; the others are refused. At the moderator's turn, `asAdmin` too. */
const clientExercise = (method: 'GET' | 'POST' | 'PATCH', path: (id: number) => string, moderatorReads: boolean, asAdmin?: (t: TestApp, ids: { clientId: number, requestId: number }) => Promise<any[]>): Exercise =>
  async (t, scene, viewer) => {
    const ids = await adminsClient(t)
    const token = scene.viewers[viewer].token
    const body = method === 'GET' ? undefined : { first_name: 'Karla', last_name: 'Klient', consent: { how: 'written' } }
    const res = await t.request(method, path(ids.clientId), { token, body })
    if (viewer === 'moderator' && moderatorReads) {
      assert.equal(res.status, 200, res.text)
      return [res.body].flat().map((item) => ({ kind: 'client', item }))
    }
    assert.deepEqual([res.status, res.body], [403, { error: 'coordinator role required' }], `${method} ${path(ids.clientId)} by the ${viewer}`)
    if (viewer !== 'moderator' || asAdmin === undefined) return []
    return (await asAdmin(t, ids)).map((item) => ({ kind: 'client', item }))
  }

/** How each operation is exercised by each viewer. Keys must be exactly the operations the document lists. */
export const EXERCISES: Record<string, Exercise> = {
  'POST /requests': async (t, scene, viewer) => {
    // Only the person asking creates one, and is its requester.
    if (viewer !== 'requester') return []
    const res = await t.post('/requests', { ...requestInput(), address: 'Am Ufer 2', city: undefined }, scene.requester.token)
    assert.equal(res.status, 201, res.text)
    return [{ kind: 'request', made: { id: res.body.id, address: 'Am Ufer 2', city: null }, item: res.body }]
  },
  'GET /requests/my': async (t, scene, viewer) => ofScene(scene, await ok(t, 'GET', '/requests/my?limit=100', scene.viewers[viewer].token)),
  'GET /requests/nearby': async (t, scene, viewer) => ofScene(scene, await ok(t, 'GET', `/requests/nearby?${near}`, scene.viewers[viewer].token)),
  'GET /requests/bounds': async (t, scene, viewer) => ofScene(scene, await ok(t, 'GET', `/requests/bounds?${box}`, scene.viewers[viewer].token)),
  'GET /requests/map': async (t, scene, viewer) => ofScene(scene, (await ok(t, 'GET', `/requests/map?${box}`, scene.viewers[viewer].token)).markers, 'marker'),
  'GET /requests/{id}': async (t, scene, viewer) => {
    const { A, B, C } = scene.requests
    const seen: Seen[] = []
    for (const made of [A, B, C]) seen.push({ kind: 'request', made, item: await ok(t, 'GET', `/requests/${made.id}`, scene.viewers[viewer].token) })
    return seen
  },
  'POST /requests/{id}/cancel': async (t, scene, viewer) => {
    const { B, D } = scene.requests
    if (viewer === 'stranger') return (await ok(t, 'POST', `/requests/${B.id}/cancel`, scene.viewers[viewer].token, 400), [])
    if (viewer !== 'moderator') return []
    return [{ kind: 'request', made: D, item: await ok(t, 'POST', `/requests/${D.id}/cancel`, scene.viewers.moderator.token) }]
  },
  // docs/api/schedule.md › Confirmation, reminders, expiry: only A's accepted volunteer confirms, only the requester says B is still needed; the others' refusals are checked.
  'POST /requests/{id}/confirm': async (t, scene, viewer) => {
    const { A } = scene.requests
    if (viewer !== 'accepted volunteer') return (await ok(t, 'POST', `/requests/${A.id}/confirm`, scene.viewers[viewer].token, 400), [])
    return [{ kind: 'request', made: A, item: await ok(t, 'POST', `/requests/${A.id}/confirm`, scene.viewers[viewer].token) }]
  },
  'POST /requests/{id}/still-needed': async (t, scene, viewer) => {
    const { B } = scene.requests
    if (viewer !== 'requester') return (await ok(t, 'POST', `/requests/${B.id}/still-needed`, scene.viewers[viewer].token, 400), [])
    return [{ kind: 'request', made: B, item: await ok(t, 'POST', `/requests/${B.id}/still-needed`, scene.viewers[viewer].token) }]
  },
  // docs/web/schedule.md: the caller's coming help: A for its requester and its accepted volunteer (with the address), nothing for the others.
  'GET /users/me/coming-help': async (t, scene, viewer) => ofScene(scene, await ok(t, 'GET', '/users/me/coming-help?limit=100', scene.viewers[viewer].token)),
  'GET /moderation/requests/pending': moderatorsOnly('/moderation/requests/pending?limit=100'),
  'GET /moderation/requests/my': moderatorsOnly('/moderation/requests/my?limit=100'),
  'GET /users/me': async (t, scene, viewer) => {
    const me = await ok(t, 'GET', '/users/me', scene.viewers[viewer].token)
    return viewer === 'requester' ? [{ kind: 'profile', item: me, contactShown: true }] : []
  },
  'GET /users/{id}': async (t, scene, viewer) => {
    const profile = await ok(t, 'GET', `/users/${scene.requester.id}`, scene.viewers[viewer].token)
    // docs/api/help.md › Reading one request: the user, moderators, and the other side of a shared in_progress request.
    return [{ kind: 'profile', item: profile, contactShown: ['requester', 'moderator', 'accepted volunteer'].includes(viewer) }]
  },
  // docs/api/messaging.md › Texts: the caller's own number and its state, never another's; nothing of the scene's people.
  'GET /users/me/phone': async (t, scene, viewer) => {
    await ok(t, 'GET', '/users/me/phone', scene.viewers[viewer].token)
    return []
  },
  'POST /users/me/phone/verify/confirm': async (t, scene, viewer) => {
    await ok(t, 'POST', '/users/me/phone/verify/confirm', scene.viewers[viewer].token, 400)
    return []
  },
  'GET /users/me/export': async (t, scene, viewer) => {
    const exported = await ok(t, 'GET', '/users/me/export', scene.viewers[viewer].token)
    const seen = ofScene(scene, exported.requests)
    // Only the requester's own export holds her requests.
    if (viewer !== 'requester') assert.deepEqual(seen, [])
    return seen
  },
  ...SERIES_EXERCISES,
  'POST /clients': clientExercise('POST', () => '/clients', false, async (t) => {
    const res = await t.post('/clients', { first_name: 'Kurt', last_name: 'Klient', address: CLIENT_ADDRESS, consent: { how: 'in_person' } }, t.admin.token)
    assert.equal(res.status, 201, res.text)
    return [res.body]
  }),
  'GET /clients': clientExercise('GET', () => '/clients?q=Karl', true),
  'GET /clients/{id}': clientExercise('GET', (id) => `/clients/${id}`, true),
  'PATCH /clients/{id}': clientExercise('PATCH', (id) => `/clients/${id}`, false, async (t, { clientId }) => {
    const res = await t.patch(`/clients/${clientId}`, { needs: 'deaf: knock loudly' }, t.admin.token)
    assert.equal(res.status, 200, res.text)
    return [res.body]
  }),
  'GET /requests/coordinated': clientExercise('GET', () => '/requests/coordinated', false, async (t, { requestId }) => {
    const res = await t.get('/requests/coordinated?status=cancelled&limit=100', t.admin.token)
    assert.equal(res.status, 200, res.text)
    return (res.body as Array<{ id: number }>).filter((item) => item.id === requestId)
  }),
}
