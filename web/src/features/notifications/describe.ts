import type { TFunction } from 'i18next'
import { formatDistance } from '../../lib/format'
import { kindText, urgencyText } from '../../i18n/labels'

interface NotificationLike { type: string, request_id: number, data: Record<string, unknown> }

/** Notifications meant for the person who asked for help; the rest are a volunteer's. */
const FOR_REQUESTER = new Set(['request_approved', 'request_rejected', 'response_received', 'response_withdrawn'])

/**
 * A notification in words (events.md § 4, every type), and the page of its request: the requester's
 * view of their own request, or the volunteer's view of one they were alerted to or offered help with.
 * `title` names the request when the notification's data does not (events.md fixes the data of each type).
 */
export function describeNotification (notification: NotificationLike, t: TFunction, language: string, title?: string): { text: string, href: string } {
  const { type, request_id: id, data } = notification
  const text = (key: string) => typeof data[key] === 'string' ? data[key] : ''
  const words = t(`notifications.types.${type}`, {
    defaultValue: type,
    title: text('title'),
    urgency: urgencyText(t, typeof data.urgency === 'string' ? data.urgency : null),
    kind: kindText(t, text('request_type_name')),
    distance: typeof data.distance_meters === 'number' ? formatDistance(data.distance_meters, language) : '',
    name: text('volunteer_name'),
    comment: text('comment'),
    reason: t(`notifications.reasons.${text('reason')}`, { defaultValue: text('reason') }),
    context: type === 'response_withdrawn' && data.was_accepted === true ? 'accepted' : undefined,
  })
  // Which request it is about: the alert names it itself; the others name it by the title looked up (titles.ts).
  const named = title !== undefined && title !== '' && typeof data.title !== 'string' ? t('notifications.about', { text: words, title }) : words
  return { text: named, href: FOR_REQUESTER.has(type) ? `/requests/${id}` : `/find-help/${id}` }
}
