import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { api } from './client'
import { unwrap } from './errors'
import { signedInUnchecked } from './session'

const ME = ['get', '/api/v1/users/me'] as const

/** PATCH /users/me with `locale`, which web/src/api/schema.d.ts describes once the service has it (docs/api/messaging.md › Deliveries and e-mail). */
interface LoosePatch { PATCH: (path: string, init: { body: unknown }) => Promise<{ data?: unknown, error?: unknown, response: Response }> }

/**
 * The profile's `locale` (the language of e-mails and pushes, docs/api/messaging.md › Deliveries and e-mail) follows the language the person reads
 * the app in: set after signing in when it differs, and whenever they switch. Best effort and silent: a failure
 * (offline, say) is tried again at the next sign-in or switch. Nothing is sent while the profile has no `locale`
 * (a service without docs/api/messaging.md).
 */
export function useProfileLocale (userId: number | undefined, language: string): void {
  const client = useQueryClient()
  useEffect(() => {
    if (userId === undefined || signedInUnchecked()) return
    let cancelled = false
    const sync = async () => {
      const me = await client.fetchQuery({ queryKey: ME, queryFn: ({ signal }) => unwrap(api.GET('/api/v1/users/me', { signal })), staleTime: 0 }) as { locale?: unknown }
      if (cancelled || typeof me.locale !== 'string' || me.locale === language) return
      await unwrap((api as unknown as LoosePatch).PATCH('/api/v1/users/me', { body: { locale: language } }))
      await client.invalidateQueries({ queryKey: ME })
    }
    sync().catch(() => {})
    return () => { cancelled = true }
  }, [userId, language, client])
}
