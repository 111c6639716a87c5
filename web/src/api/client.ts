import { onlineManager } from '@tanstack/react-query'
import createClient from 'openapi-fetch'
import type { paths } from './schema'
import { ApiError } from './errors'
import { OFFLINE_ACTION } from './offline'
import { refreshSession, session, signedInUnchecked } from './session'

/**
 * Sends the access token, and on a 401 gets a new one once (single-flight) and retries the call.
 * The request is cloned before it is sent, because a sent body cannot be read again.
 */
async function authorisedFetch (request: Request): Promise<Response> {
  // An action without a connection is refused here, at once and in words, rather than failing on the way.
  if (request.method !== 'GET' && (!navigator.onLine || !onlineManager.isOnline())) throw new ApiError(0, OFFLINE_ACTION)
  // Signed in from what was kept offline (session.ts): the session is checked first, and a token got if it is good.
  if (signedInUnchecked()) await refreshSession()
  const retry = request.clone()
  const token = session.token()
  if (token !== undefined) request.headers.set('authorization', `Bearer ${token}`)
  const response = await fetch(request)
  if (response.status !== 401 || token === undefined || new URL(request.url).pathname.startsWith('/api/v1/session')) return response
  if (!await refreshSession()) return response
  retry.headers.set('authorization', `Bearer ${session.token() ?? ''}`)
  return await fetch(retry)
}

export const api = createClient<paths>({ baseUrl: '', fetch: authorisedFetch })
