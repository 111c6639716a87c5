import { useQuery } from '@tanstack/react-query'
import { api } from '../../api/client'
import { unwrap } from '../../api/errors'
import { CAN, type Can } from '../../api/acting-for'

export const TRUSTED_PEOPLE_KEY = ['get', '/api/v1/users/me/trusted-people'] as const

/** The people the signed-in person has invited to act for them (docs/api/on-behalf.md › Carers). */
export function useTrustedPeople () {
  return useQuery({ queryKey: TRUSTED_PEOPLE_KEY, queryFn: ({ signal }) => unwrap(api.GET('/api/v1/users/me/trusted-people', { signal })) })
}

/** The requests of a person the carer follows (GET /requests/my?for_user_id=N). */
export function usePersonRequests (userId: number, enabled: boolean) {
  return useQuery({
    queryKey: ['get', '/api/v1/requests/my', { for_user_id: userId }],
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/requests/my', { params: { query: { limit: '100', for_user_id: String(userId) } }, signal })),
    enabled,
    retry: false,
  })
}

/** The four permissions a person chooses; `follow` is always given and said apart. */
export const CHOOSABLE = CAN.filter((can) => can !== 'follow')

/** `can` in the order the pages say them: following first, then the rest as chosen. */
export const inOrder = (can: readonly Can[]): Can[] => ['follow', ...CHOOSABLE.filter((item) => can.includes(item))]
