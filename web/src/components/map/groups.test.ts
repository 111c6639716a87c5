import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { GROUP_DISTANCE_PX, groupMarkers } from './groups.js'
import type { MapMarkerItem } from './types.js'

/** A marker whose `lat`/`lon` stand for its pixel position here (y, x). */
const at = (id: number, x: number, y = 0): MapMarkerItem => ({ id, title: `r${id}`, href: `/find-help/${id}`, lat: y, lon: x, urgency: 'low', approximate: true })
const pixels = (marker: MapMarkerItem) => ({ x: marker.lon, y: marker.lat })
const ids = (groups: MapMarkerItem[][]) => groups.map((group) => group.map((marker) => marker.id))

describe('map markers grouped where they would overlap (web/src/components/map/groups.ts)', () => {
  it('two markers 20 px apart (450 m on a 5 km map) are one group; 40 px apart they stay two', () => {
    assert.deepEqual(ids(groupMarkers([at(1, 0), at(2, 20)], pixels)), [[1, 2]])
    assert.deepEqual(ids(groupMarkers([at(1, 0), at(2, 40)], pixels)), [[1], [2]])
  })

  it('markers at the very same point (one grid cell) are one group, however many', () => {
    assert.deepEqual(ids(groupMarkers([at(1, 5, 5), at(2, 5, 5), at(3, 5, 5)], pixels)), [[1, 2, 3]])
  })

  it('each group stays at its first marker, so no two drawn markers are nearer than the group distance', () => {
    const markers = [at(1, 0), at(2, 30), at(3, 60), at(4, 90), at(5, 0, 30)]
    const groups = groupMarkers(markers, pixels)
    assert.deepEqual(ids(groups), [[1, 2, 5], [3, 4]])
    const drawn = groups.map((group) => pixels(group[0]!))
    for (const a of drawn) for (const b of drawn) if (a !== b) assert.ok(Math.hypot(a.x - b.x, a.y - b.y) >= GROUP_DISTANCE_PX)
  })

  it('no markers, no groups; one marker, one group of one', () => {
    assert.deepEqual(groupMarkers([], pixels), [])
    assert.deepEqual(ids(groupMarkers([at(7, 100, 100)], pixels)), [[7]])
  })
})
