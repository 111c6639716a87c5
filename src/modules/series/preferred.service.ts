import type { Changes } from '../../events/dispatcher.js'
import { badRequest, notFound, REQUEST_NOT_FOUND } from '../../lib/errors.js'
import type { Principal } from '../../lib/principal.js'
import { lockRequest } from '../requests/requests.repo.js'
import { isVisibleTo } from '../requests/visibility.js'
import { findPreferredOf } from './series.repo.js'

export const NOT_INVITED = 'only the invited volunteer can decline'
export const NOT_OPEN = 'request is not open for responses'

/**
 * The same volunteer again (schedule.md § 2): the invited volunteer's answer to an invitation (preferred.ts
 * sends it; series.reactions.ts keeps who is preferred).
 */
export class PreferredService {
  constructor (private readonly changes: Changes) {}

  /**
   * The series' preferred volunteer cannot help this time: the occurrence's alert rounds start now (if they
   * were still held). They stay the preferred volunteer; declining again, or after the hold, changes nothing.
   */
  async decline (volunteer: Principal, requestId: number): Promise<Record<string, never>> {
    return await this.changes.run(volunteer.id, async (tx, change) => {
      // Shared: an accept or cancel under way is waited for, so the status read is the one that stays.
      const request = await lockRequest(tx, requestId, 'share')
      if (request === undefined || !isVisibleTo(volunteer, request)) throw notFound(REQUEST_NOT_FOUND)
      const preferred = await findPreferredOf(tx, requestId)
      if (preferred?.preferred_volunteer_id == null || Number(preferred.preferred_volunteer_id) !== volunteer.id) throw badRequest(NOT_INVITED)
      if (request.status !== 'approved') throw badRequest(NOT_OPEN)
      change.record({ type: 'invitation_declined', requestId, volunteerId: volunteer.id })
      return {}
    })
  }
}
