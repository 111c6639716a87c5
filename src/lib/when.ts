/**
 * A date-time as people say it, in their language and time zone ("Tuesday 1 December, 07:30"): the
 * schedule's messages (docs/web/schedule.md) name the day in words rather than a timestamp.
 */
export function whenText (value: unknown, locale: 'en' | 'de', timeZone: string): string | undefined {
  if (typeof value !== 'string') return undefined
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return undefined
  const format = new Intl.DateTimeFormat(locale === 'de' ? 'de-DE' : 'en-GB', {
    weekday: 'long', day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone,
  })
  return format.format(date)
}
