import { useSyncExternalStore } from 'react'
import { session, type SessionState } from './session'

export const useSession = (): SessionState => useSyncExternalStore(session.subscribe, session.get)
