import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { fieldId } from '../../components/error-summary'

/** The browser's own zone, as the suggestion: what the person's clock most likely shows. */
export const deviceZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone

/** Every zone this browser knows (IANA), the device's first; `saved` kept even if the browser does not list it (UTC, say). */
function zoneList (saved: string, device: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []
  const rest = [...new Set([saved, ...known, 'UTC'])].filter((zone) => zone !== device).sort((a, b) => a.localeCompare(b))
  return [device, ...rest]
}

/**
 * The time zone as a native select (GOV.UK's pattern; some 400 options a keyboard reaches by typing a zone's first
 * letters), labelled, with the device's zone named in the hint and first in the list, and its error beside it.
 */
export function TimeZoneSelect ({ value, onChange, error }: { value: string, onChange: (zone: string) => void, error?: string }) {
  const { t } = useTranslation()
  const device = useMemo(() => deviceZone(), [])
  const zones = useMemo(() => zoneList(value, device), [value, device])
  const id = fieldId('time_zone')
  return (
    <div className='field' data-invalid={error !== undefined ? true : undefined}>
      <label htmlFor={id}>{t('settings.timeZone')}</label>
      <p className='hint' id={`${id}-hint`}>{t('settings.timeZoneHint', { zone: device })}</p>
      {error !== undefined ? <p className='field-error' id={`${id}-error`}>{error}</p> : null}
      <select
        id={id} name='time_zone' className='select' value={value} onChange={(event) => { onChange(event.target.value) }}
        aria-describedby={`${id}-hint${error !== undefined ? ` ${id}-error` : ''}`} aria-invalid={error !== undefined ? true : undefined}
      >
        {zones.map((zone) => <option key={zone} value={zone}>{zone === device ? t('settings.thisDevice', { zone }) : zone}</option>)}
      </select>
    </div>
  )
}
