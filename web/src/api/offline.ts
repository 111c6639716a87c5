import { onlineManager, type QueryClient, type QueryKey } from '@tanstack/react-query'
import { useSyncExternalStore } from 'react'
import { refreshSession, rememberSignedIn, session, signedInUnchecked, type SessionUser } from './session'

/**
 * What a person last saw of their own requests and their offers of help, kept in this browser so that it
 * can still be read without a connection (docs/web.md › Offline). Only these answers are kept, with who
 * was signed in (name and e-mail, so that a reload offline still knows them) and their roles and unread
 * count (the header and the pages wait for these), never a token; they belong to the person signed in, and
 * are dropped when they sign out or someone else signs in. The service worker keeps no API answer at all.
 */
const KEPT_PATHS = new Set([
  '/api/v1/requests/my', '/api/v1/requests/{id}', '/api/v1/requests/{id}/responses', '/api/v1/responses/my',
  '/api/v1/users/me/roles', '/api/v1/notifications/unread-count', '/api/v1/request-series/mine', '/api/v1/request-series/{id}',
  '/api/v1/users/me/coming-help',
])
const STORE = 'vcs-last-seen'
/** How often an unchecked session (started offline) is checked again: a failed check costs nothing offline. */
const RECHECK_MS = 5_000

interface Kept { user: number, person?: SessionUser, entries: Record<string, { key: QueryKey, data: unknown, at: number }> }

const kept = (key: QueryKey): boolean => key[0] === 'get' && typeof key[1] === 'string' && KEPT_PATHS.has(key[1])

function read (): Kept | undefined {
  try {
    const text = localStorage.getItem(STORE)
    return text === null ? undefined : JSON.parse(text) as Kept
  } catch {
    return undefined
  }
}

function write (value: Kept | undefined): void {
  try {
    if (value === undefined) localStorage.removeItem(STORE)
    else localStorage.setItem(STORE, JSON.stringify(value))
  } catch {
    // A full or forbidden storage only means less is kept for offline reading.
  }
}

/** Keeps the answers above as they arrive, and puts them back into the cache for the same person. */
export function keepLastSeen (client: QueryClient): void {
  // While kept for offline reading, these answers are not dropped from memory after five unused minutes.
  for (const path of KEPT_PATHS) client.setQueryDefaults(['get', path], { gcTime: Infinity })
  client.getQueryCache().subscribe((event) => {
    const user = session.get().user?.id
    if (event.type !== 'updated' || event.action.type !== 'success' || user === undefined || !kept(event.query.queryKey)) return
    const store = read()
    const entries = store?.user === user ? store.entries : {}
    entries[event.query.queryHash] = { key: event.query.queryKey, data: event.query.state.data, at: event.query.state.dataUpdatedAt }
    write({ user, person: session.get().user, entries })
  })
  rememberSignedIn(() => read()?.person)
  let recheck: ReturnType<typeof setInterval> | undefined
  const restore = () => {
    const { status, user } = session.get()
    // Signed in from what was kept because the service could not be reached: offline for the app (the notice,
    // queries paused, actions refused) until the session can be checked. Asked again every few seconds as well
    // as on the browser's "online" (session.ts): a browser that thought itself online all along never says so.
    if (signedInUnchecked()) {
      onlineManager.setOnline(false)
      recheck ??= setInterval(() => { void refreshSession() }, RECHECK_MS)
    } else if (recheck !== undefined) {
      clearInterval(recheck)
      recheck = undefined
      onlineManager.setOnline(true)
    }
    if (status === 'signed-out') return write(undefined)
    if (user === undefined) return
    const store = read()
    // Who is signed in, kept as soon as they are (so a reload offline knows them); another person's answers go.
    const entries = store?.user === user.id ? store.entries : {}
    write({ user: user.id, person: user, entries })
    for (const entry of Object.values(entries)) {
      if (client.getQueryData(entry.key) !== undefined) continue
      client.setQueryData(entry.key, entry.data, { updatedAt: entry.at })
      // Shown at once, but asked again as soon as a page uses it: kept answers are what was last seen, not
      // what is true now (a role given since, a new offer), however recent `at` is.
      void client.invalidateQueries({ queryKey: entry.key, exact: true, refetchType: 'none' })
    }
  }
  session.subscribe(restore)
  restore()
}

/** Whether the browser says it is online (TanStack Query's view of it, which pauses queries while offline). */
export function useOnline (): boolean {
  return useSyncExternalStore((listener) => onlineManager.subscribe(listener), () => onlineManager.isOnline())
}

/** Thrown for an action tried without a connection: nothing was sent (serverProblem words it). */
export const OFFLINE_ACTION = 'offline: not sent'
