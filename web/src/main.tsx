import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { BrowserRouter } from 'react-router'
import { ApiError } from './api/errors'
import { keepLastSeen } from './api/offline'
import { refreshSession } from './api/session'
import { App, startLoadingPage } from './app'
import { Announcer } from './components/announcer'
import { setupI18n } from './i18n'
import './styles.css'

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refused call (4xx) is an answer; only a lost connection or a server failure is worth retrying.
      retry: (count, error) => count < 3 && (!(error instanceof ApiError) || error.offline || error.status >= 500),
      refetchOnWindowFocus: true,
    },
    // An action tried offline is refused at once with words (api/client.ts), not held until the connection returns.
    mutations: { networkMode: 'always' },
  },
})
keepLastSeen(queryClient)

// The session, and the code of the page asked for, are on their way before the first render: the page is
// shown once the session and the roles are known, and each of these is a round trip.
void refreshSession()
startLoadingPage(window.location.pathname)
// The app's files, kept by its service worker (web/service-worker.js, built as /sw.js) so that a reload without a
// connection still starts it. Registered once the page has loaded, so that it never competes with the page's own files.
if ('serviceWorker' in navigator && import.meta.env.PROD) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
      // Without a worker (private mode, an old browser) the app works as before, only not after a reload offline.
    })
  })
}
await setupI18n()
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <Announcer>
          <App />
        </Announcer>
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>
)
