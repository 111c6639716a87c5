import type { Reactions } from '../../events/dispatcher.js'
import { deleteAvailability, recordAlerts, refreshAlertPoint } from './availability.repo.js'

export const availabilityReactions: Reactions = {
  // The home location is the alert point of a volunteer without one of their own: both change together.
  async home_location_changed ({ userId }, { tx }) {
    await refreshAlertPoint(tx, userId)
  },
  // Counted towards each volunteer's daily cap (docs/alerts.md).
  async alert_round_ran ({ alertedIds, at }, { tx }) {
    await recordAlerts(tx, alertedIds, at)
  },
  // Erasure (docs/privacy.md › Erasure): the availability, alert point included, is deleted.
  async user_erased ({ userId }, { tx }) {
    await deleteAvailability(tx, userId)
  },
}
