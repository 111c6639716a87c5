import { useQuery } from '@tanstack/react-query'
import { api } from './client'
import { unwrap } from './errors'
import { useSession } from './use-session'

export const MY_ROLES_KEY = ['get', '/api/v1/users/me/roles'] as const

/**
 * The signed-in person's role names, so that navigation offers only what they may use; `undefined`
 * while unknown. The same query key as the profile's role list, so one answer serves both.
 */
export function useMyRoles (): string[] | undefined {
  const { status, user } = useSession()
  const roles = useQuery({
    queryKey: MY_ROLES_KEY,
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/users/me/roles', { signal })),
    enabled: status === 'signed-in' && user !== undefined,
    staleTime: 60_000,
  })
  if (status !== 'signed-in') return []
  return roles.data?.map((role) => role.name)
}

export const canModerate = (roles: string[] | undefined): boolean => roles !== undefined && (roles.includes('moderator') || roles.includes('admin'))
export const isAdmin = (roles: string[] | undefined): boolean => roles?.includes('admin') === true
export const isVolunteer = (roles: string[] | undefined): boolean => roles?.includes('volunteer') === true
