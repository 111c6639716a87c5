import { useQuery } from '@tanstack/react-query'
import { api } from './client'
import { unwrap } from './errors'
import { useSession } from './use-session'

export const MY_ROLES_KEY = ['get', '/api/v1/users/me/roles'] as const

/** The query of the signed-in person's roles; one key for the navigation and the profile's role list. */
function useRolesQuery () {
  const { status, user } = useSession()
  return useQuery({
    queryKey: MY_ROLES_KEY,
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/users/me/roles', { signal })),
    enabled: status === 'signed-in' && user !== undefined,
    staleTime: 60_000,
  })
}

/**
 * The signed-in person's role names, so that navigation offers only what they may use; `undefined`
 * while unknown. The same query key as the profile's role list, so one answer serves both.
 */
export function useMyRoles (): string[] | undefined {
  const { status } = useSession()
  const roles = useRolesQuery()
  if (status !== 'signed-in') return []
  return roles.data?.map((role) => role.name)
}

/**
 * Whether the roles are known or could not be had (after the query's retries): the layout waits until then.
 * Not `!isPending`: a query without data goes back to pending whenever another component starts to watch
 * it, and the layout would then hide that component again, round and round.
 */
export function useRolesSettled (): boolean {
  const { status } = useSession()
  const roles = useRolesQuery()
  return status !== 'signed-in' || roles.data !== undefined || roles.errorUpdateCount > 0
}

export const canModerate = (roles: string[] | undefined): boolean => roles !== undefined && (roles.includes('moderator') || roles.includes('admin'))
export const isAdmin = (roles: string[] | undefined): boolean => roles?.includes('admin') === true
export const isVolunteer = (roles: string[] | undefined): boolean => roles?.includes('volunteer') === true
/** Coordinators ask for help for clients (docs/api/on-behalf.md › Coordinators and clients); admins hold `coordinate_requests` too. */
export const canCoordinate = (roles: string[] | undefined): boolean => roles !== undefined && (roles.includes('coordinator') || roles.includes('admin'))
/** docs/api/on-behalf.md › Reports for funders: reports are for admins and managers (who hold `view_reports`); coordinators do not see them. */
export const canViewReports = (roles: string[] | undefined): boolean => roles !== undefined && (roles.includes('admin') || roles.includes('manager'))
