import type { TFunction } from 'i18next'
// With the extension: tell.test.ts runs this file under node (NodeNext), Vite takes either.
import { formatWhen } from '../../lib/format.js'

/** What a coordinator's list needs of a client's request to say what to tell the client. */
export interface TellFacts {
  status: string
  cancel_reason?: string | null
  window_start?: string | null
  desired_completion_date?: string | null
  volunteer?: { first_name: string } | null
}

/**
 * What to tell the client, in the words a coordinator says on the phone (docs/web/on-behalf.md): "Tell Erna: Jonas will
 * come on Tuesday 1 December at 10:00", "… nobody yet". The time is the window's start, else the date wanted by.
 */
export function whatToTell (t: TFunction, language: string, client: string, item: TellFacts): string {
  const when = item.window_start ?? item.desired_completion_date ?? null
  const message = (() => {
    switch (item.status) {
      case 'pending_moderation': return t('coordinator.tell.checking')
      case 'approved': return t('coordinator.tell.nobody')
      case 'in_progress': {
        const name = item.volunteer?.first_name
        if (name === undefined) return t('coordinator.tell.someone')
        return when !== null ? t('coordinator.tell.comes', { name, when: formatWhen(when, language) }) : t('coordinator.tell.helps', { name })
      }
      case 'completed': return t('coordinator.tell.done')
      case 'rejected': return t('coordinator.tell.rejected')
      case 'cancelled': return t(item.cancel_reason === 'expired' ? 'coordinator.tell.expired' : 'coordinator.tell.cancelled')
      default: return item.status
    }
  })()
  return t('coordinator.tell.line', { name: client, message })
}
