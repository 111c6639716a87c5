import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import type { paths } from '../../api/schema'
import { refreshSession, session } from '../../api/session'
import { useSession } from '../../api/use-session'
import { useAnnounce } from '../../components/announcer'
import { describeNotification } from './describe'
import { cachedTitle } from './titles'

export type Notification = paths['/api/v1/notifications']['get']['responses']['200']['content']['application/json'][number]

/** After a failed or ended stream: wait, doubling from 1 s to at most 30 s, then reconnect. */
const RETRY_MIN_MS = 1000
const RETRY_MAX_MS = 30_000

/** One parsed Server-Sent Event: only what the API sends (id, event, data). */
interface ServerEvent { id?: string, data: string }

/**
 * Reads the stream's text into events as they complete (a blank line ends each); comments (`: ping`)
 * and `retry:` lines are skipped. Hand-written because EventSource cannot send the Authorization
 * header, and the API never takes a token in the URL; the format is a few lines.
 */
async function readEvents (body: ReadableStream<Uint8Array>, onEvent: (event: ServerEvent) => void, onOpen: () => void): Promise<void> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  let opened = false
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return
    if (!opened) {
      opened = true
      onOpen()
    }
    buffer += decoder.decode(value, { stream: true })
    let end: number
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      const event: ServerEvent = { data: '' }
      for (const line of block.split('\n')) {
        if (line.startsWith('id: ')) event.id = line.slice(4)
        else if (line.startsWith('data: ')) event.data += line.slice(6)
      }
      if (event.data !== '') onEvent(event)
    }
  }
}

/**
 * While someone is signed in: one live stream of their notifications (docs/api/messaging.md › Live events). Each one refreshes
 * what the app shows (every query still on screen is fetched again, the unread count among them) and is
 * said once in the polite live region. The stream resumes from the last notification it had (or the
 * newest in the inbox when it starts), so nothing is missed across a lost connection; a refused token is
 * renewed once. Returns whether live updates are paused (the connection is lost and being retried).
 */
export function useLiveEvents (): boolean {
  const { status, user } = useSession()
  const client = useQueryClient()
  const announce = useAnnounce()
  const { t, i18n } = useTranslation()
  const [paused, setPaused] = useState(false)
  // The latest words and language, without restarting the stream when they change.
  const say = useRef((_notification: Notification) => {})
  const sayPaused = useRef(() => {})
  useEffect(() => {
    say.current = (notification) => announce(describeNotification(notification, t, i18n.language, cachedTitle(client, notification.request_id), user?.id).text)
    sayPaused.current = () => announce(t('notifications.paused'))
  }, [announce, t, i18n.language, client, user?.id])

  useEffect(() => {
    if (status !== 'signed-in') return
    const stop = new AbortController()
    let retryMs = RETRY_MIN_MS
    let lastId: number | undefined
    let pausedNow = false
    const wait = (ms: number) => new Promise((resolve) => { setTimeout(resolve, ms) })

    const connect = async (): Promise<void> => {
      if (lastId === undefined) {
        const { data } = await api.GET('/api/v1/notifications', { params: { query: { limit: '1' } }, signal: stop.signal })
        if (data === undefined) throw new Error('inbox unavailable')
        lastId = data[0]?.id ?? 0
      }
      const open = () => fetch('/api/v1/events', {
        headers: { authorization: `Bearer ${session.token() ?? ''}`, accept: 'text/event-stream', 'last-event-id': String(lastId) },
        signal: stop.signal,
      })
      let response = await open()
      if (response.status === 401 && await refreshSession()) response = await open()
      if (!response.ok || response.body === null) throw new Error(`events: ${response.status}`)
      await readEvents(response.body, (event) => {
        const notification = JSON.parse(event.data) as Notification
        lastId = notification.id
        void client.invalidateQueries()
        say.current(notification)
      }, () => {
        retryMs = RETRY_MIN_MS
        pausedNow = false
        setPaused(false)
      })
    }

    void (async () => {
      while (!stop.signal.aborted) {
        try {
          // Ended by the service (its token expired, or it is restarting): straight back.
          await connect()
          await wait(250)
          continue
        } catch {
          // Lost, refused or unreachable: said, and tried again later.
        }
        if (stop.signal.aborted) return
        if (!pausedNow) {
          pausedNow = true
          sayPaused.current()
          setPaused(true)
        }
        await wait(retryMs)
        retryMs = Math.min(retryMs * 2, RETRY_MAX_MS)
      }
    })()
    return () => {
      stop.abort()
      setPaused(false)
    }
  }, [status, client])

  return paused
}
