import type { Transaction } from '../../db/database.js'
import type { Change } from '../../events/dispatcher.js'
import { gridPoint } from '../../lib/grid.js'
import { cancelOccurrences, insertOccurrence, type CancelReason } from '../../help/requests/requests.repo.js'
import type { RequestStatus } from '../../help/requests/requests.values.js'
import { invitePreferred, type PreferredSettings } from './preferred.js'
import { localDate, nextStart, occurrencesBetween, type Planned } from './recurrence.js'
import * as series from './series.repo.js'

/**
 * Creating and cancelling a series' occurrences, for the service (approval, a change, the end) and the
 * horizon job alike. The caller holds the series row's lock (lockSeries or claimDueSeries): occurrences
 * are locked after it, never before (src/README.md › lock order).
 */

const DAY_MS = 24 * 60 * 60 * 1000
/** created_until of a series with no occurrence left: never due again unless a change gives it more. */
const EXHAUSTED = new Date('9999-01-01T00:00:00Z')

/** What creating occurrences depends on: SERIES_HORIZON_DAYS, MAP_GRID_METERS, and the preferred volunteer's invitation. */
export interface OccurrenceSettings extends PreferredSettings { horizonDays: number, mapGridMeters: number }

/** The word a return trip's title starts with, in its requester's language (docs/api.md › Series). */
const RETURN_PREFIX = { en: 'Return: ', de: 'Rückfahrt: ' } as const

/** The end of the horizon at `now`: outbound occurrences start before it (SERIES_HORIZON_DAYS); their return trips come with them. */
export const horizonEnd = (now: Date, horizonDays: number): Date => new Date(now.getTime() + horizonDays * DAY_MS)

/**
 * Creates the occurrences of an active series starting after `change.at` and before the horizon, each
 * once (ON CONFLICT in insertOccurrence), records occurrence_created for each new one, and stores how far
 * it got: the start of the next outbound occurrence beyond the horizon, so the horizon job takes the series
 * again only when that one comes within the horizon, not every run. An outbound trip and its return trip
 * are made together, in this transaction, even when the return starts beyond the horizon. Each new one is offered first to the
 * series' preferred volunteer (preferred.ts). How many were created. A day keeps the outbound (and return)
 * trip it has: one kept with its accepted offer at the old time after a change, or one the requester
 * cancelled, is not made again at the new time.
 */
export async function createOccurrences (tx: Transaction, change: Change, row: series.SeriesRow, settings: OccurrenceSettings, plan?: Planned[]): Promise<number> {
  const gridMeters = settings.mapGridMeters
  const until = horizonEnd(change.at, settings.horizonDays)
  const { template } = row
  const grid = gridPoint(template.latitude, template.longitude, gridMeters)
  const dayOf = (start: Date, isReturn: boolean) => `${localDate(start, row.time_zone)} ${isReturn}`
  const taken = new Set((await series.listComingOccurrences(tx, row.id, change.at)).map((o) => dayOf(o.window_start, o.return_of !== null)))
  // Read as the occurrences are made: a requester who changed her language gets the new word from then on.
  const back = row.return_time === null ? '' : RETURN_PREFIX[await series.requesterLocale(tx, row.requester_id)]
  let created = 0
  for (const planned of plan ?? occurrencesBetween(row, change.at, until)) {
    if (taken.has(dayOf(planned.start, planned.returnOf !== null))) continue
    const title = planned.returnOf === null ? template.title : `${back}${template.title}`
    const inserted = await insertOccurrence(tx, {
      ...template,
      title,
      series_id: row.id,
      requester_id: row.requester_id,
      window_start: planned.start,
      window_end: planned.end,
      outbound_start: planned.returnOf,
      moderated_by: row.moderated_by,
      moderated_at: row.moderated_at,
      origin: { clientId: row.client_id, carerId: row.created_by_carer },
    }, grid, gridMeters)
    if (inserted === undefined) continue
    created++
    change.record({
      type: 'occurrence_created', requestId: inserted.id, seriesId: row.id, requesterId: row.requester_id, windowStart: planned.start, returnOf: inserted.return_of,
    })
    // After occurrence_created, so that its hold moves the round 1 that event's reaction scheduled.
    await invitePreferred(tx, change, { requestId: inserted.id, seriesId: row.id, windowStart: planned.start }, settings)
  }
  await series.setCreatedUntil(tx, row.id, nextStart(row, until) ?? EXHAUSTED)
  return created
}

/**
 * Cancels occurrences as a request cancel does: request_cancelled for each, so the reactions cancel their
 * offers and tell those volunteers, and close their alerts. Only those still in `statuses` change.
 */
export async function cancelAll (tx: Transaction, change: Change, row: series.SeriesRow, ids: readonly number[], statuses: readonly RequestStatus[], reason: CancelReason, by: number): Promise<void> {
  for (const requestId of await cancelOccurrences(tx, ids, statuses, reason)) {
    change.record({ type: 'request_cancelled', requestId, requesterId: row.requester_id, cancelledBy: by })
  }
}
