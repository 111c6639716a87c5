/**
 * PROVISIONAL: the paths of behalf.md § 2 and § 4 written by hand in openapi-typescript's shape, until the
 * branches that build them (issue22-carers, issue22-reports) are merged and `npm run web:api-types` writes them
 * into schema.d.ts; then this file goes.
 */
type Json<T> = { content: { 'application/json': T } }
type Op<Res, Query = never, Path = never, Body = never> = {
  parameters: { query?: Query, header?: never, cookie?: never } & ([Path] extends [never] ? { path?: never } : { path: Path })
} & ([Body] extends [never] ? { requestBody?: never } : { requestBody: Json<Body> }) & {
  responses: { 200: Json<Res>, 201: Json<Res>, 204: { content?: never }, 400: Json<{ error: string }>, 403: Json<{ error: string }>, 404: Json<{ error: string }> }
}
type Can = 'create' | 'follow' | 'accept' | 'cancel' | 'complete'
interface TrustedPerson { id: number, email: string, name: string | null, can: Can[], status: 'invited' | 'accepted' | 'declined', created_at: string }
interface ActingFor { id: number, user_id: number, name: string, can: Can[], status: 'invited' | 'accepted' | 'declined' }
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
  '/api/v1/users/me/trusted-people': Base & { get: Op<TrustedPerson[]>, post: Op<TrustedPerson, never, never, { email: string, can: Can[] }> }
  '/api/v1/users/me/trusted-people/{id}': Base & { delete: Op<never, never, { id: number }> }
  '/api/v1/users/me/acting-for': Base & { get: Op<ActingFor[]> }
  '/api/v1/users/me/acting-for/{id}/accept': Base & { post: Op<ActingFor, never, { id: number }> }
  '/api/v1/users/me/acting-for/{id}/decline': Base & { post: Op<ActingFor, never, { id: number }> }
  '/api/v1/reports/summary': Base & { get: Op<{ periods: Period[], suppressed_below: number }, { from?: string, to?: string, by?: 'month' | 'week' }> }
  '/api/v1/reports/requests.csv': Base & { get: Op<string, { from?: string, to?: string }> }
}
