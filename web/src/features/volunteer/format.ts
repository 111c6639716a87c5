import type { TFunction } from 'i18next'

/** The locale for Intl, the same one the app gives React Aria. */
export const localeOf = (language: string): string => language === 'de' ? 'de-DE' : 'en-GB'

/** "300 m" or "1.2 km" ("1,2 km" in German), rounded to what a person walking cares about. */
export function formatDistance (meters: number, language: string): string {
  const locale = localeOf(language)
  if (meters < 1000) {
    const rounded = Math.max(10, Math.round(meters / 10) * 10)
    return new Intl.NumberFormat(locale, { style: 'unit', unit: 'meter', unitDisplay: 'short', maximumFractionDigits: 0 }).format(rounded)
  }
  return new Intl.NumberFormat(locale, { style: 'unit', unit: 'kilometer', unitDisplay: 'short', maximumFractionDigits: meters < 10_000 ? 1 : 0 }).format(meters / 1000)
}

export function formatDate (iso: string, language: string): string {
  return new Intl.DateTimeFormat(localeOf(language), { dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso))
}

export const requestStatus = (t: TFunction, status: string): string => t(`volunteer.status.${status}`, { defaultValue: status })
export const responseStatus = (t: TFunction, status: string): string => t(`volunteer.responseStatus.${status}`, { defaultValue: status })
export const urgencyText = (t: TFunction, urgency: string | null): string => urgency === null ? t('volunteer.urgency.none') : t(`volunteer.urgency.${urgency}`, { defaultValue: urgency })
export const roleName = (t: TFunction, name: string): string => t(`roles.${name}`, { defaultValue: name })
/** Kinds of help arrive by their (English) name in lists; shown in the page's language when known. */
export const kindText = (t: TFunction, name: string): string => t(`volunteer.kinds.${name}`, { defaultValue: name })
