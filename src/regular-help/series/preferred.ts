import type { Queryable } from '../../db/database.js'
import type { Change } from '../../events/dispatcher.js'
import { dateIn, type CheckKind } from '../../lib/checks.js'
import { findInvitee } from './series.repo.js'

const HOUR_MS = 60 * 60 * 1000
/** docs/api/schedule.md › Series: a hold that would end less than this before the window does not happen: rounds start at once. */
const LEAD_MS = 48 * HOUR_MS

/** What inviting the preferred volunteer depends on. */
export interface PreferredSettings {
  /** PREFERRED_HOLD_HOURS. */
  preferredHoldHours: number
  /** VOLUNTEER_CHECKS, valid on the day in TIME_ZONE (docs/api/accounts.md › Checks that vet volunteers): the invited volunteer must be able to offer help. */
  volunteerChecks: readonly CheckKind[]
  timeZone: string
}

/** A new occurrence, as its invitation needs it. */
export interface NewOccurrence { requestId: number, seriesId: number, windowStart: Date }

/**
 * The same volunteer again (docs/api/schedule.md › Series), in the transaction that created the occurrence, after it
 * recorded `occurrence_created`: its series' preferred volunteer, if they may offer help now, is invited
 * alone (`series_invited`), and its alert rounds wait PREFERRED_HOLD_HOURS, or not at all when the hold
 * would end less than 48 hours before the window.
 */
export async function invitePreferred (tx: Queryable, change: Change, occurrence: NewOccurrence, settings: PreferredSettings): Promise<void> {
  const volunteerId = await findInvitee(tx, occurrence.seriesId, settings.volunteerChecks, dateIn(change.at, settings.timeZone))
  if (volunteerId === undefined) return
  const holdEnd = change.at.getTime() + settings.preferredHoldHours * HOUR_MS
  const roundsFrom = occurrence.windowStart.getTime() - holdEnd < LEAD_MS ? change.at : new Date(holdEnd)
  change.record({ type: 'series_invited', ...occurrence, volunteerId, roundsFrom })
}
