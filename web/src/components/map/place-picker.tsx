import { Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import { formatCoordinate } from '../../lib/format'
import { MapView, useMapSettings, wrapLongitude, type MapPoint } from '.'

/** Six decimals: about 10 cm, more than any address needs. */
const round = (value: number): number => Math.round(value * 1e6) / 1e6
const NO_MARKER_NAME = () => ''

/**
 * A map for choosing a place without a mouse: a fixed cross in the middle, the map moved under it by
 * the arrow keys (or dragged); each stop reports the point under the cross, which is also said in
 * words. Starts at `start`, or shows the world when there is no point yet.
 */
export function PlacePicker ({ start, onChoose }: { start: MapPoint | undefined, onChoose: (point: MapPoint) => void }) {
  const { t, i18n } = useTranslation()
  const settings = useMapSettings()
  if (settings.data === undefined) return <p>{settings.isError ? t('errors.offline') : t('common.loading')}</p>
  return (
    <div className='place-picker'>
      <p id='place-picker-help' className='hint'>{t('map.pickInstructions')}</p>
      <Suspense fallback={<p>{t('common.loading')}</p>}>
        <MapView
          centre={start ?? { lat: 30, lon: 0 }}
          zoom={start === undefined ? 2 : 17}
          label={t('map.pickLabel')}
          instructions='place-picker-help'
          tiles={settings.data}
          markerName={NO_MARKER_NAME}
          crosshair
          onMoveEnd={(_bounds, centre, initial) => {
            // Only where the person moves the map is a choice, not where it first shows.
            if (initial) return
            const point = { lat: round(centre.lat), lon: round(wrapLongitude(centre.lon)) }
            if (start === undefined || Math.abs(point.lat - start.lat) > 1e-6 || Math.abs(point.lon - start.lon) > 1e-6) onChoose(point)
          }}
        />
      </Suspense>
      {start !== undefined ? <p aria-live='polite'>{t('map.chosen', { latitude: formatCoordinate(start.lat, i18n.language), longitude: formatCoordinate(start.lon, i18n.language) })}</p> : <p aria-live='polite' />}
    </div>
  )
}
