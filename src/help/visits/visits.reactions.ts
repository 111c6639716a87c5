import type { Reactions } from '../../events/dispatcher.js'
import { checkOut } from './visits.repo.js'

/**
 * docs/api/visit-checks.md: completing a request checks its visit out if it was in, in the completion's transaction, by
 * the completing actor (the history's `checked_out`, `by` `completion`). With VISIT_CHECKS off no visit is ever in.
 */
export const visitsReactions: Reactions = {
  async request_completed ({ requestId, volunteerId }, { tx, at, record }) {
    const out = await checkOut(tx, requestId, volunteerId, at)
    if (out !== undefined) record({ type: 'visit_checked_out', requestId, volunteerId, by: 'completion' })
  },
}
