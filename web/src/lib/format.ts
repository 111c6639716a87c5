/**
 * Dates, distances and the locale they are written in: one place, so that every page writes them the
 * same way as React Aria does (app.tsx gives it the same locale).
 */

/** The locale for Intl and React Aria of one of the app's languages: British English or German. */
export const localeOf = (language: string): string => language === 'de' ? 'de-DE' : 'en-GB'

/** A date and time in the page's language, in words a person reads aloud well ("3 May 2026 at 14:05"). */
export function formatDate (iso: string, language: string): string {
  return new Intl.DateTimeFormat(localeOf(language), { dateStyle: 'long', timeStyle: 'short' }).format(new Date(iso))
}

/** A moment as a person says it aloud, with the day's name ("Tuesday 1 December at 07:30"): docs/web/schedule.md. */
export function formatWhen (iso: string, language: string): string {
  return new Intl.DateTimeFormat(localeOf(language), { weekday: 'long', day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso))
}

/** "300 m" or "1.2 km" ("1,2 km" in German), rounded to what a person walking cares about. */
export function formatDistance (meters: number, language: string): string {
  const locale = localeOf(language)
  if (meters < 1000) {
    const rounded = Math.max(10, Math.round(meters / 10) * 10)
    return new Intl.NumberFormat(locale, { style: 'unit', unit: 'meter', unitDisplay: 'short', maximumFractionDigits: 0 }).format(rounded)
  }
  return new Intl.NumberFormat(locale, { style: 'unit', unit: 'kilometer', unitDisplay: 'short', maximumFractionDigits: meters < 10_000 ? 1 : 0 }).format(meters / 1000)
}

/**
 * A latitude or longitude as the page's language writes numbers ("52,52" in German), to at most six
 * decimals (as many as the app keeps anywhere) and without thousands separators, so that it can be typed back in as shown.
 */
export function formatCoordinate (value: number | string, language: string): string {
  return new Intl.NumberFormat(localeOf(language), { maximumFractionDigits: 6, useGrouping: false }).format(Number(value))
}

/**
 * A calendar date given as YYYY-MM-DD (a check's "valid until"), in the page's language ("3 May 2026"): read
 * as that day itself, not as midnight UTC, which would be the day before west of Greenwich.
 */
export function formatDay (day: string, language: string): string {
  const [year, month, date] = day.split('-').map(Number)
  return new Intl.DateTimeFormat(localeOf(language), { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, date ?? 1)))
}

/** Today as YYYY-MM-DD in the browser's time zone (the date a person types means their own day). */
export function today (): string {
  const now = new Date()
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`
}
