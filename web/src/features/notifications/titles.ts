import { useQueries, type QueryClient } from '@tanstack/react-query'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { requestKey } from '../../api/keys'

/** A title changes rarely: a minute of cache spares the API a request per notification on every visit. */
const TITLE_STALE_MS = 60_000

/**
 * The titles of the requests some notifications are about, by request id: looked up through
 * GET /requests/{id}, each request once, in the cache the request pages share. A request the person may no
 * longer see (a cancelled one, for a volunteer who only offered) has no title here and is named by its kind
 * of news alone.
 */
export function useRequestTitles (notifications: ReadonlyArray<{ request_id: number, data: Record<string, unknown> }>): Map<number, string> {
  const ids = [...new Set(notifications.filter((n) => typeof n.data.title !== 'string').map((n) => n.request_id))]
  const results = useQueries({
    queries: ids.map((id) => ({
      queryKey: requestKey(id),
      queryFn: ({ signal }: { signal: AbortSignal }) => unwrap(api.GET('/api/v1/requests/{id}', { params: { path: { id } }, signal })),
      staleTime: TITLE_STALE_MS,
      retry: false,
    })),
  })
  const titles = new Map<number, string>()
  results.forEach((result, index) => { if (result.data !== undefined) titles.set(ids[index]!, result.data.title) })
  return titles
}

/** The title of a request when the cache has it already (for a live notification, said at once). */
export function cachedTitle (client: QueryClient, id: number): string | undefined {
  return client.getQueryData<{ title: string }>(requestKey(id))?.title
}
