import { useQuery } from '@tanstack/react-query'
import { api } from './client'
import { unwrap } from './errors'

/**
 * Clients of the coordinators (behalf.md § 1): people without an account for whom coordinators ask. Shared by
 * the coordinator's workspace and "Ask for help" (which asks for a client at /clients/:id/ask).
 */
export type ConsentHow = 'phone' | 'in_person' | 'written'
export const CONSENT_WAYS: readonly ConsentHow[] = ['phone', 'in_person', 'written']

export interface Client {
  id: number
  first_name: string
  last_name: string
  phone: string | null
  address: string | null
  city: string | null
  latitude: number | null
  longitude: number | null
  needs: string | null
  consent: { how: ConsentHow, recorded_by: number | null, recorded_at: string }
  created_at: string
  updated_at: string
}

type Call = (path: string, init?: { params?: unknown, body?: unknown, signal?: AbortSignal }) => Promise<{ data?: unknown, error?: unknown, response: Response }>
/** The calls of behalf.md before their operations are in schema.d.ts (issue22-clients, issue22-history): typed by hand here. */
export const behalfApi = api as unknown as { GET: Call, POST: Call, PATCH: Call }

export const clientKey = (id: number) => ['get', '/api/v1/clients/{id}', id] as const
export const CLIENTS_KEY = ['get', '/api/v1/clients'] as const

export function useClient (id: number) {
  return useQuery({
    queryKey: clientKey(id),
    queryFn: ({ signal }) => unwrap(behalfApi.GET(`/api/v1/clients/${id}`, { signal })) as Promise<Client>,
    enabled: Number.isSafeInteger(id) && id > 0,
  })
}

/** "Erna S.": how a client is named where more is not needed (RequestDetail.client names them so). */
export const shortName = (client: { first_name: string, last_name: string }): string =>
  `${client.first_name} ${client.last_name.endsWith('.') ? client.last_name : `${client.last_name.charAt(0)}.`}`
