import { gridPoint } from '../../lib/grid.js'
import { isModerator, type Principal } from '../../lib/principal.js'
import type { Location, RequestStatus } from './requests.schemas.js'

/**
 * Where a request is shown to a viewer (map.md › The `location` field): exactly to its requester,
 * moderators and admins, and its assigned volunteer while in_progress or completed; to everyone else
 * at the centre of its grid cell.
 */

/** The columns a request's location is made from. */
export interface LocatedRow {
  requester_id: number
  assigned_volunteer_id: number | null
  status: RequestStatus
  latitude: number
  longitude: number
  grid_latitude: number | null
  grid_longitude: number | null
  grid_meters: number | null
}

const VOLUNTEER_SEES_EXACT: readonly RequestStatus[] = ['in_progress', 'completed']

export function seesExactPoint (viewer: Principal, row: Pick<LocatedRow, 'requester_id' | 'assigned_volunteer_id' | 'status'>): boolean {
  return viewer.id === row.requester_id || isModerator(viewer) ||
    (viewer.id === row.assigned_volunteer_id && VOLUNTEER_SEES_EXACT.includes(row.status))
}

/**
 * The stored grid point when it was computed for this grid size (start-up recomputes the others, so
 * that is every row but one written a moment ago by an instance with another setting); otherwise the
 * same formula on the same point.
 */
export function approximateLocation (row: LocatedRow, gridMeters: number): Location {
  const point = row.grid_meters === gridMeters && row.grid_latitude !== null && row.grid_longitude !== null
    ? { latitude: row.grid_latitude, longitude: row.grid_longitude }
    : gridPoint(row.latitude, row.longitude, gridMeters)
  return { ...point, precision_meters: gridMeters }
}

export function locationFor (viewer: Principal, row: LocatedRow, gridMeters: number): Location {
  return seesExactPoint(viewer, row)
    ? { latitude: row.latitude, longitude: row.longitude, precision_meters: 0 }
    : approximateLocation(row, gridMeters)
}

type PointColumns = 'latitude' | 'longitude' | 'grid_latitude' | 'grid_longitude' | 'grid_meters'

/** The detail row as the API shows it: `location` for the viewer, without the columns it was made from. */
export function withLocation<T extends LocatedRow> (viewer: Principal, row: T, gridMeters: number): Omit<T, PointColumns> & { location: Location } {
  const { latitude: _lat, longitude: _lon, grid_latitude: _glat, grid_longitude: _glon, grid_meters: _g, ...rest } = row
  return { ...rest, location: locationFor(viewer, row, gridMeters) }
}

/** A list row as the API item: like withLocation, and without the parties' ids, which list items do not show. */
export function toListItem<T extends LocatedRow> (viewer: Principal, row: T, gridMeters: number): Omit<T, PointColumns | 'requester_id' | 'assigned_volunteer_id'> & { location: Location } {
  const { requester_id: _r, assigned_volunteer_id: _v, latitude: _lat, longitude: _lon, grid_latitude: _glat, grid_longitude: _glon, grid_meters: _g, ...rest } = row
  return { ...rest, location: locationFor(viewer, row, gridMeters) }
}
