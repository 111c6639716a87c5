import { useQuery } from '@tanstack/react-query'
import { useAccountSettings } from './account-settings'
import { api } from './client'
import { unwrap } from './errors'

/** The query key of a request's visit (docs/api/visit-checks.md): the volunteer's and the requester's pages share it. */
export const visitKey = (id: number) => ['get', '/api/v1/requests/{id}/visit', id] as const

/** Whether this deployment checks visits in and out (VISIT_CHECKS=on); false until the settings are known. */
export const useVisitChecks = (): boolean => useAccountSettings().data?.visit_checks === 'on'

/** The assigned volunteer's visit as it stands; asked only where the reader is one of its two sides. */
export function useVisit (id: number, enabled: boolean) {
  return useQuery({
    queryKey: visitKey(id),
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/requests/{id}/visit', { params: { path: { id } }, signal })),
    enabled,
  })
}
