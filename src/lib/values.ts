import { Temporal } from 'temporal-polyfill'

/**
 * One check for each kind of value the service takes: the request schemas use them (as Ajv formats,
 * lib/ajv-formats.ts, or as their pattern or enum) and the services and the configuration call them, so a
 * value is accepted or refused the same way wherever it is sent. E-mail addresses: lib/email.ts.
 */

/** Dates before or after these years are typing mistakes here, and some of them (year 0) fail in the database. */
export const FIRST_YEAR = 1900
export const LAST_YEAR = 2100

const inYears = (year: number): boolean => year >= FIRST_YEAR && year <= LAST_YEAR

/** Whether `text` is a real calendar date written YYYY-MM-DD (2026-02-30 is not) in the years 1900 to 2100. */
export function isCalendarDate (text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false
  const date = new Date(`${text}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text && inYears(date.getUTCFullYear())
}

/** Whether the date of an RFC 3339 date-time (its syntax checked by the caller) lies in the years 1900 to 2100. */
export const isDateTimeInYears = (text: string): boolean => inYears(Number(text.slice(0, 4)))

/**
 * Whether `name` is a time zone of the IANA database spelled as the database spells it: "Europe/Berlin",
 * "UTC", "US/Eastern", never "europe/berlin" (which Intl would take, but the database's list does not
 * hold) nor an offset such as "+01:00" (which PostgreSQL reads with the opposite sign). Temporal gives a
 * known name back in its own case, links kept as links.
 */
export function isTimeZone (name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return false
  try {
    return new Temporal.ZonedDateTime(0n, name).timeZoneId === name
  } catch {
    return false
  }
}

/** The languages of e-mails, pushes and calendar feeds: the schemas' enum of `locale`. */
export const LOCALES = ['en', 'de'] as const
export type Locale = typeof LOCALES[number]

/**
 * A phone number as the interface writes it: an optional plus, a digit 1-9, then 1 to 14 digits. The
 * schemas of every operation that takes one use it as their `pattern`, so the OpenAPI document shows it.
 */
export const PHONE_PATTERN = '^\\+?[1-9]\\d{1,14}$'
