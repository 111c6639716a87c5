import { wrapLongitude as wrap, type MapBounds, type MapPoint } from '../../components/map'

/** Five decimals (about a metre): the same view asks the same question, so answers are reused. */
const fixed = (value: number): string => value.toFixed(5)

export interface MapQuery { min_lon: string, min_lat: string, max_lon: string, max_lat: string, center_lat?: string, center_lon?: string }

/**
 * The query of GET /requests/map for what the map shows. Leaflet's edges run past ±180 where the world
 * repeats: wrapped, a view across the antimeridian has min_lon > max_lon, as the API takes it; a view
 * wider than the world would wrap onto itself, so it asks for every longitude, and says where the view's
 * middle really is (`center_lat`/`center_lon`), since "nearest the middle" of -180..180 would be
 * longitude 0 (docs/web/help.md › Map). A service without those parameters ignores them.
 */
export function mapQuery (bounds: MapBounds, middle: MapPoint): MapQuery {
  const world = bounds.east - bounds.west >= 360
  const query: MapQuery = {
    min_lon: world ? '-180' : fixed(wrap(bounds.west)),
    min_lat: fixed(Math.max(-90, bounds.south)),
    max_lon: world ? '180' : fixed(wrap(bounds.east)),
    max_lat: fixed(Math.min(90, bounds.north)),
  }
  if (world) {
    query.center_lat = fixed(Math.max(-90, Math.min(90, middle.lat)))
    query.center_lon = fixed(wrap(middle.lon))
  }
  return query
}
