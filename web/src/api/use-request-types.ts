import { useQuery } from '@tanstack/react-query'
import { api } from './client'
import { unwrap } from './errors'

const REQUEST_TYPES_KEY = ['get', '/api/v1/request-types'] as const

/** The kinds of help, one answer for asking for help and for the volunteer's availability; they rarely change. */
export function useRequestTypes () {
  return useQuery({ queryKey: REQUEST_TYPES_KEY, queryFn: ({ signal }) => unwrap(api.GET('/api/v1/request-types', { signal })), staleTime: 3_600_000 })
}
