import 'leaflet/dist/leaflet.css'
import './map.css'
import L from 'leaflet'
import { useEffect, useEffectEvent, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { GroupList } from './group-list'
import { groupMarkers } from './groups'
import type { MapBounds, MapCircle, MapMarkerItem, MapPoint, MapViewProps } from './types'

/** The credit arrives as plain text (MAP_TILE_ATTRIBUTION); Leaflet writes attributions as HTML. */
const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/**
 * A Leaflet map, loaded only when a map is shown (this module and Leaflet are their own chunk). It is
 * never the only way: the find-help list and the typed coordinates do everything without it. The
 * container is one tab stop that pans with the arrow keys and zooms with + and − (Leaflet's keyboard
 * handler; role application so that a screen reader passes the keys on), each marker is a link of its
 * own (markers that would overlap at this zoom are one button, "3 requests here", that lists them under
 * the map), and with `crosshair` the point under the fixed mark in the middle is the chosen place.
 */
export default function MapView ({ centre, zoom = 15, label, instructions, tiles, markers = [], markerName, crosshair = false, circle, onMoveEnd }: MapViewProps) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const element = useRef<HTMLDivElement>(null)
  const map = useRef<L.Map | null>(null)
  const layer = useRef<L.LayerGroup | null>(null)
  const searchLayer = useRef<L.LayerGroup | null>(null)
  /** The search last fitted, so that only a new search moves the map, never a person's own zoom. */
  const fitted = useRef('')
  /** The group of markers whose list is shown under the map, if one was pressed. */
  const [openGroup, setOpenGroup] = useState<MapMarkerItem[] | undefined>(undefined)
  // With a search, the search places the map (below), not the centre.
  const fitsSearch = circle !== undefined
  const moved = useEffectEvent((bounds: MapBounds, middle: MapPoint, initial: boolean) => onMoveEnd?.(bounds, middle, initial))

  // The map is made once; a new centre from outside (a typed point, "use my location") moves it.
  useEffect(() => {
    if (element.current === null) return
    // With reduced motion, zooms and tiles do not animate (keyboard pans still glide for a quarter second: Leaflet's handler always animates them).
    const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches
    const motion = { zoomAnimation: !still, fadeAnimation: !still, markerZoomAnimation: !still, inertia: !still }
    const created = L.map(element.current, { zoomControl: false, attributionControl: false, keyboardPanDelta: 60, ...motion })
    L.control.attribution({ prefix: false }).addAttribution(escapeHtml(tiles.attribution)).addTo(created)
    L.tileLayer(tiles.tile_url, { maxZoom: 19 }).addTo(created)
    searchLayer.current = L.layerGroup().addTo(created)
    layer.current = L.layerGroup().addTo(created)
    // The first view is reported too (the find-help map asks for its markers then), marked as such:
    // setView reports it before it returns.
    let initial = true
    const report = () => {
      const bounds = created.getBounds()
      const middle = created.getCenter()
      moved({ south: bounds.getSouth(), west: bounds.getWest(), north: bounds.getNorth(), east: bounds.getEast() }, { lat: middle.lat, lon: middle.lng }, initial)
    }
    created.on('moveend', report)
    if (circle === undefined) created.setView([centre.lat, centre.lon], zoom)
    else showSearch(created, searchLayer.current, circle, fitted)
    initial = false
    // Leaflet's container: one stop for the keyboard, named and explained for screen readers.
    const container = created.getContainer()
    container.setAttribute('role', 'application')
    container.setAttribute('aria-label', label)
    container.setAttribute('aria-describedby', instructions)
    map.current = created
    return () => {
      // Leaflet 1.9.4's remove() leaves the 200 ms timer of a resize's moveend running; a map gone by then
      // has no position to report, and reading it would throw.
      created.off('moveend', report)
      created.remove()
      map.current = null
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- made once; a new centre and label are applied below, the zoom is the person's
  }, [])

  useEffect(() => {
    const current = map.current
    if (current === null || fitsSearch) return
    const middle = current.getCenter()
    if (Math.abs(middle.lat - centre.lat) > 1e-7 || Math.abs(middle.lng - centre.lon) > 1e-7) current.setView([centre.lat, centre.lon])
  }, [centre.lat, centre.lon, fitsSearch])

  // A new search (point or distance) is drawn, and the map fitted to it, so that map and list show the same.
  useEffect(() => {
    if (map.current !== null && searchLayer.current !== null && circle !== undefined) showSearch(map.current, searchLayer.current, circle, fitted)
  }, [circle?.centre.lat, circle?.centre.lon, circle?.radiusMeters]) // eslint-disable-line react-hooks/exhaustive-deps -- the numbers are the search

  useEffect(() => { map.current?.getContainer().setAttribute('aria-label', label) }, [label])

  // The zoom buttons' names in the page's language, made again when it changes.
  useEffect(() => {
    const current = map.current
    if (current === null) return
    const zoom = L.control.zoom({ zoomInTitle: t('map.zoomIn'), zoomOutTitle: t('map.zoomOut') }).addTo(current)
    return () => { zoom.remove() }
  }, [t])

  // Drawn again at every zoom: what overlaps, and so what is grouped, depends on it.
  useEffect(() => {
    const group = layer.current
    const current = map.current
    if (group === null || current === null) return
    const draw = () => {
      group.clearLayers()
      for (const members of groupMarkers(markers, (marker) => current.latLngToLayerPoint([marker.lat, marker.lon]))) {
        group.addLayer(members.length === 1
          ? markerLayer(members[0]!, markerName(members[0]!), (href) => { void navigate(href) })
          : groupLayer(members, t('map.group', { count: members.length }), () => { setOpenGroup(members) }))
      }
    }
    draw()
    current.on('zoomend', draw)
    return () => { current.off('zoomend', draw) }
  }, [markers, markerName, navigate, t])

  // Closing the list puts focus back on its group's marker where it is still drawn, else on the map.
  const closeGroup = () => {
    const ids = openGroup?.map((marker) => marker.id).join(' ')
    setOpenGroup(undefined)
    const container = map.current?.getContainer()
    const button = container?.querySelector<HTMLElement>(`[data-group="${ids ?? ''}"]`)
    ;(button ?? container)?.focus()
  }

  return (
    <>
      <div className='map-frame'>
        <div ref={element} className='map' />
        {crosshair ? <span className='map-crosshair' aria-hidden='true' /> : null}
      </div>
      {openGroup !== undefined ? <GroupList markers={openGroup} markerName={markerName} onClose={closeGroup} /> : null}
    </>
  )
}

/**
 * Draws the search point and its circle, and fits the map to the circle when the search is new. Neither
 * is interactive nor a tab stop: the words beside the map say what they are (map.legend).
 */
function showSearch (map: L.Map, group: L.LayerGroup, circle: MapCircle, fitted: { current: string }): void {
  const key = `${circle.centre.lat},${circle.centre.lon},${circle.radiusMeters}`
  if (fitted.current === key) return
  fitted.current = key
  const point = L.latLng(circle.centre.lat, circle.centre.lon)
  group.clearLayers()
  group.addLayer(L.circle(point, { radius: circle.radiusMeters, interactive: false, className: 'map-search-circle' }))
  group.addLayer(L.circleMarker(point, { radius: 7, interactive: false, className: 'map-search-point' }))
  // A few pixels to spare, so the circle's edge is seen whole; not animated, so the first answer is for this view.
  map.fitBounds(point.toBounds(circle.radiusMeters * 2), { padding: [8, 8], animate: false })
}

/** A marker in Leaflet's terms: a DOM element of ours at a point, which Leaflet itself neither focuses nor clicks. */
const pointLayer = (at: MapMarkerItem, html: HTMLElement): L.Marker => L.marker([at.lat, at.lon], {
  icon: L.divIcon({ html, className: 'map-marker-icon', iconSize: [28, 28], iconAnchor: [14, 14] }),
  interactive: false,
  keyboard: false,
})

/**
 * Requests that would overlap at this zoom: one button showing their number, named "3 requests here", that
 * shows their list under the map (zooming in would not part two requests at the same grid point).
 */
function groupLayer (members: MapMarkerItem[], name: string, open: () => void): L.Marker {
  const button = document.createElement('button')
  button.type = 'button'
  button.className = 'map-marker map-group'
  // Their ids, space-separated: `[data-group~="12"]` finds the group that holds request 12.
  button.dataset.group = members.map((marker) => marker.id).join(' ')
  button.setAttribute('aria-label', name)
  button.textContent = String(members.length)
  button.addEventListener('click', open)
  return pointLayer(members[0]!, button)
}

/** A marker is a link to the request: a real anchor, so Enter, the link list and "open in new tab" work. */
function markerLayer (marker: MapMarkerItem, name: string, go: (href: string) => void): L.Marker {
  const link = document.createElement('a')
  link.href = marker.href
  link.className = `map-marker urgency-${marker.urgency}${marker.approximate ? ' approximate' : ''}`
  const text = document.createElement('span')
  text.className = 'visually-hidden'
  text.textContent = name
  link.append(text)
  link.addEventListener('click', (event) => {
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return
    event.preventDefault()
    go(marker.href)
  })
  // Leaflet's own handling of the marker (focus, click) is off: the link inside does both.
  return pointLayer(marker, link)
}
