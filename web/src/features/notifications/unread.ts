import { useQuery } from '@tanstack/react-query'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'

export const UNREAD_COUNT = ['get', '/api/v1/notifications/unread-count'] as const

/**
 * How many notifications are unread, for the header (kept fresh by the live stream, live-events.ts), and
 * whether the first answer (or failure) is in.
 */
export function useUnreadCount (enabled: boolean): { count: number | undefined, settled: boolean } {
  const unread = useQuery({
    queryKey: UNREAD_COUNT,
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/notifications/unread-count', { signal })),
    enabled,
  })
  // Settled stays settled after a failure (see useRolesSettled for why not `!isPending`).
  return { count: unread.data?.count, settled: unread.data !== undefined || unread.errorUpdateCount > 0 }
}
