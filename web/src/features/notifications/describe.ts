import type { TFunction } from 'i18next'
// With extensions: describe.test.ts runs this file under node (NodeNext), Vite takes either.
import { formatDay, formatDistance, formatWhen } from '../../lib/format.js'
import { checkKind, concernOutcomeSentence, kindText, urgencyText } from '../../i18n/labels.js'

interface NotificationLike { type: string, request_id: number | null, data: Record<string, unknown> }

/** Notifications meant for the person who asked for help; the rest are a volunteer's. */
const FOR_REQUESTER = new Set(['request_approved', 'request_rejected', 'response_received', 'response_withdrawn', 'volunteer_confirmed', 'request_expired', 'still_needed', 'please_complete',
  // A carer asked for help for the person: her own request, whose page shows it as hers.
  'request_created_for_you',
  // "Has Jonas arrived?": the requester's own request, whose page has "My helper has left".
  'visit_not_started'])

/** Sent to both sides of a request (docs/api/schedule.md › Confirmation, reminders, expiry): /requests/<id> shows each their own view of it. */
const FOR_BOTH = new Set(['confirmation_missed', 'reminder'])

/** Safeguarding news (docs/privacy.md): about a person or a concern, each with its own page, never named by a request's title. */
const TRUST_TYPES = new Set(['check_expiring', 'concern_raised', 'concern_resolved'])

/** Which variant of a type's words: whose check it is, whether a concern is urgent, whether the volunteer was the accepted one. */
function contextOf (type: string, data: Record<string, unknown>, me: number | undefined): string | undefined {
  if (type === 'response_withdrawn' && data.was_accepted === true) return 'accepted'
  if (type === 'check_expiring' && data.user_id !== me) return 'other'
  if (type === 'concern_raised' && data.urgent === true) return 'urgent'
  return undefined
}

/** The page of a safeguarding notification: the person's own account, the checks of another, the concerns queue, or My concerns. */
function trustPage (type: string, data: Record<string, unknown>, me: number | undefined): string {
  if (type === 'check_expiring') return data.user_id === me || typeof data.user_id !== 'number' ? '/profile' : `/people/${data.user_id}`
  return type === 'concern_raised' ? '/moderation/concerns' : '/concerns/mine'
}

/**
 * A notification in words (docs/api/messaging.md › Notifications, every type), and the page of its request: the requester's
 * view of their own request, or the volunteer's view of one they were alerted to or offered help with.
 * `title` names the request when the notification's data does not (each type's data is fixed: docs/api/messaging.md › Notifications).
 * `me` (the signed-in person's id) tells one's own expiring check from another's, which admins are told of too.
 */
export function describeNotification (notification: NotificationLike, t: TFunction, language: string, title?: string, me?: number): { text: string, href: string } {
  const { type, request_id: id, data } = notification
  const text = (key: string) => typeof data[key] === 'string' ? data[key] : ''
  const words = t(`notifications.types.${type}`, {
    defaultValue: type,
    title: text('title'),
    urgency: urgencyText(t, typeof data.urgency === 'string' ? data.urgency : null),
    kind: kindText(t, text('request_type_name')),
    distance: typeof data.distance_meters === 'number' ? formatDistance(data.distance_meters, language) : '',
    name: text('volunteer_name'),
    // Who invited the reader to help them, or the carer who asked for help for the reader.
    person: text('from_name') !== '' ? text('from_name') : text('by_name'),
    comment: text('comment'),
    reason: t(`notifications.reasons.${text('reason')}`, { defaultValue: text('reason') }),
    check: checkKind(t, text('kind')),
    date: /^\d{4}-\d{2}-\d{2}$/.test(text('valid_until')) ? formatDay(text('valid_until'), language) : text('valid_until'),
    outcome: concernOutcomeSentence(t, text('outcome')),
    when: text('window_start') !== '' ? formatWhen(text('window_start'), language) : '',
    context: contextOf(type, data, me),
  })
  if (TRUST_TYPES.has(type)) return { text: words, href: trustPage(type, data, me) }
  // Which request it is about: the alert names it itself; the others name it by the title looked up (titles.ts).
  const named = title !== undefined && title !== '' && typeof data.title !== 'string' ? t('notifications.about', { text: words, title }) : words
  // An invitation waits on "People I help", with what it allows and the answers.
  if (type === 'trust_invitation') return { text: named, href: '/people-i-help' }
  if (id === null) return { text: named, href: '/notifications' }
  return { text: named, href: FOR_REQUESTER.has(type) || FOR_BOTH.has(type) ? `/requests/${id}` : `/find-help/${id}` }
}
