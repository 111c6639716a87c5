import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { parseDecimal } from '../../src/lib/decimal.js'
import { AppError } from '../../src/lib/errors.js'
import { boundingCube, boundsBoxes, chordToMeters, EARTH_RADIUS_M, earthPoint, type Cube, type Rectangle } from '../../src/lib/geo.js'
import { parseBounds, parseNearby } from '../../src/help/requests/requests.query.js'
import { nearbyStatement, nearbyTake } from '../../src/help/requests/search/nearby.js'
// The seeded generator the seed and bench use, so a failure can be replayed.
import { randomStream } from '../../scripts/lib/random.js'

/** Where ll_to_earth puts a point, computed independently of the code under test. */
function toEarth (lat: number, lon: number): [number, number, number] {
  const φ = lat * Math.PI / 180
  const λ = lon * Math.PI / 180
  return [EARTH_RADIUS_M * Math.cos(φ) * Math.cos(λ), EARTH_RADIUS_M * Math.cos(φ) * Math.sin(λ), EARTH_RADIUS_M * Math.sin(φ)]
}

const inside = (cube: Cube, point: number[]) => point.every((v, i) => v >= cube.lower[i]! && v <= cube.upper[i]!)

function throwsText (fn: () => unknown, text: string): void {
  assert.throws(fn, (error: unknown) => error instanceof AppError && error.status === 400 && error.text === text)
}

describe('parseDecimal', () => {
  for (const [raw, value] of [['52.52', 52.52], ['-0.5', -0.5], ['+3', 3], ['.5', 0.5], ['7.', 7], ['1e2', 100], ['-1.5E-1', -0.15], ['007', 7]] as const) {
    it(`reads ${JSON.stringify(raw)} as ${value}`, () => assert.equal(parseDecimal(raw), value))
  }
  for (const raw of ['', ' ', ' 1', '1 ', 'NaN', 'Infinity', '-Infinity', '0x10', '0b1', '1e', 'e1', '.', '-', '1,5', '1.2.3', '1e999', '12abc', '١٢']) {
    it(`refuses ${JSON.stringify(raw)}`, () => assert.equal(parseDecimal(raw), undefined))
  }
})

describe('parseNearby', () => {
  it('reads the point and the radius, 5000 by default', () => {
    assert.deepEqual(parseNearby({ lat: '52.5', lon: '13.4' }), { lat: 52.5, lon: 13.4, radius: 5000 })
    assert.deepEqual(parseNearby({ lat: '-90', lon: '180', radius: '100' }), { lat: -90, lon: 180, radius: 100 })
    assert.deepEqual(parseNearby({ lat: '90', lon: '-180', radius: '50000' }), { lat: 90, lon: -180, radius: 50000 })
    assert.deepEqual(parseNearby({ lat: '0', lon: '0', radius: '' }), { lat: 0, lon: 0, radius: 5000 })
  })
  it('needs both coordinates; an empty one counts as missing', () => {
    for (const query of [{}, { lat: '1' }, { lon: '1' }, { lat: '', lon: '1' }, { lat: '1', lon: '' }, { radius: '100' }]) {
      throwsText(() => parseNearby(query), 'lat and lon are required')
    }
  })
  it('refuses a latitude that is no number or outside -90..90', () => {
    for (const lat of ['90.0001', '-90.0001', 'abc', ' ', 'NaN', 'Infinity', '0x10', '1e3']) {
      throwsText(() => parseNearby({ lat, lon: '0' }), 'invalid latitude')
    }
  })
  it('refuses a longitude that is no number or outside -180..180', () => {
    for (const lon of ['180.0001', '-180.0001', 'x', ' ', 'NaN', '-Infinity', '0x10']) {
      throwsText(() => parseNearby({ lat: '0', lon }), 'invalid longitude')
    }
  })
  it('checks the latitude before the longitude', () => {
    throwsText(() => parseNearby({ lat: 'x', lon: 'y' }), 'invalid latitude')
  })
  it('refuses a radius that is no number or outside 100..50000', () => {
    for (const radius of ['99.999', '50000.001', '0', '-100', 'far', ' ', 'NaN', 'Infinity', '5e5']) {
      throwsText(() => parseNearby({ lat: '0', lon: '0', radius }), 'invalid radius')
    }
    assert.equal(parseNearby({ lat: '0', lon: '0', radius: '1e4' }).radius, 10000)
  })
})

describe('parseBounds', () => {
  const full = { min_lon: '13.3', min_lat: '52.4', max_lon: '13.5', max_lat: '52.6' }
  it('reads the rectangle', () => {
    assert.deepEqual(parseBounds(full), { minLon: 13.3, minLat: 52.4, maxLon: 13.5, maxLat: 52.6 })
  })
  it('needs all four corners; an empty one counts as missing', () => {
    for (const key of Object.keys(full) as Array<keyof typeof full>) {
      throwsText(() => parseBounds({ ...full, [key]: undefined }), 'min_lon, min_lat, max_lon, max_lat are required')
      throwsText(() => parseBounds({ ...full, [key]: '' }), 'min_lon, min_lat, max_lon, max_lat are required')
    }
  })
  it('names the first invalid corner', () => {
    for (const [key, bad] of [['min_lon', '-180.5'], ['min_lat', '-91'], ['max_lon', '181'], ['max_lat', '90.5'], ['min_lon', 'west'], ['max_lat', 'NaN']] as const) {
      throwsText(() => parseBounds({ ...full, [key]: bad }), `invalid ${key}`)
    }
    throwsText(() => parseBounds({ min_lon: 'a', min_lat: 'b', max_lon: 'c', max_lat: 'd' }), 'invalid min_lon')
  })
  it('refuses min_lat above max_lat, but takes min_lon above max_lon (across the antimeridian)', () => {
    throwsText(() => parseBounds({ ...full, min_lat: '52.7' }), 'invalid min_lat')
    assert.deepEqual(parseBounds({ ...full, min_lon: '170', max_lon: '-170' }), { minLon: 170, minLat: 52.4, maxLon: -170, maxLat: 52.6 })
    assert.deepEqual(parseBounds({ ...full, min_lat: '52.6' }).minLat, 52.6)
  })
})

describe('boundsBoxes', () => {
  it('keeps a rectangle that does not cross the antimeridian whole', () => {
    const boxes = boundsBoxes({ minLon: -10, minLat: 0, maxLon: 10, maxLat: 5 })
    assert.equal(boxes.length, 1)
    assert.deepEqual({ ...boxes[0], cube: undefined }, { minLon: -10, minLat: 0, maxLon: 10, maxLat: 5, cube: undefined })
  })
  it('splits a rectangle across the antimeridian at ±180', () => {
    const boxes = boundsBoxes({ minLon: 170, minLat: -20, maxLon: -170, maxLat: -10 })
    assert.deepEqual(boxes.map(({ minLon, maxLon, minLat, maxLat }) => [minLon, maxLon, minLat, maxLat]), [[170, 180, -20, -10], [-180, -170, -20, -10]])
  })
})

describe('boundingCube', () => {
  const rectangles: Array<[string, Rectangle]> = [
    ['a city', { minLon: 13.1, minLat: 52.3, maxLon: 13.7, maxLat: 52.7 }],
    ['across the equator and the prime meridian', { minLon: -5, minLat: -5, maxLon: 5, maxLat: 5 }],
    ['around 90°E', { minLon: 60, minLat: 10, maxLon: 120, maxLat: 40 }],
    ['around 90°W in the south', { minLon: -120, minLat: -60, maxLon: -60, maxLat: -30 }],
    ['up to 180°', { minLon: 170, minLat: -20, maxLon: 180, maxLat: -10 }],
    ['from -180°', { minLon: -180, minLat: -20, maxLon: -170, maxLat: -10 }],
    ['a pole', { minLon: -180, minLat: 80, maxLon: 180, maxLat: 90 }],
    ['the whole world', { minLon: -180, minLat: -90, maxLon: 180, maxLat: 90 }],
    ['a point', { minLon: 13.4, minLat: 52.5, maxLon: 13.4, maxLat: 52.5 }],
  ]
  for (const [label, rectangle] of rectangles) {
    it(`holds every point of ${label}, edges and corners included`, () => {
      const cube = boundingCube(rectangle)
      const next = randomStream(label, 'bounding-cube')
      const { minLon, minLat, maxLon, maxLat } = rectangle
      const points: Array<[number, number]> = [
        [minLat, minLon], [minLat, maxLon], [maxLat, minLon], [maxLat, maxLon],
        [(minLat + maxLat) / 2, (minLon + maxLon) / 2],
      ]
      for (let i = 0; i < 2000; i++) {
        const lat = minLat + next() * (maxLat - minLat)
        const lon = minLon + next() * (maxLon - minLon)
        points.push([lat, lon], [lat, minLon], [lat, maxLon], [minLat, lon], [maxLat, lon])
      }
      for (const [lat, lon] of points) assert.ok(inside(cube, toEarth(lat, lon)), `(${lat}, ${lon}) outside the cube of ${label}`)
    })
  }

  it('is tight: a small rectangle gets a small cube', () => {
    // About 2.7 km (0.04° of longitude) by 2.2 km (0.02° of latitude): no side of the cube may be much longer.
    const cube = boundingCube({ minLon: 13.38, minLat: 52.5, maxLon: 13.42, maxLat: 52.52 })
    for (let i = 0; i < 3; i++) assert.ok(cube.upper[i]! - cube.lower[i]! < 3500, `axis ${i}: ${cube.upper[i]! - cube.lower[i]!} m`)
  })

  it('leaves out points well outside the rectangle', () => {
    const cube = boundingCube({ minLon: 13.1, minLat: 52.3, maxLon: 13.7, maxLat: 52.7 })
    for (const [lat, lon] of [[52.8, 13.4], [52.2, 13.4], [52.5, 13.8], [52.5, 13.0], [-52.5, 13.4], [52.5, -166.6]] as const) {
      assert.ok(!inside(cube, toEarth(lat, lon)), `(${lat}, ${lon}) inside`)
    }
  })
})

describe('earthPoint and chordToMeters', () => {
  it('put a point where ll_to_earth does, and turn a chord into the great-circle distance', () => {
    for (const [lat, lon] of [[52.52, 13.405], [-17.5, 179.99], [0, 0], [90, 0], [-33.9, -70.6]] as const) {
      const [x, y, z] = earthPoint(lat, lon)
      const expected = toEarth(lat, lon)
      assert.ok(Math.abs(x - expected[0]) < 1e-6 && Math.abs(y - expected[1]) < 1e-6 && Math.abs(z - expected[2]) < 1e-6)
    }
    // A quarter of the way round: the chord is R·√2, the arc πR/2.
    assert.ok(Math.abs(chordToMeters(EARTH_RADIUS_M * Math.SQRT2) - Math.PI * EARTH_RADIUS_M / 2) < 1e-6)
    assert.equal(chordToMeters(0), 0)
    assert.equal(chordToMeters(3 * EARTH_RADIUS_M), Math.PI * EARTH_RADIUS_M)
  })
})

describe('nearbyTake', () => {
  it('reads one row past a first page of 20, and otherwise rounds up to 21 · 2^k, so few statement texts exist', () => {
    assert.equal(nearbyTake(1), 21)
    assert.equal(nearbyTake(21), 21)
    assert.equal(nearbyTake(22), 42)
    assert.equal(nearbyTake(101), 168)
    assert.equal(nearbyTake(Number.MAX_SAFE_INTEGER), Number.MAX_SAFE_INTEGER)
    const texts = new Set(Array.from({ length: 2000 }, (_, offset) =>
      nearbyStatement(earthPoint(52.5, 13.4), nearbyTake(offset * 50 + 101), { offset: offset * 50, limit: 100 }).text))
    assert.ok(texts.size <= 14, `${texts.size} texts`)
  })
})
