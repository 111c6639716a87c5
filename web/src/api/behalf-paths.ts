/**
 * PROVISIONAL: the paths of behalf.md § 4 written by hand in openapi-typescript's shape, until the
 * branch that builds them (issue22-reports) is merged and `npm run web:api-types` writes them
 * into schema.d.ts; then this file goes.
 */
type Json<T> = { content: { 'application/json': T } }
type Op<Res, Query = never, Path = never, Body = never> = {
  parameters: { query?: Query, header?: never, cookie?: never } & ([Path] extends [never] ? { path?: never } : { path: Path })
} & ([Body] extends [never] ? { requestBody?: never } : { requestBody: Json<Body> }) & {
  responses: { 200: Json<Res>, 201: Json<Res>, 204: { content?: never }, 400: Json<{ error: string }>, 403: Json<{ error: string }>, 404: Json<{ error: string }> }
}
interface Period {
  start: string
  requests_created: number
  requests_completed: number
  requests_cancelled: number
  requests_expired: number
  people_helped: number | null
  active_volunteers: number | null
  hours_of_help: number
  median_minutes_to_first_offer: number | null
  median_minutes_to_accept: number | null
  by_type: Record<string, number | null>
  by_urgency: Record<string, number | null>
  suppressed?: string[]
}
interface Base { parameters: { query?: never, header?: never, path?: never, cookie?: never } }
export interface BehalfPaths {
  '/api/v1/reports/summary': Base & { get: Op<{ periods: Period[], suppressed_below: number }, { from?: string, to?: string, by?: 'month' | 'week' }> }
  '/api/v1/reports/requests.csv': Base & { get: Op<string, { from?: string, to?: string }> }
}
