import type { Database } from '../../db/database.js'
import type { Clock } from '../../lib/clock.js'
import { notFound } from '../../lib/errors.js'
import type { Page } from '../../lib/page.js'
import type { Principal } from '../../lib/principal.js'
import { hashRefreshToken, newRefreshToken } from '../../lib/tokens.js'
import { toListItem, type Disclosure } from '../../help/requests/disclosure.js'
import { seesExactPoint } from '../../help/requests/search/shared.js'
import * as calendar from './calendar.repo.js'
import type { ComingHelpItem } from './calendar.schemas.js'
import { feedText, type FeedEvent } from './ics.js'

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS
/** How far back a feed goes (docs/api/schedule.md › Calendar feed). */
const FEED_PAST_DAYS = 30

export interface CalendarSettings {
  /** PUBLIC_URL (or http://HOST:PORT) without a trailing slash: the web app's pages. */
  publicUrl: string
  /** The API's path prefix (`/api/v1`): the feeds are served under it. */
  apiPrefix: string
  /** SERIES_HORIZON_DAYS: how far ahead a feed goes. */
  horizonDays: number
  /** CONFIRM_BEFORE_HOURS: from when an unconfirmed volunteer's coming help needs confirmation. */
  confirmBeforeHours: number
}

/** An unknown, replaced or deleted token, and an account that is blocked or erased, all look alike. */
const FEED_NOT_FOUND = 'not found'

/**
 * docs/api/schedule.md › Calendar feed, the calendar feed: a secret address per person (its token stored only as a hash) that
 * calendar programs fetch without signing in; and the web app's list of coming help (› Coming help). Both show
 * requests through the Disclosure, so the address rules (ADDRESS_PRIVACY) and access records
 * (docs/privacy.md › Access records) are those of every other answer.
 */
export class CalendarService {
  readonly #host: string

  constructor (private readonly db: Database, private readonly disclosure: Disclosure, private readonly settings: CalendarSettings, private readonly clock: Clock) {
    this.#host = new URL(settings.publicUrl).host
  }

  /** A new token each time (256 random bits); the old one stops working. The token is only ever in the answer. */
  async newFeed (user: Principal): Promise<{ url: string }> {
    const token = newRefreshToken()
    await calendar.replaceFeed(this.db, user.id, hashRefreshToken(token), this.clock.now())
    return { url: `${this.settings.publicUrl}${this.settings.apiPrefix}/calendar/${token}.ics` }
  }

  async deleteFeed (user: Principal): Promise<void> {
    await calendar.deleteFeed(this.db, user.id)
  }

  /** The feed's iCalendar text: 30 days back to the horizon, the owner's own requests and those assigned to them. */
  async feed (token: string): Promise<string> {
    const owner = await calendar.findFeedOwner(this.db, hashRefreshToken(token))
    if (owner === undefined) throw notFound(FEED_NOT_FOUND)
    // The feed is the person's own calendar, whatever their roles: a moderator's shows no more than anyone's.
    const viewer: Principal = { id: owner.user_id, roles: [], permissions: [] }
    const now = this.clock.now()
    const rows = await calendar.feedRequests(this.db, owner.user_id, new Date(now.getTime() - FEED_PAST_DAYS * DAY_MS),
      new Date(now.getTime() + this.settings.horizonDays * DAY_MS))
    const events = await this.disclosure.list(viewer, rows, (v, row) => this.#event(v, row))
    return feedText(events, owner.locale, now)
  }

  /** Soonest first: the caller's own coming requests and those they help with. */
  async comingHelp (user: Principal, page: Page): Promise<ComingHelpItem[]> {
    const now = this.clock.now()
    const askFrom = now.getTime() + this.settings.confirmBeforeHours * HOUR_MS
    const rows = await calendar.comingHelp(this.db, user.id, now, page)
    return await this.disclosure.list(user, rows, (viewer, row, policy) => ({
      ...toListItem(viewer, row, policy),
      role: row.role,
      volunteer_name: row.volunteer_name,
      // As the schedule job asks (docs/api/schedule.md › Confirmation, reminders, expiry): the assigned volunteer, unconfirmed, from CONFIRM_BEFORE_HOURS before the start.
      needs_confirmation: row.role === 'volunteer' && row.confirmed_at === null && row.window_start !== null &&
        new Date(row.window_start).getTime() <= askFrom && new Date(row.window_start).getTime() > now.getTime(),
    }))
  }

  /**
   * One request as an event. The address only for the assigned volunteer, while they may see it (in
   * progress or completed): never in the requester's own feed, where her home would add nothing and
   * could leak with a shared calendar. With no roles, seesExactPoint is exactly that, and it is what
   * the Disclosure records under ADDRESS_PRIVACY=parties.
   */
  #event (viewer: Principal, row: calendar.FeedRow): FeedEvent {
    const own = row.requester_id === viewer.id
    const city = row.city !== null && row.city.trim() !== '' && !row.address.includes(row.city) ? `, ${row.city}` : ''
    return {
      uid: `request-${row.id}@${this.#host}`,
      title: row.title,
      // Without a window (only the volunteer's feed has such a request): the hour up to the date it is wanted by.
      start: row.window_start ?? new Date(new Date(row.desired_completion_date!).getTime() - calendar.DATE_ONLY_MS),
      end: row.window_end ?? row.desired_completion_date!,
      status: row.status,
      url: `${this.settings.publicUrl}${own ? '/requests/' : '/find-help/'}${row.id}`,
      location: !own && seesExactPoint(viewer, row) ? `${row.address}${city}` : undefined,
      helping: !own,
      confirmed: row.confirmed_at !== null,
      updatedAt: row.updated_at,
    }
  }
}
