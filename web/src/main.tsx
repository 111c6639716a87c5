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
