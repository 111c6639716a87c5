import type { Reactions } from '../../events/dispatcher.js'
import { deleteNotificationsOf } from './notifications.repo.js'

/**
 * Who is told of each step of a request's lifecycle, and what (docs/api/messaging.md › Notifications). The change's other
 * notifications (alerts and their closing) come from the alerts module, which knows who was alerted.
 */
export const notificationsReactions: Reactions = {
  async request_approved ({ requestId, requesterId }, { notify }) {
    notify({ userId: requesterId, type: 'request_approved', requestId, data: {} })
  },
  async request_rejected ({ requestId, requesterId, comment }, { notify }) {
    notify({ userId: requesterId, type: 'request_rejected', requestId, data: { comment } })
  },
  // The requester is told when someone else (a moderator) cancelled; the volunteers below.
  async request_cancelled ({ requestId, requesterId, cancelledBy }, { notify }) {
    if (requesterId !== cancelledBy) notify({ userId: requesterId, type: 'request_cancelled', requestId, data: {} })
  },
  // Every volunteer whose offer was open, the assigned one included.
  async open_responses_cancelled ({ requestId, volunteerIds }, { notify }) {
    notify(...volunteerIds.map((userId) => ({ userId, type: 'request_cancelled' as const, requestId, data: {} })))
  },
  async response_created ({ requestId, requesterId, responseId, volunteerName, message }, { notify }) {
    notify({ userId: requesterId, type: 'response_received', requestId, data: { response_id: responseId, volunteer_name: volunteerName, message } })
  },
  async response_accepted ({ requestId, responseId, volunteerId, rejected }, { notify }) {
    notify(
      { userId: volunteerId, type: 'response_accepted', requestId, data: { response_id: responseId } },
      ...rejected.map((other) => ({ userId: other.volunteerId, type: 'response_rejected' as const, requestId, data: { response_id: other.responseId } }))
    )
  },
  // After a missed confirmation the schedule job tells both with confirmation_missed instead (docs/api/schedule.md › Confirmation, reminders, expiry).
  async response_withdrawn ({ requestId, responseId, requesterId, wasAccepted, missedConfirmation }, { notify }) {
    if (missedConfirmation !== true) notify({ userId: requesterId, type: 'response_withdrawn', requestId, data: { response_id: responseId, was_accepted: wasAccepted } })
  },
  async response_rejected ({ requestId, responseId, volunteerId }, { notify }) {
    notify({ userId: volunteerId, type: 'response_rejected', requestId, data: { response_id: responseId } })
  },
  async request_completed ({ requestId, volunteerId, rating }, { notify }) {
    notify({ userId: volunteerId, type: 'request_completed', requestId, data: { rating } })
  },
  // docs/api/schedule.md › Series: asked first, alone, to help again on the series' next date.
  async series_invited ({ requestId, seriesId, volunteerId, windowStart }, { notify }) {
    notify({ userId: volunteerId, type: 'series_invitation', requestId, data: { series_id: seriesId, window_start: windowStart.toISOString() } })
  },
  // docs/api/help.md › Concerns: neither carries the concern's text, nor who raised it.
  async concern_raised ({ concernId, requestId, urgent, recipientIds }, { notify }) {
    notify(...recipientIds.map((userId) => ({ userId, type: 'concern_raised' as const, requestId, data: { concern_id: concernId, urgent } })))
  },
  async concern_resolved ({ concernId, requestId, reporterId, outcome }, { notify }) {
    if (reporterId !== null) notify({ userId: reporterId, type: 'concern_resolved', requestId, data: { concern_id: concernId, outcome } })
  },
  // The erased user's own inbox is their data (docs/privacy.md › Erasure). It runs after the reactions that close
  // their requests and responses, which wait for any transaction notifying them about those rows.
  async user_erased ({ userId }, { tx }) {
    await deleteNotificationsOf(tx, userId)
  },
}
