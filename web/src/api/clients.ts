import { useQuery } from '@tanstack/react-query'
import { api } from './client'
import { unwrap } from './errors'
import type { paths } from './schema'

/**
 * Clients of the coordinators (docs/api/on-behalf.md › Coordinators and clients): people without an account for whom coordinators ask. Shared by
 * the coordinator's workspace and "Ask for help" (which asks for a client at /clients/:id/ask).
 */
export type Client = paths['/api/v1/clients/{id}']['get']['responses'][200]['content']['application/json']
export type ConsentHow = Client['consent']['how']
export const CONSENT_WAYS: readonly ConsentHow[] = ['phone', 'in_person', 'written']

export const clientKey = (id: number) => ['get', '/api/v1/clients/{id}', id] as const
export const CLIENTS_KEY = ['get', '/api/v1/clients'] as const

export function useClient (id: number) {
  return useQuery({
    queryKey: clientKey(id),
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/clients/{id}', { params: { path: { id } }, signal })),
    enabled: Number.isSafeInteger(id) && id > 0,
  })
}

/** "Erna S.": how a client is named where more is not needed (RequestDetail.client names them so). */
export const shortName = (client: { first_name: string, last_name: string }): string =>
  `${client.first_name} ${client.last_name.endsWith('.') ? client.last_name : `${client.last_name.charAt(0)}.`}`
