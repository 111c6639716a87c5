import type { paths } from './schema'

/**
 * The signed-in state. The access token lives only in this module (never in storage, never in a URL);
 * the refresh token is an httpOnly cookie the service sets for /api/v1/session, out of page script's reach.
 */
export type SessionUser = SessionAnswer['user']
type SessionAnswer = paths['/api/v1/session']['post']['responses']['200']['content']['application/json']

export interface SessionState {
  /** 'unknown' until the first refresh has answered (the page was just loaded). */
  status: 'unknown' | 'signed-in' | 'signed-out'
  user: SessionUser | undefined
}

const CSRF = { 'x-vcs-csrf': '1', 'content-type': 'application/json' }

let accessToken: string | undefined
let state: SessionState = { status: 'unknown', user: undefined }
const listeners = new Set<() => void>()

function set (next: SessionState): void {
  state = next
  for (const listener of listeners) listener()
}

export const session = {
  subscribe (listener: () => void): () => void {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
  get: (): SessionState => state,
  token: (): string | undefined => accessToken,
}

export function startSession (answer: SessionAnswer): void {
  accessToken = answer.access_token
  set({ status: 'signed-in', user: answer.user })
}

export function endSession (): void {
  accessToken = undefined
  set({ status: 'signed-out', user: undefined })
}

export function updateSessionUser (user: Partial<SessionUser>): void {
  if (state.user !== undefined) set({ ...state, user: { ...state.user, ...user } })
}

/** Who was last signed in on this browser, as kept for reading offline (offline.ts keeps it and hands it in). */
let lastSignedIn: () => SessionUser | undefined = () => undefined
export function rememberSignedIn (read: () => SessionUser | undefined): void {
  lastSignedIn = read
}

/**
 * When the service cannot be reached (no answer at all), the session cannot be checked, and the cookie may well
 * be good: the person last signed in here stays signed in, without a token, to read what they last saw
 * (offline.ts, which then treats the app as offline); they are checked again as soon as the connection is back
 * (below, and api/client.ts before any call). Someone never signed in here, or any answer but 401, 204 or 200
 * at the start, is signed out as before. (The browser's `navigator.onLine` is no guide: it says "online" on a
 * network that leads nowhere, and did so in Chromium after a reload with the connection off.)
 */
function checkFailed (unreachable: boolean): void {
  if (state.status !== 'unknown') return
  const kept = unreachable ? lastSignedIn() : undefined
  if (kept === undefined) endSession()
  else set({ status: 'signed-in', user: kept })
}

let refreshing: Promise<boolean> | undefined

async function refreshOnce (): Promise<boolean> {
  let response: Response
  try {
    response = await fetch('/api/v1/session/refresh', { method: 'POST', headers: CSRF, body: '{}', credentials: 'same-origin' })
  } catch {
    checkFailed(true)
    return false
  }
  // 204: there is no session cookie, so no session (the service answers so rather than with an error).
  if (response.status === 204) {
    endSession()
    return false
  }
  if (response.ok) {
    startSession(await response.json() as SessionAnswer)
    return true
  }
  // A 401 means the cookie is gone, expired or revoked: signed out. Anything else (429, 5xx) keeps what we have.
  if (response.status === 401) endSession()
  else checkFailed(false)
  return false
}

/**
 * A new access token from the cookie. Single-flight within the page, and serialised across tabs with
 * a Web Lock where the browser has them: the cookie is single use, so two tabs presenting the same
 * one at once would look like token theft and revoke the session.
 */
export function refreshSession (): Promise<boolean> {
  refreshing ??= (async () => {
    try {
      const locks = (navigator as Navigator & { locks?: LockManager }).locks
      return locks !== undefined ? await locks.request('vcs-session-refresh', refreshOnce) : await refreshOnce()
    } catch {
      checkFailed(false)
      return false
    } finally {
      refreshing = undefined
    }
  })()
  return refreshing
}

/** Whether the person is signed in only from what this browser kept, unchecked (offline since the page loaded). */
export const signedInUnchecked = (): boolean => state.status === 'signed-in' && accessToken === undefined

// Back online after an unchecked start: check the session now (a gone cookie signs out and drops what was kept).
window.addEventListener('online', () => { if (signedInUnchecked()) void refreshSession() })

export const CSRF_HEADERS = { 'x-vcs-csrf': '1' } as const
