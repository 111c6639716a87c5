/**
 * The fixed grid of docs/privacy.md › The grid: where a request is shown to people who may not know its exact point, and
 * (LOCATION_PRIVACY=grid, docs/privacy.md › `LOCATION_PRIVACY=grid`) where searches by them place it. This is the one place the
 * formula is written: the service stores each request's grid point computed here, and searches and
 * the `location` field read that stored point, so what the API shows and what it searches agree.
 */

/** Metres per degree of latitude in docs/privacy.md › The grid's formula. */
export const METRES_PER_DEGREE = 111195

/** Above this |latitude| (degrees) of the cell centre, longitude cells are meaningless: lon' = 0. */
const POLAR_LATITUDE = 89.9

export interface GridPoint { latitude: number, longitude: number }

const radians = (degrees: number): number => degrees * Math.PI / 180

/**
 * The centre of the `gridMeters` cell holding (lat, lon), by docs/privacy.md › The grid:
 * s_lat = G / 111195; i = floor(lat / s_lat); lat' = (i + 0.5) s_lat;
 * s_lon = G / (111195 cos lat'); j = floor(lon / s_lon); lon' = (j + 0.5) s_lon wrapped into -180..180;
 * lon' = 0 when |lat'| > 89.9. The formula says nothing of the topmost cell, whose centre can lie past a pole
 * (lat = 90 falls in a cell centred at 90.001 for G = 300): lat' is clamped to ±90 so it stays a latitude.
 */
export function gridPoint (lat: number, lon: number, gridMeters: number): GridPoint {
  const sLat = gridMeters / METRES_PER_DEGREE
  const centreLat = (Math.floor(lat / sLat) + 0.5) * sLat
  const latitude = Math.max(-90, Math.min(90, centreLat))
  if (Math.abs(centreLat) > POLAR_LATITUDE) return { latitude, longitude: 0 }
  const sLon = gridMeters / (METRES_PER_DEGREE * Math.cos(radians(centreLat)))
  const centreLon = (Math.floor(lon / sLon) + 0.5) * sLon
  return { latitude, longitude: wrapLongitude(centreLon) }
}

/** Into -180..180; values already inside are returned unchanged (no rounding from arithmetic). */
export function wrapLongitude (lon: number): number {
  if (lon >= -180 && lon <= 180) return lon
  const wrapped = ((lon + 180) % 360 + 360) % 360 - 180
  return wrapped
}

/**
 * The indices (i, j) of the `gridMeters` cell holding (lat, lon) by docs/privacy.md › The grid's formula above: what reports
 * show instead of a point (docs/api/on-behalf.md › Reports for funders). j is 0 where gridPoint puts the cell's centre at longitude 0.
 */
export function gridCell (lat: number, lon: number, gridMeters: number): { i: number, j: number } {
  const sLat = gridMeters / METRES_PER_DEGREE
  const i = Math.floor(lat / sLat)
  const centreLat = (i + 0.5) * sLat
  if (Math.abs(centreLat) > POLAR_LATITUDE) return { i, j: 0 }
  const sLon = gridMeters / (METRES_PER_DEGREE * Math.cos(radians(centreLat)))
  return { i, j: Math.floor(lon / sLon) }
}
