import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Problem } from '../i18n/server-errors'
import { parseCoordinate } from '../lib/coordinates'
import { formatCoordinate } from '../lib/format'
import { useAnnounce } from './announcer'
import { TextInput } from './fields'

/**
 * A point typed as latitude and longitude (profile, asking for help, finding help, availability):
 * the two texts, "use my current location" filling them in, and reading them back as numbers with a
 * problem for each field that is not a coordinate. Problems go to `show`, the form's error summary.
 */
export function useCoordinates (show: (problems: Problem[]) => void, initial = { latitude: '', longitude: '' }) {
  const { t, i18n } = useTranslation()
  const announce = useAnnounce()
  const [latitude, setLatitude] = useState(initial.latitude)
  const [longitude, setLongitude] = useState(initial.longitude)
  const locate = useDeviceLocation(show)
  const fill = (lat: number | string, lon: number | string) => {
    setLatitude(String(lat))
    setLongitude(String(lon))
  }
  /**
   * "Use my current location": fills both fields, then says the point found (`then` runs first), both
   * written as the page's language writes numbers, as the hints are ("52,52" in German).
   */
  const fillFromDevice = (then?: () => void) => locate((lat, lon) => {
    const latitude = formatCoordinate(lat, i18n.language)
    const longitude = formatCoordinate(lon, i18n.language)
    fill(latitude, longitude)
    then?.()
    announce(t('location.found', { latitude, longitude }))
  })
  /** The typed point, or undefined after adding a problem for each field that is not a coordinate. */
  const read = (problems: Problem[]): { latitude: number, longitude: number } | undefined => {
    const lat = parseCoordinate(latitude, 90)
    const lon = parseCoordinate(longitude, 180)
    if (lat === undefined) problems.push({ field: 'latitude', message: t('errors.latitudeInvalid') })
    if (lon === undefined) problems.push({ field: 'longitude', message: t('errors.longitudeInvalid') })
    return lat === undefined || lon === undefined ? undefined : { latitude: lat, longitude: lon }
  }
  return { latitude, longitude, setLatitude, setLongitude, fill, fillFromDevice, locate, read }
}

export type Coordinates = ReturnType<typeof useCoordinates>

/** The latitude and longitude fields of a point: with hints on how to write them, side by side on a wide screen. */
export function CoordinateFields ({ coordinates, hints = true, paired = true }: { coordinates: Coordinates, hints?: boolean, paired?: boolean }) {
  const { t } = useTranslation()
  const { latitude, longitude, setLatitude, setLongitude } = coordinates
  const fields = (
    <>
      <TextInput name='latitude' label={t('location.latitude')} hint={hints ? t('location.latitudeHint') : undefined} inputMode='decimal' value={latitude} onChange={setLatitude} />
      <TextInput name='longitude' label={t('location.longitude')} hint={hints ? t('location.longitudeHint') : undefined} inputMode='decimal' value={longitude} onChange={setLongitude} />
    </>
  )
  return paired ? <div className='pair'>{fields}</div> : fields
}

/**
 * "Use my current location": asks the device once at a time (a second press while it is asking does
 * nothing) and hands on the point to five decimals (about a metre); a missing API or a refusal is shown
 * through `show`, the form's own error summary.
 */
export function useDeviceLocation (show: (problems: Problem[]) => void): (found: (latitude: string, longitude: string) => void) => void {
  const { t } = useTranslation()
  const locating = useRef(false)
  return (found) => {
    if (locating.current) return
    if (!('geolocation' in navigator)) return show([{ message: t('location.unavailable') }])
    locating.current = true
    navigator.geolocation.getCurrentPosition((position) => {
      locating.current = false
      found(position.coords.latitude.toFixed(5), position.coords.longitude.toFixed(5))
    }, () => {
      locating.current = false
      show([{ message: t('location.denied') }])
    }, { enableHighAccuracy: false, timeout: 15000 })
  }
}
