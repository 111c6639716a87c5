/**
 * A timestamptz as PostgreSQL writes it (DateStyle ISO, which node-postgres and PGlite require anyway:
 * `2026-11-09 08:26:06.287123+00`), turned into the API's form, `2026-11-09T08:26:06.287Z`, exactly as
 * `new Date(...).toISOString()` of node-postgres's parsed value gives it (milliseconds, cut, not
 * rounded). A hot read (the nearby search) selects its timestamps as text and calls this instead of
 * parsing each into a Date that the serializer turns back into text (docs/performance.md › Nearby search CPU).
 */
export function isoTimestamp (text: string): string {
  // The session in UTC (the server's default here): only the separator, the fraction and the zone change.
  if (text.length >= 22 && text.length <= 29 && text[10] === ' ' && text.endsWith('+00') && /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,6})?\+00$/.test(text)) {
    const fraction = text.length > 22 ? text.slice(20, text.length - 3) : ''
    return `${text.slice(0, 10)}T${text.slice(11, 19)}.${(fraction + '000').slice(0, 3)}Z`
  }
  return slowIsoTimestamp(text)
}

/** Any other zone offset (`+05:30`, `-03`): through a Date, whose parser wants the offset as ±hh:mm. */
function slowIsoTimestamp (text: string): string {
  const normalised = text.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')
  const date = new Date(normalised)
  if (Number.isNaN(date.getTime())) throw new Error(`not a timestamp PostgreSQL writes: ${text}`)
  return date.toISOString()
}

/** isoTimestamp of a nullable column. */
export const isoTimestampOrNull = (text: string | null): string | null => text === null ? null : isoTimestamp(text)
