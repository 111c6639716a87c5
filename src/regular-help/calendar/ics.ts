import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator'
import type { RequestStatus } from '../../help/requests/requests.values.js'

/**
 * The iCalendar text of a feed (RFC 5545), written by ical-generator: its escaping, folding at 75 octets
 * and CRLF line ends are what calendar programs read. Times are written in UTC, as the API's are.
 */

export interface FeedEvent {
  uid: string
  title: string
  start: Date
  end: Date
  status: RequestStatus
  /** The page of the web app for this request. */
  url: string
  /** The street address, only when the feed's owner is the assigned volunteer (docs/api/schedule.md › Calendar feed). */
  location: string | undefined
  /** The feed's owner is its assigned volunteer, not its requester: the status is said to her ("You are helping"). */
  helping: boolean
  /** The assigned volunteer has said she will be there (`confirmed_at`). */
  confirmed: boolean
  updatedAt: Date
}

const TEXTS = {
  en: {
    calendar: 'Neighbourly help',
    status: { pending_moderation: 'Waiting for a moderator', approved: 'Open for offers', in_progress: 'A volunteer is helping', completed: 'Done', cancelled: 'Cancelled', rejected: 'Not approved' },
    helping: 'You are helping',
    helpingConfirmed: 'You are helping and have said you will be there',
    confirmed: 'A volunteer is helping and has said they will be there',
  },
  de: {
    calendar: 'Nachbarschaftshilfe',
    status: { pending_moderation: 'Wartet auf Prüfung', approved: 'Offen für Angebote', in_progress: 'In Arbeit', completed: 'Erledigt', cancelled: 'Zurückgezogen', rejected: 'Nicht freigegeben' },
    helping: 'Sie helfen',
    helpingConfirmed: 'Sie helfen und haben zugesagt',
    confirmed: 'Jemand hilft und hat zugesagt',
  },
} as const satisfies Record<string, { calendar: string, status: Record<RequestStatus, string>, helping: string, helpingConfirmed: string, confirmed: string }>

/** The status in the feed owner's words: to the volunteer helping, of herself; with her promise to be there. */
function statusText (texts: typeof TEXTS[keyof typeof TEXTS], event: FeedEvent): string {
  if (event.status !== 'in_progress') return texts.status[event.status]
  if (event.helping) return event.confirmed ? texts.helpingConfirmed : texts.helping
  return event.confirmed ? texts.confirmed : texts.status.in_progress
}

/**
 * A request that will not take place is CANCELLED; one done, or whose volunteer has said she will be there, is
 * CONFIRMED; one still waiting for moderation, for a volunteer or for her promise (docs/api/schedule.md › Confirmation,
 * reminders, expiry: an unconfirmed date may yet go back to the pool) is TENTATIVE.
 */
function eventStatus ({ status, confirmed }: FeedEvent): ICalEventStatus {
  switch (status) {
    case 'cancelled': case 'rejected': return ICalEventStatus.CANCELLED
    case 'completed': return ICalEventStatus.CONFIRMED
    case 'in_progress': return confirmed ? ICalEventStatus.CONFIRMED : ICalEventStatus.TENTATIVE
    case 'pending_moderation': case 'approved': return ICalEventStatus.TENTATIVE
  }
}

/** How often calendar programs are asked to fetch the feed again. */
const REFRESH_SECONDS = 3600

/** The whole feed; `stamp` (DTSTAMP) is when it was made, from the app's clock. */
export function feedText (events: readonly FeedEvent[], locale: 'en' | 'de', stamp: Date): string {
  const texts = TEXTS[locale]
  const calendar = ical({
    name: texts.calendar,
    prodId: { company: 'Volunteer Coordination Service', product: 'Calendar feed', language: locale.toUpperCase() },
    method: ICalCalendarMethod.PUBLISH,
    ttl: REFRESH_SECONDS,
  })
  for (const event of events) {
    calendar.createEvent({
      id: event.uid,
      start: event.start,
      end: event.end,
      stamp,
      lastModified: event.updatedAt,
      summary: event.title,
      description: `${statusText(texts, event)}\n${event.url}`,
      status: eventStatus(event),
      url: event.url,
      location: event.location ?? null,
    })
  }
  // ical-generator ends every line but the last with CRLF; RFC 5545 ends each content line with one.
  return `${calendar.toString()}\r\n`
}
