import type { Reactions } from '../../events/dispatcher.js'
import * as series from './series.repo.js'

/**
 * The same volunteer again (docs/api/schedule.md › Series): who a series' preferred volunteer is follows what happens on
 * its occurrences. A series that lost theirs has the held rounds of its occurrences started (alerts).
 */
export const seriesReactions: Reactions = {
  // A rating of 4 or 5 makes the volunteer the preferred one, 1..3 clears them; no rating changes nothing.
  async request_completed ({ requestId, volunteerId, rating }, { tx, record }) {
    if (rating === null) return
    const cleared = await series.preferAfterRating(tx, requestId, volunteerId, rating)
    if (cleared.length > 0) record({ type: 'preferred_cleared', seriesIds: cleared })
  },
  // Any withdrawal from an occurrence, of an offer or of an accepted one (a missed confirmation too).
  async response_withdrawn ({ requestId, responseId }, { tx, record }) {
    const cleared = await series.unpreferAfterWithdrawal(tx, requestId, responseId)
    if (cleared.length > 0) record({ type: 'preferred_cleared', seriesIds: cleared })
  },
  async concern_raised ({ concernId }, { tx, record }) {
    const cleared = await series.unpreferAfterConcern(tx, concernId)
    if (cleared.length > 0) record({ type: 'preferred_cleared', seriesIds: cleared })
  },
}
