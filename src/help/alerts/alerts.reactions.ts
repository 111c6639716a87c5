import type { Queryable } from '../../db/database.js'
import type { NewNotification, Reactions } from '../../events/dispatcher.js'
import * as alerts from './alerts.repo.js'
import { enqueueCatchUp, enqueueHomeCatchUp } from './catch-up.repo.js'

/** Why a request's open alerts were closed (request_alert_closed's data, docs/api/messaging.md › Notifications). */
export type CloseReason = 'assigned' | 'cancelled' | 'closed'

/**
 * Closes the request's open alerts, telling each volunteer alerted for it who has not responded
 * (docs/api/messaging.md › Notifications), each once. Alerts are open only while a request is approved.
 */
export async function closeAlertsOf (tx: Queryable, requestId: number, reason: CloseReason, at: alerts.At = null): Promise<NewNotification[]> {
  const volunteers = await alerts.closeAlerts(tx, requestId, at)
  return volunteers.map((userId) => ({ userId, type: 'request_alert_closed', requestId, data: { reason } }))
}

/**
 * A volunteer's alert to a request, from a round (alerts.service.ts) or a catch-up (catch-up.service.ts): the
 * request as the alert tells it, and the distance to the nearest 100 m (docs/api/help.md › Fair nearby alerts).
 */
export function requestAlert (
  userId: number, requestId: number, request: { title: string, urgency: alerts.Urgency, request_type_id: number, request_type_name: string }, meters: number, round: number
): NewNotification {
  return {
    userId,
    type: 'request_alert',
    requestId,
    data: {
      title: request.title,
      urgency: request.urgency,
      request_type_id: Number(request.request_type_id),
      request_type_name: request.request_type_name,
      distance_meters: Math.round(meters / 100) * 100,
      round,
    },
  }
}

/** Alert rounds (docs/alerts.md) start when a request becomes approved, and end when it leaves approved. */
export const alertsReactions: Reactions = {
  // In the approval's transaction: a committed approval always has its first round due.
  async request_approved ({ requestId }, { tx, at }) {
    await alerts.scheduleFirstRound(tx, requestId, at)
  },
  // docs/api/schedule.md › Series: an occurrence is created approved, so its rounds start as an approval's do.
  async occurrence_created ({ requestId }, { tx, at }) {
    await alerts.scheduleFirstRound(tx, requestId, at)
  },
  // Back in approved: rounds start again, never to those alerted before; urgently after a missed confirmation (docs/api/schedule.md › Confirmation, reminders, expiry).
  async response_withdrawn ({ requestId, wasAccepted, missedConfirmation }, { tx, at }) {
    if (wasAccepted) await alerts.scheduleFirstRound(tx, requestId, at, missedConfirmation === true)
  },
  // docs/api/schedule.md › Series: the occurrence's preferred volunteer is asked alone first; the others after the hold.
  async series_invited ({ requestId, roundsFrom }, { tx }) {
    await alerts.holdFirstRound(tx, requestId, roundsFrom)
  },
  async invitation_declined ({ requestId }, { tx, at }) {
    await alerts.releaseHeldRounds(tx, { requestId }, at)
  },
  async preferred_cleared ({ seriesIds }, { tx, at }) {
    await alerts.releaseHeldRounds(tx, { seriesIds }, at)
  },
  async response_accepted ({ requestId }, { tx, notify, at }) {
    notify(...await closeAlertsOf(tx, requestId, 'assigned', at))
  },
  async request_cancelled ({ requestId }, { tx, notify, at }) {
    notify(...await closeAlertsOf(tx, requestId, 'cancelled', at))
  },
  // docs/api/help.md › Catch-up alerts: told within 5 s of open requests, by the catch-up job (catch-up.service.ts). Queued in the
  // change's transaction, so no catch-up is lost or run for a change that rolled back; run later, so the
  // change never waits for request locks while it holds the volunteer's rows.
  async availability_widened ({ userId }, { tx, at }) {
    await enqueueCatchUp(tx, userId, at)
  },
  // The alert point of a volunteer on duty without a point of their own follows the home location.
  async home_location_changed ({ userId }, { tx, at }) {
    await enqueueHomeCatchUp(tx, userId, at)
  },
}
