import { useQuery } from '@tanstack/react-query'
import { api } from './client'
import { unwrap } from './errors'
import { useSession } from './use-session'

export const MY_ROLES = ['get', '/api/v1/users/me/roles'] as const

/** The signed-in person's role names (empty while unknown or signed out). */
export function useRoleNames (): string[] {
  const { status, user } = useSession()
  const roles = useQuery({
    queryKey: [...MY_ROLES, user?.id],
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/users/me/roles', { signal })),
    enabled: status === 'signed-in',
    staleTime: 60_000,
  })
  return status === 'signed-in' ? (roles.data ?? []).map((role) => role.name) : []
}
