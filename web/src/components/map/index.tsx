import { useQuery } from '@tanstack/react-query'
import { lazy } from 'react'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'

export type { MapBounds, MapCircle, MapMarkerItem, MapPoint } from './types'

/** A longitude into -180..180 (180 itself becomes -180, the same meridian): Leaflet's run past ±180 where the world repeats. */
export const wrapLongitude = (lon: number): number => ((lon + 540) % 360) - 180

/** Leaflet and the map view load on first use only (the start page's budget: docs/web.md › Size). */
export const MapView = lazy(() => import('./map-view'))

/** Where the map's pictures come from (MAP_TILE_URL); it does not change while the service runs. */
export function useMapSettings () {
  return useQuery({
    queryKey: ['get', '/api/v1/map-settings'],
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/map-settings', { signal })),
    staleTime: Infinity,
  })
}
