/**
 * A request's URL as its log line shows it: the value of a `token` query parameter (the one-click
 * unsubscribe address of reach.md § 1, signed and never expiring) replaced, so no log holds one.
 */
export function loggableUrl (url: string): string {
  return url.includes('token=') ? url.replace(/([?&]token=)[^&#]*/g, '$1[redacted]') : url
}
