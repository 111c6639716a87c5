import { useEffect, useRef } from 'react'
import { Button, Link } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import type { MapMarkerItem } from './types'

/**
 * The requests of a group of markers too close to draw apart ("3 requests here"), listed under the map as
 * links named as their markers are. Focus moves to its heading when it opens, so a screen reader says what
 * opened; "Close this list" takes focus back to the group's marker.
 */
export function GroupList ({ markers, markerName, onClose }: { markers: MapMarkerItem[], markerName: (marker: MapMarkerItem) => string, onClose: () => void }) {
  const { t } = useTranslation()
  const heading = useRef<HTMLHeadingElement>(null)
  const ids = markers.map((marker) => marker.id).join(',')
  useEffect(() => { heading.current?.focus() }, [ids])
  return (
    <section className='map-group-list' aria-labelledby='map-group-heading'>
      <h2 id='map-group-heading' ref={heading} tabIndex={-1}>{t('map.group', { count: markers.length })}</h2>
      <ul>
        {markers.map((marker) => <li key={marker.id}><Link href={marker.href}>{markerName(marker)}</Link></li>)}
      </ul>
      <Button className='button secondary' onPress={onClose}>{t('map.groupClose')}</Button>
    </section>
  )
}
