import { useQuery } from '@tanstack/react-query'
import { api } from './client'
import { unwrap } from './errors'
import { useSession } from './use-session'

/** What a carer may do for a person (docs/api/on-behalf.md › Carers); `follow` is always granted. */
export const CAN = ['create', 'follow', 'accept', 'cancel', 'complete'] as const
export type Can = typeof CAN[number]

export const ACTING_FOR_KEY = ['get', '/api/v1/users/me/acting-for'] as const

/**
 * The people the signed-in person was invited to help, invited and accepted ones: shared by "People I help"
 * "Ask for help" for someone (who it is for, and whether `create` was granted) and a request's page (what the
 * carer may do on it); `wanted` false where the list cannot matter (the caller's own request).
 */
export function useActingFor (wanted = true) {
  const { status } = useSession()
  return useQuery({
    queryKey: ACTING_FOR_KEY,
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/users/me/acting-for', { signal })),
    enabled: wanted && status === 'signed-in',
  })
}
