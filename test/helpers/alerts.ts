import assert from 'node:assert/strict'
import type { AlertSettings } from '../../src/config.js'
import type { CheckKind } from '../../src/lib/checks.js'
import { AlertService } from '../../src/help/alerts/alerts.service.js'
import { CatchUpService } from '../../src/help/alerts/catch-up.service.js'
import { changesOn } from '../../src/areas.js'
import { EARTH_RADIUS_M } from '../../src/lib/geo.js'
import { startApp, type Account, type TestApp } from './app.js'
import type { ManualClock } from './clock.js'
import type { Engine } from './engines.js'
import { requestInput } from './requests.js'

export interface Place { latitude: number, longitude: number }

let places = 0
/** A place of its own for each test (a degree of latitude apart, over 100 km): no test sees another's volunteers. */
export function newPlace (): Place {
  places += 1
  return { latitude: 30 + places, longitude: 13.405 }
}

/** The point `meters` due north of `place`: along a meridian the great-circle distance is exactly this. */
export function north (place: Place, meters: number): Place {
  return { latitude: place.latitude + meters / EARTH_RADIUS_M * 180 / Math.PI, longitude: place.longitude }
}

export const TEST_ALERTS: AlertSettings = Object.freeze({
  roundSeconds: Object.freeze({ urgent: 60, high: 120, medium: 300, low: 600 }),
  stopAfterOffers: 3,
  maxRounds: 5,
  batch: 5,
  ringMeters: 1000,
  catchUp: 3,
})

/** The app on `engine` with TEST_ALERTS and no ticker (each test runs the rounds itself: RoundDriver below), and a moderator. */
export async function startAlertsApp (engine: Engine): Promise<{ t: TestApp, moderator: Account }> {
  const t = await startApp(engine, { alerts: TEST_ALERTS }, { alertTickMs: 0 })
  return { t, moderator: await t.registerWithRole('moderator') }
}

/** PUT /users/me/availability; asserts 200. */
export async function setAvailability (t: TestApp, account: Account, fields: Record<string, unknown>): Promise<void> {
  const res = await t.request('PUT', '/users/me/availability', { body: fields, token: account.token })
  assert.equal(res.status, 200, res.text)
}

/** A new volunteer on duty `meters` north of `place` (radius 5000 m unless told). */
export async function volunteerAt (t: TestApp, place: Place, meters: number, fields: Record<string, unknown> = {}): Promise<Account> {
  const account = await t.register()
  await setAvailability(t, account, { on_duty: true, ...north(place, meters), ...fields })
  return account
}

export interface Notice { id: number, type: string, request_id: number, data: Record<string, any>, created_at: string }

/** The account's notifications (GET /notifications), oldest first; of one request when told. */
export async function noticesOf (t: TestApp, account: Account, requestId?: number): Promise<Notice[]> {
  const res = await t.get<Notice[]>('/notifications?limit=100', account.token)
  assert.equal(res.status, 200, res.text)
  return res.body.filter((n) => requestId === undefined || n.request_id === requestId).reverse()
}

export async function alertsOf (t: TestApp, account: Account, requestId?: number): Promise<Notice[]> {
  return (await noticesOf(t, account, requestId)).filter((n) => n.type === 'request_alert')
}

/** A request at `place` created by `requester` and approved by `moderator`, through the API. */
export async function approvedAt (t: TestApp, place: Place, requester: Account, moderator: Account, overrides: Record<string, unknown> = {}): Promise<number> {
  const created = await t.post('/requests', requestInput({ ...place, ...overrides }), requester.token)
  assert.equal(created.status, 201, created.text)
  const approved = await t.post(`/moderation/requests/${created.body.id}/approve`, {}, moderator.token)
  assert.equal(approved.status, 200, approved.text)
  return created.body.id
}

/**
 * Runs alert rounds the way an instance's job does, on a clock the test moves forward (apps in these
 * tests start with alertTickMs 0, so no round runs unless a test runs it). Without `clock` it starts a
 * minute ahead of the real time, so a round scheduled "now" by an approval is due at once; with the
 * app's ManualClock (startApp's clock option), both move together.
 */
export class RoundDriver {
  private offsetMs = 60_000
  readonly service: AlertService
  /** The catch-ups of docs/api/help.md › Catch-up alerts, run with the rounds on the same clock. */
  readonly catchUps: CatchUpService

  /** `placeOf`: where requests stand for alerting, as the app passes it (src/app.ts alertPlace). */
  /** `checks`: VOLUNTEER_CHECKS and TIME_ZONE as the app passes them (docs/api/accounts.md › Checks that vet volunteers). */
  constructor (t: TestApp, settings: AlertSettings = TEST_ALERTS, placeOf?: (latitude: number, longitude: number) => Place, private readonly clock?: ManualClock,
    checks?: { required: readonly CheckKind[], timeZone: string }) {
    this.service = new AlertService(changesOn(t.db), settings, { now: () => this.now() }, 'fair', placeOf, checks)
    this.catchUps = new CatchUpService(changesOn(t.db), settings, { now: () => this.now() }, placeOf, checks)
  }

  now (): Date { return this.clock?.now() ?? new Date(Date.now() + this.offsetMs) }

  /** Moves the clock on, then runs every round and every catch-up due by then; how many rounds ran. */
  async after (seconds: number): Promise<number> {
    if (this.clock !== undefined) this.clock.advance(seconds * 1000)
    else this.offsetMs += seconds * 1000
    const rounds = await this.service.runDue(1000)
    await this.catchUps.runDue(1000)
    return rounds
  }

  /** Runs every round due now. */
  run (): Promise<number> { return this.after(0) }
}
