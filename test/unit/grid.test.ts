import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { gridPoint, METRES_PER_DEGREE, wrapLongitude } from '../../src/lib/grid.js'

const G = 300
const S_LAT = G / METRES_PER_DEGREE

describe('gridPoint (docs/api/help.md › Maps)', () => {
  it('puts a point at the centre of its cell, by the formula written out', () => {
    const lat = 52.52
    const lon = 13.405
    const i = Math.floor(lat / S_LAT)
    const latC = (i + 0.5) * S_LAT
    const sLon = G / (METRES_PER_DEGREE * Math.cos(latC * Math.PI / 180))
    const lonC = (Math.floor(lon / sLon) + 0.5) * sLon
    assert.deepEqual(gridPoint(lat, lon, G), { latitude: latC, longitude: lonC })
  })

  it('gives every point of one cell the same centre, and the next cell another', () => {
    const i = Math.floor(52.52 / S_LAT)
    const south = i * S_LAT
    const north = (i + 1) * S_LAT
    const a = gridPoint(south + 1e-9, 13.4, G)
    const b = gridPoint(north - 1e-9, 13.4, G)
    assert.deepEqual(a, b)
    const next = gridPoint(north + 1e-9, 13.4, G)
    assert.ok(Math.abs(next.latitude - a.latitude - S_LAT) < 1e-12)
  })

  it('is the identity on cell centres, so a centre never moves to another cell', () => {
    // Away from the antimeridian's straddling cell, whose centre is wrapped to the other side (tested below).
    fc.assert(fc.property(fc.double({ min: -80, max: 80, noNaN: true }), fc.double({ min: -179, max: 179, noNaN: true }), fc.integer({ min: 50, max: 5000 }), (lat, lon, g) => {
      const centre = gridPoint(lat, lon, g)
      assert.deepEqual(gridPoint(centre.latitude, centre.longitude, g), centre)
    }))
  })

  it('stays within half a cell diagonal of the point, and inside -90..90 / -180..180', () => {
    fc.assert(fc.property(fc.double({ min: -90, max: 90, noNaN: true }), fc.double({ min: -180, max: 180, noNaN: true }), fc.integer({ min: 50, max: 5000 }), (lat, lon, g) => {
      const { latitude, longitude } = gridPoint(lat, lon, g)
      assert.ok(latitude >= -90 && latitude <= 90)
      assert.ok(longitude >= -180 && longitude <= 180)
      assert.ok(Math.abs(latitude - lat) <= g / METRES_PER_DEGREE / 2 + 1e-9)
    }))
  })

  it('wraps a centre past the antimeridian into -180..180', () => {
    // At 60° a cell is 600 m of longitude wide: 180 / s_lon is not whole, so the last cell straddles 180°.
    const east = gridPoint(60, 179.9999, G)
    const sLon = G / (METRES_PER_DEGREE * Math.cos(east.latitude * Math.PI / 180))
    const raw = (Math.floor(179.9999 / sLon) + 0.5) * sLon
    assert.ok(raw > 180, 'the unwrapped centre lies past 180°')
    assert.ok(Math.abs(east.longitude - (raw - 360)) < 1e-9)
    assert.ok(east.longitude < -179.99)
    // lon = 180 and lon = -180 are one meridian; each lands in a valid cell.
    for (const lon of [180, -180]) {
      const { longitude } = gridPoint(60, lon, G)
      assert.ok(longitude >= -180 && longitude <= 180)
    }
    assert.equal(wrapLongitude(181), -179)
    assert.equal(wrapLongitude(-181), 179)
    assert.equal(wrapLongitude(179.5), 179.5)
  })

  it('puts lon\' = 0 when |lat\'| > 89.9, and keeps lat\' a latitude at the poles', () => {
    assert.deepEqual(gridPoint(89.95, 123.4, G).longitude, 0)
    assert.deepEqual(gridPoint(-89.95, -123.4, G).longitude, 0)
    assert.ok(gridPoint(89.95, 1, G).latitude > 89.9)
    // The cell holding 90° is centred past it (90.0013° for 300 m): clamped.
    assert.deepEqual(gridPoint(90, 45, G), { latitude: 90, longitude: 0 })
    assert.deepEqual(gridPoint(-90, 45, G), { latitude: -90, longitude: 0 })
    // Just under the threshold, longitude cells still apply.
    const below = gridPoint(89.85, 10, G)
    assert.ok(Math.abs(below.latitude) <= 89.9)
    assert.notEqual(below.longitude, 0)
  })

  it('floors negative coordinates towards -∞ (a cell never straddles the equator or the prime meridian)', () => {
    const south = gridPoint(-1e-9, -1e-9, G)
    assert.ok(Math.abs(south.latitude + S_LAT / 2) < 1e-12)
    assert.ok(south.longitude < 0)
    const north = gridPoint(0, 0, G)
    assert.ok(Math.abs(north.latitude - S_LAT / 2) < 1e-12)
    assert.ok(north.longitude > 0)
  })
})
