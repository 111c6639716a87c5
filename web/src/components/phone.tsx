import { useQuery } from '@tanstack/react-query'
import { api } from '../api/client'
import { unwrap } from '../api/errors'
import { profileKey } from '../api/keys'

/**
 * A phone number as a link that rings it on a phone (`tel:`, only digits and the plus kept). A plain
 * anchor: React Aria's Link hands every href to the router, which would make it a page address.
 */
export function PhoneLink ({ phone }: { phone: string }) {
  return <a href={`tel:${phone.replace(/[^\d+]/g, '')}`}>{phone}</a>
}

/**
 * The phone of the other side of a request in progress, from their profile: the API gives it to the
 * two people of an in_progress request they share (docs/api/conventions.md), and null to anyone else or when none is set.
 */
export function useProfilePhone (userId: number | undefined, enabled: boolean) {
  return useQuery({
    queryKey: profileKey(userId),
    queryFn: ({ signal }) => unwrap(api.GET('/api/v1/users/{id}', { params: { path: { id: userId ?? 0 } }, signal })),
    enabled: enabled && userId !== undefined,
    select: (profile) => profile.phone,
  })
}
