import assert from 'node:assert/strict'
import type { AlertSettings } from '../../src/config.js'
import { AlertService } from '../../src/modules/alerts/alerts.service.js'
import { EARTH_RADIUS_M } from '../../src/modules/requests/geo.js'
import type { Account, TestApp } from './app.js'
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
})

/** PUT /users/me/availability; asserts 200. TEMP: SQL until the availability endpoints are merged. */
export async function setAvailability (t: TestApp, account: Account, fields: Record<string, unknown>): Promise<void> {
  const f = fields as any
  await t.db.query(`INSERT INTO volunteer_availability (user_id) VALUES ($1) ON CONFLICT DO NOTHING`, [account.id])
  await t.db.query(`UPDATE volunteer_availability SET on_duty = coalesce($2, on_duty), radius_meters = coalesce($3, radius_meters),
    latitude = CASE WHEN $4::boolean THEN $5 ELSE latitude END, longitude = CASE WHEN $4::boolean THEN $6 ELSE longitude END,
    request_type_ids = coalesce($7::bigint[], request_type_ids), max_alerts_per_day = coalesce($8, max_alerts_per_day) WHERE user_id = $1`,
  [account.id, f.on_duty ?? null, f.radius_meters ?? null, 'latitude' in f, f.latitude ?? null, f.longitude ?? null, f.request_type_ids ?? null, f.max_alerts_per_day ?? null])
  await t.db.query(`UPDATE volunteer_availability a SET alert_point = CASE WHEN a.latitude IS NOT NULL THEN ll_to_earth(a.latitude, a.longitude)
    WHEN u.latitude IS NOT NULL THEN ll_to_earth(u.latitude, u.longitude) END FROM users u WHERE u.id = a.user_id AND a.user_id = $1`, [account.id])
}

/** A new volunteer on duty `meters` north of `place` (radius 5000 m unless told). */
export async function volunteerAt (t: TestApp, place: Place, meters: number, fields: Record<string, unknown> = {}): Promise<Account> {
  const account = await t.register()
  await setAvailability(t, account, { on_duty: true, ...north(place, meters), ...fields })
  return account
}

export interface Notice { id: number, type: string, request_id: number, data: Record<string, any>, created_at: string }

/** The account's notifications (GET /notifications), oldest first. TEMP: SQL until the endpoint is merged. */
export async function noticesOf (t: TestApp, account: Account, requestId?: number): Promise<Notice[]> {
  const rows = await t.db.query<Notice>('SELECT id, type, request_id, data, created_at FROM notifications WHERE user_id = $1 ORDER BY id DESC LIMIT 100', [account.id])
  return rows.filter((n) => requestId === undefined || n.request_id === requestId).reverse()
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
 * Runs alert rounds the way an instance's ticker does, on a clock the test moves forward (apps in these
 * tests start with alertTickMs 0, so no round runs unless a test runs it). The clock starts a minute
 * ahead of the database's, so a round scheduled "now" by an approval is due at once.
 */
export class RoundDriver {
  private offsetMs = 60_000
  readonly service: AlertService

  constructor (t: TestApp, settings: AlertSettings = TEST_ALERTS) {
    this.service = new AlertService(t.db, settings, () => this.now())
  }

  now (): Date { return new Date(Date.now() + this.offsetMs) }

  /** Moves the clock on, then runs every round due by then; how many ran. */
  async after (seconds: number): Promise<number> {
    this.offsetMs += seconds * 1000
    return await this.service.runDue(1000)
  }

  /** Runs every round due now. */
  run (): Promise<number> { return this.after(0) }
}
