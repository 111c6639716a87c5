/**
 * The geometry of the two searches: where ll_to_earth puts a point, the distance from a chord, and the
 * 3-D box that lets the GiST index answer a map rectangle. Pure: no database, no framework.
 */

/** earth() of the earthdistance extension: the sphere ll_to_earth puts points on, in metres. */
export const EARTH_RADIUS_M = 6378168

/**
 * The great-circle distance in metres of two points `chord` metres apart on the earth() sphere: what
 * earthdistance's earth_distance() gives, by its own formula (sec_to_gc). The nearby search reads the chord
 * (`location <-> point`, its sort key) and converts it here: earth_distance() in the SQL is a SQL-language
 * function PostgreSQL does not inline there, so it parsed and planned its body again on every search.
 */
export function chordToMeters (chord: number): number {
  if (chord < 0) return 0
  const half = chord / (2 * EARTH_RADIUS_M)
  return half > 1 ? Math.PI * EARTH_RADIUS_M : 2 * EARTH_RADIUS_M * Math.asin(half)
}

/** A nearby search, read from the query string by the route (help/requests/requests.query.ts). */
export interface NearbySearch { lat: number, lon: number, radius: number }

/** A map rectangle; minLon > maxLon means it crosses the antimeridian. */
export interface Rectangle { minLon: number, minLat: number, maxLon: number, maxLat: number }

/** A point in the earth-centred coordinates of ll_to_earth, in metres. */
export type Vector = [number, number, number]
/** An axis-aligned box in the earth-centred coordinates of ll_to_earth. */
export interface Cube { lower: Vector, upper: Vector }

/** One rectangle that does not cross the antimeridian, with the cube that contains it. */
export interface BoundsBox extends Rectangle { cube: Cube }

/**
 * Slack added on every side of the cube: JavaScript's and PostgreSQL's sin/cos may differ in the last
 * bit, and a point on the rectangle's edge must still fall inside. The exact latitude/longitude test
 * that follows the index condition decides, so the slack costs nothing but a few candidates.
 */
const SLACK_M = 1

const radians = (degrees: number): number => degrees * Math.PI / 180

interface Interval { min: number, max: number }

function interval (values: number[]): Interval {
  return { min: Math.min(...values), max: Math.max(...values) }
}

/** Range of cos over [from, to] degrees (within -180..180): the ends, plus 1 at 0 and -1 at ±180. */
function cosRange (from: number, to: number): Interval {
  const values = [Math.cos(radians(from)), Math.cos(radians(to))]
  if (from <= 0 && to >= 0) values.push(1)
  if (from <= -180 || to >= 180) values.push(-1)
  return interval(values)
}

/** Range of sin over [from, to] degrees (within -180..180): the ends, plus ±1 at ±90. */
function sinRange (from: number, to: number): Interval {
  const values = [Math.sin(radians(from)), Math.sin(radians(to))]
  if (from <= 90 && to >= 90) values.push(1)
  if (from <= -90 && to >= -90) values.push(-1)
  return interval(values)
}

function product (a: Interval, b: Interval): Interval {
  return interval([a.min * b.min, a.min * b.max, a.max * b.min, a.max * b.max])
}

/**
 * Where ll_to_earth(lat, lon) puts a point, computed as it does. The nearby search sends this point
 * rather than calling ll_to_earth() in its SQL: ll_to_earth is a SQL-language function that PostgreSQL
 * does not inline there, so it parsed and planned its body again on every search.
 */
export function earthPoint (lat: number, lon: number): Vector {
  const φ = radians(lat)
  const λ = radians(lon)
  return [EARTH_RADIUS_M * Math.cos(φ) * Math.cos(λ), EARTH_RADIUS_M * Math.cos(φ) * Math.sin(λ), EARTH_RADIUS_M * Math.sin(φ)]
}

/**
 * The smallest axis-aligned cube holding every point ll_to_earth gives for the rectangle
 * (minLon <= maxLon): x = R cos(lat) cos(lon), y = R cos(lat) sin(lon), z = R sin(lat).
 */
export function boundingCube ({ minLon, minLat, maxLon, maxLat }: Rectangle): Cube {
  const cosLat = cosRange(minLat, maxLat) // latitudes lie in -90..90, where cos >= 0
  const x = product(cosLat, cosRange(minLon, maxLon))
  const y = product(cosLat, sinRange(minLon, maxLon))
  const z = { min: Math.sin(radians(minLat)), max: Math.sin(radians(maxLat)) }
  return {
    lower: [x.min, y.min, z.min].map((v) => v * EARTH_RADIUS_M - SLACK_M) as Vector,
    upper: [x.max, y.max, z.max].map((v) => v * EARTH_RADIUS_M + SLACK_M) as Vector,
  }
}

/** The rectangle as one box, or two when it crosses the antimeridian (min_lon..180 and -180..max_lon). */
export function boundsBoxes (rectangle: Rectangle): BoundsBox[] {
  const parts = rectangle.minLon <= rectangle.maxLon
    ? [rectangle]
    : [{ ...rectangle, maxLon: 180 }, { ...rectangle, minLon: -180 }]
  return parts.map((part) => ({ ...part, cube: boundingCube(part) }))
}

/** The middle of the rectangle; across the antimeridian, the middle of the span that crosses it. */
export function rectangleCentre (rectangle: Rectangle): { lat: number, lon: number } {
  const span = rectangle.minLon <= rectangle.maxLon ? rectangle.maxLon - rectangle.minLon : rectangle.maxLon + 360 - rectangle.minLon
  const lon = rectangle.minLon + span / 2
  return { lat: (rectangle.minLat + rectangle.maxLat) / 2, lon: lon > 180 ? lon - 360 : lon }
}

/**
 * The farthest any point of the boxes can lie from `from` (a point of ll_to_earth), as a chord: the
 * farthest corner of their cubes, which hold every point of the rectangle. A KNN read that has passed
 * this distance has read every request inside.
 */
export function farthestChord (from: Vector, boxes: readonly BoundsBox[]): number {
  let farthest = 0
  for (const { cube } of boxes) {
    const dx = Math.max(Math.abs(cube.lower[0] - from[0]), Math.abs(cube.upper[0] - from[0]))
    const dy = Math.max(Math.abs(cube.lower[1] - from[1]), Math.abs(cube.upper[1] - from[1]))
    const dz = Math.max(Math.abs(cube.lower[2] - from[2]), Math.abs(cube.upper[2] - from[2]))
    farthest = Math.max(farthest, Math.hypot(dx, dy, dz))
  }
  return farthest
}
