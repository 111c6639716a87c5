import { useQuery, type QueryClient } from '@tanstack/react-query'
import { api } from './client'
import { unwrap } from './errors'
import type { paths } from './schema'

export type AccountSettings = paths['/api/v1/account-settings']['get']['responses']['200']['content']['application/json']

/**
 * How accounts work on this deployment (docs/api/accounts.md › Account settings): code confirmation, the checks
 * volunteers need, the country of phone numbers typed without a code. Fixed for the life of the service, so read
 * once a visit under one key, whichever page asks first.
 */
const options = {
  queryKey: ['get', '/api/v1/account-settings'] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => unwrap(api.GET('/api/v1/account-settings', { signal })),
  staleTime: Infinity,
}

export const useAccountSettings = (enabled = true) => useQuery({ ...options, enabled })

export const fetchAccountSettings = async (client: QueryClient): Promise<AccountSettings> => await client.fetchQuery(options)
