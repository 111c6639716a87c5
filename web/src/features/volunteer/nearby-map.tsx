import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Suspense, useCallback, useMemo, useState } from 'react'
import { Button } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { MapView, useMapSettings, type MapMarkerItem } from '../../components/map'
import { urgencyText } from '../../i18n/labels'
import { formatDistance } from '../../lib/format'
import { serverProblem } from '../../i18n/server-errors'
import { mapQuery, type MapQuery } from './map-query'

/**
 * The nearby requests as a map, the other view of the list on the same page: the markers are the
 * requests of the part of the map on screen, nearest its middle first (GET /requests/map), each a link
 * to the request. What the map shows is said in words under it, and when the service gives only the
 * nearest (`truncated`), it says so and asks to zoom in. It opens fitted to the search, its point and
 * circle drawn, so that it shows what the list shows; a new point or distance fits it again.
 */
export function NearbyMap ({ lat, lon, radius }: { lat: number, lon: number, radius: number }) {
  const { t, i18n } = useTranslation()
  const settings = useMapSettings()
  const [query, setQuery] = useState<MapQuery | undefined>(undefined)
  const circle = useMemo(() => ({ centre: { lat, lon }, radiusMeters: radius }), [lat, lon, radius])
  const view = useQuery({
    queryKey: ['get', '/api/v1/requests/map', query],
    // center_lat/center_lon are newer than the generated schema (map-query.ts).
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/requests/map', { params: { query: query as Omit<MapQuery, 'center_lat' | 'center_lon'> }, signal })),
    enabled: query !== undefined,
    // The markers stay while the next part of the map loads, rather than blinking out at every move.
    placeholderData: keepPreviousData,
  })
  const markers = useMemo<MapMarkerItem[]>(() => (view.data?.markers ?? []).map((marker) => ({
    id: marker.id,
    href: `/find-help/${marker.id}`,
    lat: marker.location.latitude,
    lon: marker.location.longitude,
    urgency: marker.urgency,
    approximate: marker.location.precision_meters > 0,
    title: marker.title,
  })), [view.data])
  const markerName = useCallback((marker: MapMarkerItem) =>
    t(marker.approximate ? 'map.markerApproximate' : 'map.marker', { title: marker.title, urgency: urgencyText(t, marker.urgency) }), [t])

  if (settings.isError) return <p className='error-text'>{serverProblem(settings.error, t).message} <Button className='link-button' onPress={() => { void settings.refetch() }}>{t('volunteer.tryAgain')}</Button></p>
  if (settings.data === undefined) return <p>{t('common.loading')}</p>
  const count = view.data?.markers.length ?? 0
  return (
    <>
      <p id='nearby-map-help'>{t('map.instructions')}</p>
      <Suspense fallback={<p>{t('common.loading')}</p>}>
        <MapView
          centre={{ lat, lon }}
          label={t('map.nearbyLabel')}
          instructions='nearby-map-help'
          tiles={settings.data}
          markers={markers}
          markerName={markerName}
          circle={circle}
          onMoveEnd={(bounds, middle) => { setQuery(mapQuery(bounds, middle)) }}
        />
      </Suspense>
      <p className='hint'>{t('map.search', { distance: formatDistance(radius, i18n.language) })} {t('map.legend')}</p>
      <p className='map-summary' aria-live='polite'>
        {view.isError
          ? serverProblem(view.error, t).message
          : view.data === undefined
            ? t('common.loading')
            : view.data.truncated
              ? t('map.nearest', { count })
              : t('map.shown', { count })}
      </p>
    </>
  )
}
