import { useState } from 'react'
import { Button } from 'react-aria-components'
import { useTranslation } from 'react-i18next'
import { useAnnounce } from './announcer'
import { useMapSettings, type MapPoint } from './map'

interface Place extends MapPoint { name: string }

/**
 * Nominatim's answer, read defensively: another server may answer anything, and only places with a real
 * point and a name are offered.
 */
function placesOf (body: unknown): Place[] {
  if (!Array.isArray(body)) return []
  return body.flatMap((item: { lat?: unknown, lon?: unknown, display_name?: unknown }) => {
    const lat = Number(item.lat)
    const lon = Number(item.lon)
    const name = typeof item.display_name === 'string' ? item.display_name : ''
    return Number.isFinite(lat) && Math.abs(lat) <= 90 && Number.isFinite(lon) && Math.abs(lon) <= 180 && name !== '' ? [{ lat, lon, name }] : []
  }).slice(0, 5)
}

/**
 * "Find this address": asks the geocoder (GEOCODER_URL, straight from the browser, which the CSP allows)
 * for the typed address and offers up to five places, each a button that sets the point. Shown only
 * when a geocoder is configured; the form's other ways to set the point never depend on it.
 */
export function AddressSearch ({ address, city, onChoose }: { address: string, city: string, onChoose: (place: Place) => void }) {
  const { t, i18n } = useTranslation()
  const announce = useAnnounce()
  const settings = useMapSettings()
  const [places, setPlaces] = useState<Place[] | undefined>(undefined)
  const [failed, setFailed] = useState(false)
  const geocoder = settings.data?.geocoder_url
  if (geocoder === undefined || geocoder === null) return null

  const search = async () => {
    const text = [address, city].map((part) => part.trim()).filter((part) => part !== '').join(', ')
    if (text === '') return announce(t('geocoder.nothingTyped'))
    const query = new URLSearchParams({ q: text, format: 'jsonv2', limit: '5', 'accept-language': i18n.language })
    try {
      // A geocoder that does not answer within 10 s is said to be unavailable, rather than leaving the person waiting.
      const response = await fetch(`${geocoder}/search?${query}`, { credentials: 'omit', referrerPolicy: 'origin', signal: AbortSignal.timeout(10_000) })
      if (!response.ok) throw new Error(`geocoder answered ${response.status}`)
      const found = placesOf(await response.json())
      setFailed(false)
      setPlaces(found)
      announce(found.length === 0 ? t('geocoder.none') : t('geocoder.found', { count: found.length }))
    } catch {
      setPlaces(undefined)
      setFailed(true)
      announce(t('geocoder.failed'))
    }
  }

  return (
    <div className='address-search'>
      <Button className='button secondary' onPress={() => { void search() }}>{t('geocoder.search')}</Button>
      {failed ? <p className='error-text'>{t('geocoder.failed')}</p> : null}
      {places !== undefined && places.length === 0 ? <p>{t('geocoder.none')}</p> : null}
      {places !== undefined && places.length > 0
        ? (
          <ul className='actions places' aria-label={t('geocoder.places')}>
            {places.map((place) => (
              <li key={`${place.lat},${place.lon},${place.name}`}>
                <Button className='button secondary' onPress={() => { setPlaces(undefined); onChoose(place) }}>{t('geocoder.use', { name: place.name })}</Button>
              </li>
            ))}
          </ul>
          )
        : null}
    </div>
  )
}
