/**
 * A request's URL as its log line shows it, with no secret in it: the value of a `token` query parameter
 * (the one-click unsubscribe address of docs/api/messaging.md › Deliveries and e-mail, signed and never expiring) replaced, and a calendar
 * feed's path logged as its route, `/calendar/{token}.ics` (docs/api/schedule.md › Calendar feed: the token is the feed's key).
 * By the path, not the matched route, so that a call no route matched (a token without `.ics`) is covered too.
 */
const CALENDAR_TOKEN = /(\/calendar\/)[^/?#]*?(\.ics)?(?=[/?#]|$)/

export function loggableUrl (url: string): string {
  const path = url.includes('/calendar/') ? url.replace(CALENDAR_TOKEN, (_match, prefix: string, ics: string | undefined) => `${prefix}{token}${ics ?? ''}`) : url
  return path.includes('token=') ? path.replace(/([?&]token=)[^&#]*/g, '$1[redacted]') : path
}
