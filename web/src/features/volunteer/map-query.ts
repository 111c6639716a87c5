import { wrapLongitude as wrap, type MapBounds } from '../../components/map'

/** Five decimals (about a metre): the same view asks the same question, so answers are reused. */
const fixed = (value: number): string => value.toFixed(5)

/**
 * The query of GET /requests/map for what the map shows. Leaflet's edges run past ±180 where the world
 * repeats: wrapped, a view across the antimeridian has min_lon > max_lon, as the API takes it; a view
 * wider than the world would wrap onto itself, so it asks for every longitude.
 */
export function mapQuery (bounds: MapBounds): { min_lon: string, min_lat: string, max_lon: string, max_lat: string } {
  const world = bounds.east - bounds.west >= 360
  return {
    min_lon: world ? '-180' : fixed(wrap(bounds.west)),
    min_lat: fixed(Math.max(-90, bounds.south)),
    max_lon: world ? '180' : fixed(wrap(bounds.east)),
    max_lat: fixed(Math.min(90, bounds.north)),
  }
}
