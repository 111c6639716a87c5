import { useQuery } from '@tanstack/react-query'
import { api } from './client'
import { unwrap } from './errors'

/** Every list of series starts with this key, so that one invalidation reads them all again. */
export const SERIES_LISTS = ['get', '/api/v1/request-series/mine'] as const

/**
 * Whose series (docs/api/on-behalf.md › Series for someone): the signed-in person's, a client's (coordinators, whoever made
 * them) or a person's who made the signed-in person her carer. Shared by "Your requests", a client's record and "Helping Rita".
 */
export type SeriesOf = { clientId: number } | { forUserId: number } | undefined

export function useSeriesList (of: SeriesOf, enabled = true) {
  const query = of === undefined ? {} : 'clientId' in of ? { client_id: String(of.clientId) } : { for_user_id: String(of.forUserId) }
  return useQuery({
    queryKey: of === undefined ? SERIES_LISTS : [...SERIES_LISTS, query],
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/request-series/mine', { params: { query: { limit: '100', ...query } }, signal })),
    enabled,
  })
}
