import { useQueryClient } from '@tanstack/react-query'
import { api } from '../api/client'
import { unwrap } from '../api/errors'

/**
 * "Use my home location": reads the profile's home location when asked (it may have changed since the
 * page opened); undefined when the profile has none. Throws the API's error like any call.
 */
export function useHomeLocation (): () => Promise<{ latitude: number, longitude: number } | undefined> {
  const client = useQueryClient()
  return async () => {
    const home = await client.fetchQuery({
      queryKey: ['get', '/api/v1/users/me/location'],
      queryFn: ({ signal }) => unwrap(api.GET('/api/v1/users/me/location', { signal })),
      staleTime: 0,
    })
    return home.latitude === null || home.longitude === null ? undefined : { latitude: home.latitude, longitude: home.longitude }
  }
}
