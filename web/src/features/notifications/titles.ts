import { useQueries, type QueryClient } from '@tanstack/react-query'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { requestKey } from '../../api/keys'
import { cachedOwnTitle, useOwnRequestTitles } from '../../api/use-own-titles'

/** A title changes rarely: a minute of cache spares the API a request per notification on every visit. */
const TITLE_STALE_MS = 60_000

/** News about a check or a concern is said without the request's title (describe.ts), so none is looked up. */
const NAMES_NO_REQUEST = new Set(['check_expiring', 'concern_raised', 'concern_resolved'])

interface Named { type: string, request_id: number | null, data: Record<string, unknown> }

/**
 * The titles of the requests some notifications are about, by request id: first from the person's own
 * requests and offers (use-own-titles.ts: never GET /requests/{id} for a request they are a party to, which
 * would write a record in the requester's access log), then, for the rest (an alert that closed before they
 * offered), through GET /requests/{id}, which gives them no contact details. A request the person may no
 * longer see has no title here and is named by its kind of news alone.
 */
export function useRequestTitles (notifications: readonly Named[]): Map<number, string> {
  const wanted = [...new Set(notifications.flatMap((n) =>
    typeof n.data.title !== 'string' && n.request_id !== null && !NAMES_NO_REQUEST.has(n.type) ? [n.request_id] : []))]
  const own = useOwnRequestTitles(wanted.length > 0)
  const others = own.settled ? wanted.filter((id) => !own.titles.has(id)) : []
  const results = useQueries({
    queries: others.map((id) => ({
      queryKey: requestKey(id),
      queryFn: ({ signal }: { signal: AbortSignal }) => unwrap(api.GET('/api/v1/requests/{id}', { params: { path: { id } }, signal })),
      staleTime: TITLE_STALE_MS,
      retry: false,
    })),
  })
  const titles = new Map(own.titles)
  results.forEach((result, index) => { if (result.data !== undefined) titles.set(others[index]!, result.data.title) })
  return titles
}

/** The title of a request when the cache has it already (for a live notification, said at once). */
export function cachedTitle (client: QueryClient, id: number | null): string | undefined {
  if (id === null) return undefined
  return cachedOwnTitle(client, id) ?? client.getQueryData<{ title: string }>(requestKey(id))?.title
}
