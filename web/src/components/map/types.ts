/** What the map view needs; apart from map-view.tsx so that pages can use the types without loading Leaflet. */

export interface MapPoint { lat: number, lon: number }
export interface MapBounds { south: number, west: number, north: number, east: number }

export interface MapMarkerItem {
  id: number
  title: string
  href: string
  lat: number
  lon: number
  urgency: string
  /** Shown at its grid cell, not where it is (docs/privacy.md › The grid). */
  approximate: boolean
}

/** A search: its point and how far it reaches. */
export interface MapCircle { centre: MapPoint, radiusMeters: number }

export interface MapViewProps {
  centre: MapPoint
  zoom?: number
  /** The map's accessible name. */
  label: string
  /** The id of the text that says how to use the map by keyboard. */
  instructions: string
  tiles: { tile_url: string, attribution: string }
  markers?: readonly MapMarkerItem[]
  /** A marker link's accessible name. */
  markerName: (marker: MapMarkerItem) => string
  /** A fixed mark in the middle: the point under it is the one chosen. */
  crosshair?: boolean
  /**
   * The search the map shows: drawn as its point and circle, and the map opens fitted to the circle (and
   * fits it again when the search changes) rather than at `zoom`.
   */
  circle?: MapCircle
  /** After every move, and for the first view (`initial`). */
  onMoveEnd?: (bounds: MapBounds, centre: MapPoint, initial: boolean) => void
}
