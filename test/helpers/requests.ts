import { mock } from 'node:test'
import { statementParts, type Database, type Statement } from '../../src/db/database.js'
import { gridPoint } from '../../src/lib/grid.js'
import type { TestApp } from './app.js'

/** A valid CreateRequestInput; override what a test is about. */
export function requestInput (overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    request_type_id: 1,
    title: 'Groceries for the week',
    description: 'Milk, bread and vegetables from the shop on the corner.',
    latitude: 52.52,
    longitude: 13.405,
    address: 'Alexanderplatz 1',
    city: 'Berlin',
    urgency: 'medium',
    contact_phone: '+4930123456',
    contact_notes: 'Ring twice, the bell is quiet.',
    ...overrides,
  }
}

/** Creates a request through the API and returns the Request body. */
export async function createRequest (t: TestApp, token: string, overrides: Record<string, unknown> = {}): Promise<any> {
  const res = await t.post('/requests', requestInput(overrides), token)
  if (res.status !== 201) throw new Error(`create request failed: ${res.status} ${res.text}`)
  return res.body
}

/**
 * Puts a request straight into a status with SQL. Used for states other features reach (in_progress
 * with an assigned volunteer comes from accepting a response), so these tests need not
 * depend on them.
 */
export async function setStatus (t: TestApp, id: number, status: string, assignedVolunteerId: number | null = null): Promise<void> {
  await t.db.query('UPDATE requests SET status = $2, assigned_volunteer_id = $3 WHERE id = $1', [id, status, assignedVolunteerId])
}

export interface Spot { lat: number, lon: number, status?: string, createdAt?: Date, urgency?: string, title?: string }

/** The default MAP_GRID_METERS, which the apps of the tests run with unless told. */
export const TEST_GRID_METERS = 300

/**
 * Inserts active requests quickly with SQL (approved unless told); returns their ids in order. The grid
 * point is stored as the service would store it (src/lib/grid.ts) for `gridMeters`.
 */
export async function insertRequests (t: TestApp, requesterId: number, spots: readonly Spot[], gridMeters = TEST_GRID_METERS): Promise<number[]> {
  const ids: number[] = []
  for (const [i, spot] of spots.entries()) {
    const grid = gridPoint(spot.lat, spot.lon, gridMeters)
    const rows = await t.db.query<{ id: number }>(/* sql */ `
      INSERT INTO requests (requester_id, request_type_id, title, description, latitude, longitude, address, urgency, status, created_at,
        grid_latitude, grid_longitude, grid_meters)
      VALUES ($1, 2, $2, 'Inserted by a search test', $3, $4, 'Test street 1', $5, $6, $7, $8, $9, $10)
      RETURNING id`,
    [requesterId, spot.title ?? `Spot number ${i}`, spot.lat, spot.lon, spot.urgency ?? 'low', spot.status ?? 'approved', spot.createdAt ?? new Date(),
      grid.latitude, grid.longitude, gridMeters])
    ids.push(rows[0]!.id)
  }
  return ids
}

/**
 * Runs `fn` while the database fails every statement whose text matches `pattern`, so a test can see
 * an operation's failure answer. Other statements (authentication) still run.
 */
export async function whileFailing<T> (db: Database, pattern: RegExp, fn: () => Promise<T>): Promise<T> {
  const original = db.query.bind(db)
  const fake = mock.method(db, 'query', async (statement: Statement, params?: readonly unknown[]) => {
    if (pattern.test(statementParts(statement, params).text)) throw new Error('simulated database failure')
    return await original(statement, params)
  })
  try {
    return await fn()
  } finally {
    fake.mock.restore()
  }
}

/** The sphere of the earthdistance extension (earth()), in metres: the service's distances are on it. */
export const EARTH_RADIUS_M = 6378168

const rad = (degrees: number) => degrees * Math.PI / 180
const deg = (radians: number) => radians * 180 / Math.PI

/** Great-circle distance by the haversine formula, independent of the service's SQL. */
export function haversine (lat1: number, lon1: number, lat2: number, lon2: number, radius = EARTH_RADIUS_M): number {
  const a = Math.sin(rad(lat2 - lat1) / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lon2 - lon1) / 2) ** 2
  return 2 * radius * Math.asin(Math.min(1, Math.sqrt(a)))
}

/** The point `distance` metres from (lat, lon) along the initial bearing (degrees clockwise from north). */
export function destination (lat: number, lon: number, bearing: number, distance: number): { lat: number, lon: number } {
  const δ = distance / EARTH_RADIUS_M
  const φ1 = rad(lat)
  const θ = rad(bearing)
  const φ2 = Math.asin(Math.sin(φ1) * Math.cos(δ) + Math.cos(φ1) * Math.sin(δ) * Math.cos(θ))
  const λ2 = rad(lon) + Math.atan2(Math.sin(θ) * Math.sin(δ) * Math.cos(φ1), Math.cos(δ) - Math.sin(φ1) * Math.sin(φ2))
  return { lat: deg(φ2), lon: ((deg(λ2) + 540) % 360) - 180 }
}

/** The fields of a Request, sorted, as the API answers with one. */
export const REQUEST_FIELDS = ['address', 'assigned_volunteer_id', 'cancel_reason', 'city', 'client_id', 'confirmed_at', 'contact_notes', 'contact_phone', 'created_at', 'description',
  'desired_completion_date', 'id', 'languages', 'needs', 'request_type_id', 'requester_id', 'return_of', 'series_id', 'status', 'title', 'updated_at', 'urgency',
  'window_end', 'window_start']
