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
  updatedAt: Date
}

const TEXTS = {
  en: {
    calendar: 'Neighbourly help',
    status: { pending_moderation: 'Waiting for a moderator', approved: 'Open for offers', in_progress: 'A volunteer is helping', completed: 'Done', cancelled: 'Cancelled', rejected: 'Not approved' },
  },
  de: {
    calendar: 'Nachbarschaftshilfe',
    status: { pending_moderation: 'Wartet auf Prüfung', approved: 'Offen für Angebote', in_progress: 'In Arbeit', completed: 'Erledigt', cancelled: 'Zurückgezogen', rejected: 'Nicht freigegeben' },
  },
} as const satisfies Record<string, { calendar: string, status: Record<RequestStatus, string> }>

/**
 * A request that will not take place is CANCELLED; one with a volunteer is CONFIRMED; one still
 * waiting for moderation or for a volunteer is TENTATIVE.
 */
function eventStatus (status: RequestStatus): ICalEventStatus {
  switch (status) {
    case 'cancelled': case 'rejected': return ICalEventStatus.CANCELLED
    case 'in_progress': case 'completed': return ICalEventStatus.CONFIRMED
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
      description: `${texts.status[event.status]}\n${event.url}`,
      status: eventStatus(event.status),
      url: event.url,
      location: event.location ?? null,
    })
  }
  // ical-generator ends every line but the last with CRLF; RFC 5545 ends each content line with one.
  return `${calendar.toString()}\r\n`
}
