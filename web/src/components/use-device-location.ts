import { useRef } from 'react'
import { useTranslation } from 'react-i18next'
import type { Problem } from '../i18n/server-errors'

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
