import { useQuery, type QueryClient } from '@tanstack/react-query'
import { api } from './client'
import { unwrap } from './errors'

/** The lists "Your requests" and "My offers" keep, under the same keys, so one answer serves every page. */
export const OWN_REQUESTS_KEY = ['get', '/api/v1/requests/my'] as const
export const OWN_OFFERS_KEY = ['get', '/api/v1/responses/my'] as const
const QUERY = { limit: '100' }

type OwnRequests = Array<{ id: number, title: string }>
type OwnOffers = Array<{ request_id: number, request_title: string }>

function titlesOf (asked: OwnRequests | undefined, offered: OwnOffers | undefined): Map<number, string> {
  return new Map([
    ...(offered ?? []).map((offer) => [offer.request_id, offer.request_title] as const),
    ...(asked ?? []).map((request) => [request.id, request.title] as const),
  ])
}

/**
 * The titles of the person's own requests and of those they offered help with, from their own two lists.
 * Not from GET /requests/{id}: for a party that answer carries contact details, so naming a request would
 * add a record to the requester's access log (docs/privacy.md › Access records) though nobody looked at her details.
 * `settled` once both lists have answered (or failed).
 */
export function useOwnRequestTitles (enabled: boolean): { titles: Map<number, string>, settled: boolean } {
  const asked = useQuery({ queryKey: OWN_REQUESTS_KEY, queryFn: ({ signal }) => unwrap(api.GET('/api/v1/requests/my', { params: { query: QUERY }, signal })), enabled })
  const offered = useQuery({ queryKey: OWN_OFFERS_KEY, queryFn: ({ signal }) => unwrap(api.GET('/api/v1/responses/my', { params: { query: QUERY }, signal })), enabled })
  return { titles: titlesOf(asked.data, offered.data), settled: !asked.isPending && !offered.isPending }
}

/** The same titles when the cache has them already (for a live notification, said at once). */
export function cachedOwnTitle (client: QueryClient, id: number): string | undefined {
  return titlesOf(client.getQueryData<OwnRequests>(OWN_REQUESTS_KEY), client.getQueryData<OwnOffers>(OWN_OFFERS_KEY)).get(id)
}
