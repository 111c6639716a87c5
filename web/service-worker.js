/* global self, caches, clients, fetch, URL, VERSION, FILES */
// The app's service worker, served as /sw.js with scope / (docs/web.md › Offline reading). The build
// (web/vite.config.ts, serviceWorker()) puts two lines above this text: VERSION, a hash of the build, and
// FILES, every file of the build and of web/public. It keeps only those static files, so that a reload
// without a connection still starts the app; the app itself keeps what the person last saw (api/offline.ts).
// API answers are never cached here: they hold other people's contact details, which must go at sign-out.
// One file, registered once (main.tsx), which also shows Web Push alerts (docs/web/messaging.md › How we tell you).

const CACHE = `vcs-app-${VERSION}`
const SHELL = '/'

self.addEventListener('install', (event) => {
  // Each file fetched anew (not from the HTTP cache), so a cache of a new build holds that build's files.
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES.map((file) => new Request(file, { cache: 'reload' })))))
  // A new build's worker takes over at once: the files it serves are the server's files from now on.
  self.skipWaiting()
})

self.addEventListener('activate', (event) => {
  // The caches of earlier builds go: only this build's files are kept.
  event.waitUntil(caches.keys().then((names) => Promise.all(
    names.filter((name) => name.startsWith('vcs-app-') && name !== CACHE).map((name) => caches.delete(name))
  )))
})

self.addEventListener('fetch', (event) => {
  const request = event.request
  if (request.method !== 'GET') return
  const url = new URL(request.url)
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return
  if (request.mode === 'navigate') {
    // Pages come from the network while there is one (a new build shows at once); without one, the app page
    // kept at install starts the app, which routes itself and shows what it kept.
    event.respondWith(fetch(request).catch(async () => (await caches.match(SHELL, { cacheName: CACHE })) ?? Response.error()))
    return
  }
  if (!FILES.includes(url.pathname)) return
  // The build's own files never change under one name (hashed, or replaced together with this worker).
  event.respondWith(caches.match(request, { cacheName: CACHE, ignoreSearch: true }).then((kept) => kept ?? fetch(request)))
})

// A push (docs/api/messaging.md › Web Push): the payload is JSON {type, request_id, title, body, url}, never contact data. The
// notification shows the request's title and the short text in the person's language; a tap opens `url`.
// userVisibleOnly: every push must show something, so a payload that cannot be read still shows the app's name.
self.addEventListener('push', (event) => {
  let payload = {}
  try {
    payload = event.data?.json() ?? {}
  } catch {
    payload = { body: event.data?.text() ?? '' }
  }
  const text = (value) => typeof value === 'string' ? value : ''
  const title = text(payload.title) || 'Neighbourly help'
  event.waitUntil(self.registration.showNotification(title, {
    body: text(payload.body),
    icon: '/icon-192.png',
    badge: '/icon-192.png',
    // One notification per request: a newer one about the same request replaces the older.
    tag: payload.request_id != null ? `request-${payload.request_id}` : undefined,
    data: { url: sameOriginPath(payload.url) },
  }))
})

// Only a path of this app is ever opened: a payload naming another site would make a tap a way out of it.
function sameOriginPath (url) {
  try {
    const target = new URL(typeof url === 'string' ? url : '/notifications', self.location.origin)
    return target.origin === self.location.origin ? target.pathname + target.search + target.hash : '/notifications'
  } catch {
    return '/notifications'
  }
}

// A tap: an open window of the app is brought forward and shown the request's page; without one, a window opens.
self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const path = sameOriginPath(event.notification.data?.url)
  event.waitUntil((async () => {
    const windows = await clients.matchAll({ type: 'window', includeUncontrolled: true })
    const open = windows.find((client) => new URL(client.url).origin === self.location.origin)
    if (open !== undefined) {
      const focused = await open.focus()
      // navigate() works only for a window this worker controls; the first page after install is not.
      if (focused.url !== new URL(path, self.location.origin).href) await focused.navigate(path).catch(() => clients.openWindow(path))
      return
    }
    await clients.openWindow(path)
  })())
})
