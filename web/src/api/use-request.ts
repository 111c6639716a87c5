import { useQuery } from '@tanstack/react-query'
import { api } from './client'
import { unwrap } from './errors'
import { requestKey } from './keys'

/** One request, from the one cache entry every page that shows it shares; nothing is asked for an id that cannot be one. */
export function useRequest (id: number, options: { staleTime?: number } = {}) {
  return useQuery({
    queryKey: requestKey(id),
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/requests/{id}', { params: { path: { id } }, signal })),
    enabled: Number.isSafeInteger(id) && id > 0,
    ...options,
  })
}
