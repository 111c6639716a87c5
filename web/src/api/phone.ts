import { useQuery } from '@tanstack/react-query'
import { api } from './client'
import { unwrap } from './errors'
import type { paths } from './schema'

/** GET /users/me/phone (docs/api/messaging.md › Texts): the profile's phone and whether texts can go to it. */
export type OwnPhone = paths['/api/v1/users/me/phone']['get']['responses']['200']['content']['application/json']

/** One key for the profile's texts section, the code page and the notification settings: one answer serves all three. */
export const OWN_PHONE_KEY = ['get', '/api/v1/users/me/phone'] as const

export const useOwnPhone = () => useQuery({ queryKey: OWN_PHONE_KEY, queryFn: ({ signal }) => unwrap(api.GET('/api/v1/users/me/phone', { signal })) })

/**
 * Where a person's phone stands for texts, in the order that decides what they must do next: no number; a number
 * that replied STOP (nothing goes to it, codes included, until START); not confirmed yet (a number that is not
 * mobile is one of these too: only the phone library tells them apart, which the profile loads and the settings do not);
 * ready.
 */
export type PhoneState = 'none' | 'stopped' | 'unconfirmed' | 'ready'

export function phoneState (phone: OwnPhone): PhoneState {
  if (phone.phone === null) return 'none'
  if (phone.stopped) return 'stopped'
  return phone.can_receive_texts ? 'ready' : 'unconfirmed'
}

/** The profile's section on texts, which the notification settings link to (`/profile#texts`). */
export const TEXTS_SECTION = 'texts'
