import { useQueryClient } from '@tanstack/react-query'
import { requestKey, responsesKey } from '../../api/keys'
import { historyKey } from '../../components/request-history'
import { MY_REQUESTS } from '../../api/keys'

/**
 * After an action on a request: it, its offers, the requester's list (also a carer's list of the person's
 * requests, whose key starts alike) and its history are read again.
 */
export function useInvalidate (id: number) {
  const client = useQueryClient()
  return async () => {
    await Promise.all([
      client.invalidateQueries({ queryKey: requestKey(id) }),
      client.invalidateQueries({ queryKey: responsesKey(id) }),
      client.invalidateQueries({ queryKey: MY_REQUESTS }),
      client.invalidateQueries({ queryKey: historyKey(id) }),
    ])
  }
}
