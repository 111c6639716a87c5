import { parseDecimal } from '../../lib/decimal.js'
import { badRequest } from '../../lib/errors.js'
import type { NearbySearch, Rectangle } from '../../lib/geo.js'
import type { MapQuery, NearbyQuery } from './requests.schemas.js'

/**
 * The query strings of the two searches, read into numbers with the interface's exact texts
 * (interface.md › Errors). The routes call these, so the service receives numbers, never text.
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
export function parseBounds (query: MapQuery): Rectangle {
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
  // rules.md › Search and lists: an upside-down rectangle is refused; a reversed longitude range is not.
  if (rectangle.minLat > rectangle.maxLat) throw badRequest('invalid min_lat')
  return rectangle
}
