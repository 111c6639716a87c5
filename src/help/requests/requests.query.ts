import { parseDecimal } from '../../lib/decimal.js'
import { badRequest } from '../../lib/errors.js'
import type { NearbySearch, Rectangle } from '../../lib/geo.js'
import type { MapQuery, NearbyQuery } from './requests.schemas.js'

/**
 * The query strings of the two searches, read into numbers with the interface's exact texts
 * (docs/api/conventions.md › Everywhere). The routes call these, so the service receives numbers, never text.
 * The schemas declare the parameters as text because the texts depend on more than one parameter
 * ('lat and lon are required'), and an empty parameter counts as missing.
 */

export const DEFAULT_RADIUS_M = 5000
export const MIN_RADIUS_M = 100
export const MAX_RADIUS_M = 50000

/** A parameter sent empty (`?lat=`) counts as not sent. */
const absent = (raw: string | undefined): raw is undefined | '' => raw === undefined || raw === ''

function inRange (raw: string, min: number, max: number, error: string): number {
  const value = parseDecimal(raw)
  if (value === undefined || value < min || value > max) throw badRequest(error)
  return value
}

export function parseNearby (query: NearbyQuery): NearbySearch {
  if (absent(query.lat) || absent(query.lon)) throw badRequest('lat and lon are required')
  return {
    lat: inRange(query.lat, -90, 90, 'invalid latitude'),
    lon: inRange(query.lon, -180, 180, 'invalid longitude'),
    radius: absent(query.radius) ? DEFAULT_RADIUS_M : inRange(query.radius, MIN_RADIUS_M, MAX_RADIUS_M, 'invalid radius'),
  }
}

/** The rectangle of a bounds or map query (BoundsQuery has the same fields, and paging with no effect). */
export function parseBounds (query: Omit<MapQuery, 'center_lat' | 'center_lon'>): Rectangle {
  const { min_lon: minLon, min_lat: minLat, max_lon: maxLon, max_lat: maxLat } = query
  if (absent(minLon) || absent(minLat) || absent(maxLon) || absent(maxLat)) {
    throw badRequest('min_lon, min_lat, max_lon, max_lat are required')
  }
  const rectangle = {
    minLon: inRange(minLon, -180, 180, 'invalid min_lon'),
    minLat: inRange(minLat, -90, 90, 'invalid min_lat'),
    maxLon: inRange(maxLon, -180, 180, 'invalid max_lon'),
    maxLat: inRange(maxLat, -90, 90, 'invalid max_lat'),
  }
  // docs/api/help.md › Searches: an upside-down rectangle is refused; a reversed longitude range is not.
  if (rectangle.minLat > rectangle.maxLat) throw badRequest('invalid min_lat')
  return rectangle
}

/**
 * A map query: its rectangle, and the point its markers are chosen nearest to (docs/api/help.md ›
 * Maps): the rectangle's middle unless center_lat and center_lon say otherwise. A map zoomed
 * out past the whole world asks for -180..180, whose middle is longitude 0, not what the person looks at.
 */
export function parseMapView (query: MapQuery): { rectangle: Rectangle, centre: { lat: number, lon: number } | undefined } {
  const rectangle = parseBounds(query)
  if (absent(query.center_lat) && absent(query.center_lon)) return { rectangle, centre: undefined }
  if (absent(query.center_lat) || absent(query.center_lon)) throw badRequest('center_lat and center_lon go together')
  return {
    rectangle,
    centre: { lat: inRange(query.center_lat, -90, 90, 'invalid center_lat'), lon: inRange(query.center_lon, -180, 180, 'invalid center_lon') },
  }
}

/** `suitable=true` (docs/api/visits.md › Needs and matching): only what the caller can do; `false` or left out: everything, as 1.0.1. */
export function parseSuitable (raw: string | undefined): boolean {
  if (absent(raw) || raw === 'false') return false
  if (raw === 'true') return true
  throw badRequest('invalid suitable')
}
